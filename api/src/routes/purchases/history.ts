import { z } from 'zod';
import type { Purchase } from '@marketplace/shared/contract';
import { notFound } from '../../http/errors.js';
import { fields, noFields, type Router } from '../../http/route.js';
import type { Services } from '../../services.js';
import { ownedItemView, purchaseView, saleView, salesByMonth } from '../../views/purchases.js';

/** A buyer's receipts and what they own; a seller's sales. */
export function registerPurchaseHistoryRoutes(r: Router, { repos, config }: Services): void {
  r.user('getPurchase', z.object({ purchaseNumber: fields.text(20) }), async ({ purchaseNumber }, { user }) => {
    const purchase = await repos.purchases.byNumber(purchaseNumber);
    // Another buyer's receipt is not found, as one that does not exist.
    if (!purchase || purchase.buyerId !== user.id) throw notFound('Purchase');
    return { purchase: purchaseView(purchase, config.publicOrigin) };
  });

  r.user('getPurchases', noFields, async (_input, { user }) => {
    const purchases: Purchase[] = [];
    for (const number of await repos.purchases.numbersOf(user.id)) {
      const purchase = await repos.purchases.byNumber(number);
      if (purchase) purchases.push(purchaseView(purchase, config.publicOrigin));
    }
    const items = (await repos.purchases.owned(user.id)).map((row) => ownedItemView(repos.urls, user.id, row));
    return {
      purchases,
      items,
      downloadAllUrl: items.length > 0 ? repos.urls.purchased(user.id, null) : null,
    };
  });

  r.user('getSales', noFields, async (_input, { user }) => {
    const sales = (await repos.purchases.sales(user.id)).map(saleView);
    return { sales, months: salesByMonth(sales) };
  });
}
