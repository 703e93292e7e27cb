import type { Context } from 'hono';
import { z } from 'zod';
import type { CartSummary, CheckoutRefusal, OwnedItem, Purchase, Sale, SalesMonth } from '@marketplace/shared/contract';
import { guestCartKey } from '../auth/sessions.js';
import { CURRENCY, fees, isParty, orderLineOf, refusalOf } from '../domain/orders.js';
import { codeRefusal, MixedCurrencies, priceCart } from '../domain/pricing.js';
import type { AppEnv, SessionUser } from '../http/env.js';
import { forbidden, HttpError, notFound } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { parseMedia, pictureOf, unmarkedOf } from '../media/derivatives.js';
import { userCartKey } from '../repositories/cart.js';
import type { RepositorySet } from '../repositories/index.js';
import type { CartLine, PurchaseRecord } from '../repositories/purchases.js';
import type { Services } from '../services.js';

/** How long a purchase waits for its payment. */
export const PURCHASE_OPEN_MS = 30 * 60_000;
/** Where a buyer pays an open purchase: the API sends them on to the provider's page. */
export const PAY_PATH = '/payments/pay';

const buyable = (lines: CartLine[]) => lines.filter((line) => line.forSale && !line.owned);

/** The cart's totals as the server prices them now, with the code it carries (when it still applies). */
export async function cartSummaryOf(repos: RepositorySet, key: string | null, now = new Date()): Promise<CartSummary> {
  const lines = key ? buyable(await repos.purchases.cartLines(key, userIdOfKey(key))) : [];
  const applied = key ? await repos.purchases.cartCode(key) : null;
  const problem = applied ? codeRefusal(applied.terms, lines, now) : null;
  const usable = applied && !problem ? applied : null;
  let priced;
  try {
    priced = priceCart(lines, usable?.terms ?? null);
  } catch (error) {
    if (error instanceof MixedCurrencies) throw new HttpError(409, error.message);
    throw error;
  }
  return {
    currency: priced.currency,
    itemCount: lines.length,
    subtotalCents: priced.subtotalCents,
    discountCents: priced.discountCents,
    totalCents: priced.totalCents,
    discountCode: usable && {
      code: usable.terms.code,
      percentOff: usable.terms.percentOff,
      ...(usable.terms.amountOffCents !== null ? { amountOffCents: usable.terms.amountOffCents } : {}),
      sellerProfileName: usable.sellerProfileName,
      sellerName: usable.sellerName,
    },
    ...(problem ? { codeProblem: problem } : {}),
  };
}

/** A user's cart key names the user: their owned items are not priced as buyable. */
function userIdOfKey(key: string): number | null {
  const match = /^u:(\d+)$/.exec(key);
  return match ? Number(match[1]) : null;
}

export function registerPurchaseRoutes(r: Router, services: Services): void {
  const { repos, config } = services;
  const ownerKey = (c: Context<AppEnv>, user: SessionUser | null, create: boolean) =>
    user ? userCartKey(user.id) : guestCartKey(c, config, create);

  /** Where the buyer comes back to after paying: the page origin they came from, when it is one of ours. */
  const returnOriginOf = (c: Context<AppEnv>) => {
    const origin = c.req.header('origin');
    return origin && config.allowedOrigins.includes(origin)
      ? origin
      : (config.allowedOrigins[0] ?? config.publicOrigin);
  };

  const view = (purchase: PurchaseRecord): Purchase => ({
    ...purchase.view,
    payUrl:
      purchase.status === 'open'
        ? `${config.publicOrigin}${PAY_PATH}/${encodeURIComponent(purchase.purchaseNumber)}`
        : null,
  });

  r.visitor('getCartSummary', noFields, async (_input, { c, user }) => ({
    summary: await cartSummaryOf(repos, ownerKey(c, user, false)),
  }));

  r.visitor('applyDiscountCode', z.object({ code: fields.text(40) }), async ({ code }, { c, user }) => {
    const key = ownerKey(c, user, true) as string;
    const found = await repos.purchases.findCode(code);
    if (!found) throw new HttpError(400, `There is no discount code ${code.toUpperCase()}`, 'code');
    const lines = buyable(await repos.purchases.cartLines(key, user?.id ?? null));
    const refusal = codeRefusal(found.terms, lines, new Date());
    if (refusal) throw new HttpError(400, refusal, 'code');
    await repos.purchases.setCartCode(key, found.terms.id);
    return { summary: await cartSummaryOf(repos, key) };
  });

  r.visitor('removeDiscountCode', noFields, async (_input, { c, user }) => {
    const key = ownerKey(c, user, false);
    if (key) await repos.purchases.clearCartCode(key);
    return { summary: await cartSummaryOf(repos, key) };
  });

  r.user('checkout', noFields, async (_input, { c, user }) => {
    if (!services.payments) throw new HttpError(503, 'Payments are not set up on this server');
    const provider = services.payments.name;
    const key = userCartKey(user.id);
    const returnOrigin = returnOriginOf(c);
    const now = new Date();

    const outcome = await repos.transaction(async (tx) => {
      const lines = await tx.purchases.cartLines(key, user.id);
      const refused: CheckoutRefusal[] = lines
        .filter((line) => line.owned || !line.forSale)
        .map((line) => ({
          identifier: line.identifier,
          name: line.name,
          reason: line.owned ? 'You already own this item' : 'This item is no longer for sale',
        }));
      // What cannot be bought leaves the cart, so the buyer is not asked about it again.
      await tx.cart.removeMany(
        key,
        refused.map((line) => line.identifier),
      );
      const candidates = buyable(lines);
      if (candidates.length === 0) return { refused, purchaseNumber: null };
      const applied = await tx.purchases.cartCode(key);
      const problem = applied && codeRefusal(applied.terms, candidates, now);
      if (problem) throw new HttpError(409, `${problem}: remove it to check out`, 'code');
      const code = applied?.terms ?? null;
      let priced;
      try {
        priced = priceCart(candidates, code);
      } catch (error) {
        if (error instanceof MixedCurrencies) throw new HttpError(409, error.message);
        throw error;
      }

      // One open purchase per cart: the same cart checked out again (a double click, a second tab,
      // a retry) gets the same purchase; a cart that changed replaces it.
      const existing = await tx.purchases.openFor(key);
      if (existing) {
        const sameItems =
          existing.lines.map((line) => line.identifier).join('\n') ===
          priced.lines
            .map((line) => line.identifier)
            .sort()
            .join('\n');
        const current = existing.expiresAt > now.toISOString();
        if (
          current &&
          sameItems &&
          existing.totalCents === priced.totalCents &&
          existing.discountCodeId === (code?.id ?? null)
        )
          return { refused, purchaseNumber: existing.purchaseNumber };
        await tx.purchases.expire(existing.id);
      }
      const created = await tx.purchases.create({
        buyerId: user.id,
        openKey: key,
        currency: priced.currency,
        subtotalCents: priced.subtotalCents,
        discountCents: priced.discountCents,
        totalCents: priced.totalCents,
        code,
        provider,
        returnOrigin,
        expiresAt: new Date(now.getTime() + PURCHASE_OPEN_MS).toISOString(),
        lines: priced.lines,
      });
      if (created) return { refused, purchaseNumber: created };
      // Another checkout of this cart committed its purchase first: that one is this one's.
      const other = await tx.purchases.openFor(key);
      if (!other) throw new HttpError(409, 'Your cart changed during checkout: try again');
      return { refused, purchaseNumber: other.purchaseNumber };
    });
    if (!outcome.purchaseNumber) {
      const reasons = outcome.refused.map((line) => `${line.name}: ${line.reason.toLowerCase()}`).join('; ');
      throw new HttpError(409, reasons ? `Nothing in your cart can be bought (${reasons})` : 'Your cart is empty');
    }
    const purchase = await repos.purchases.byNumber(outcome.purchaseNumber);
    if (!purchase) throw new Error(`purchase ${outcome.purchaseNumber} vanished after checkout`);
    return { purchase: view(purchase), refused: outcome.refused };
  });

  r.user('payEventOrder', z.object({ orderId: fields.text(40) }), async ({ orderId }, { c, user }) => {
    if (!services.payments) throw new HttpError(503, 'Payments are not set up on this server');
    const provider = services.payments.name;
    const order = await repos.orders.byOrderId(orderId);
    if (!order) throw notFound('Order');
    if (!isParty(order, user.id)) throw forbidden('You are not allowed to change this order');
    if (order.clientId !== user.id) throw new HttpError(409, 'Only the client can do this');
    const refusal = refusalOf(order, 'pay', 'payment');
    if (refusal) throw new HttpError(409, refusal);
    const key = orderLineOf(order.orderId);
    const now = new Date();
    const purchaseNumber = await repos.transaction(async (tx) => {
      // Opened only while the order awaits its payment, decided with its row held: a cancel at the
      // same moment comes before (refused here) or after (and ends this purchase).
      if (!(await tx.orders.holdIfOpen(order.rowId, 'APPROVED'))) {
        const now = await tx.orders.byOrderId(order.orderId);
        throw new HttpError(
          409,
          (now && refusalOf(now, 'pay', 'payment')) ?? 'This order changed meanwhile: look again',
        );
      }
      // One open purchase per order: paying again (a double click, a second tab, a retry) goes on
      // with the same one while it is open and of the order's total.
      const existing = await tx.purchases.openFor(key);
      if (existing) {
        if (existing.expiresAt > now.toISOString() && existing.totalCents === order.totalCents)
          return existing.purchaseNumber;
        await tx.purchases.expire(existing.id);
      }
      const created = await tx.purchases.create({
        buyerId: user.id,
        openKey: key,
        currency: CURRENCY,
        subtotalCents: order.totalCents,
        discountCents: 0,
        totalCents: order.totalCents,
        code: null,
        provider,
        returnOrigin: returnOriginOf(c),
        expiresAt: new Date(now.getTime() + PURCHASE_OPEN_MS).toISOString(),
        lines: [
          {
            identifier: key,
            name: `Event order ${order.orderId}: ${order.eventName}`,
            sellerId: order.photographerId,
            priceCents: order.totalCents,
            discountCents: 0,
            amountCents: order.totalCents,
          },
        ],
      });
      if (created) return created;
      const other = await tx.purchases.openFor(key);
      if (!other) throw new HttpError(409, 'This order changed meanwhile: try again');
      return other.purchaseNumber;
    });
    const purchase = await repos.purchases.byNumber(purchaseNumber);
    if (!purchase) throw new Error(`purchase ${purchaseNumber} vanished after it was made`);
    return { purchase: view(purchase) };
  });

  r.user('getPurchase', z.object({ purchaseNumber: fields.text(20) }), async ({ purchaseNumber }, { user }) => {
    const purchase = await repos.purchases.byNumber(purchaseNumber);
    // Another buyer's receipt is not found, as one that does not exist.
    if (!purchase || purchase.buyerId !== user.id) throw notFound('Purchase');
    return { purchase: view(purchase) };
  });

  r.user('getPurchases', noFields, async (_input, { user }) => {
    const purchases: Purchase[] = [];
    for (const number of await repos.purchases.numbersOf(user.id)) {
      const purchase = await repos.purchases.byNumber(number);
      if (purchase) purchases.push(view(purchase));
    }
    const owned = await repos.purchases.owned(user.id);
    const items: OwnedItem[] = owned.map((row) => {
      const media = parseMedia(row.media);
      // Bought: its unmarked pictures (signed links), not the preview everyone else sees.
      const unmarked = media && unmarkedOf(media);
      return {
        identifier: row.identifier,
        name: row.name,
        contentType: row.content_type,
        eventName: row.event_name,
        sellerName: row.seller_name,
        purchaseNumber: row.purchase_number,
        purchasedAt: row.granted_at,
        image: unmarked
          ? pictureOf(unmarked, (d) => repos.urls.contentFile(row.identifier, d.name))
          : media && pictureOf(media, (d) => repos.urls.media(d.key) ?? ''),
        downloadUrl: repos.urls.purchased(user.id, row.identifier),
      };
    });
    return {
      purchases,
      items,
      downloadAllUrl: items.length > 0 ? repos.urls.purchased(user.id, null) : null,
    };
  });

  r.user('getSales', noFields, async (_input, { user }) => {
    const rows = await repos.purchases.sales(user.id);
    const sales: Sale[] = rows.map((row) => {
      const { platformFeeCents, photographerPayoutCents } = fees(row.amount_cents);
      return {
        purchaseNumber: row.purchase_number,
        identifier: row.content_identifier,
        name: row.name,
        buyerProfileName: row.buyer_profile_name,
        soldAt: row.paid_at ?? '',
        currency: row.currency,
        amountCents: row.amount_cents,
        feeCents: platformFeeCents,
        payoutCents: photographerPayoutCents,
      };
    });
    const months = new Map<string, SalesMonth>();
    for (const sale of sales) {
      const month = sale.soldAt.slice(0, 7);
      const key = `${month} ${sale.currency}`;
      const total = months.get(key) ?? {
        month,
        currency: sale.currency,
        count: 0,
        amountCents: 0,
        feeCents: 0,
        payoutCents: 0,
      };
      total.count += 1;
      total.amountCents += sale.amountCents;
      total.feeCents += sale.feeCents;
      total.payoutCents += sale.payoutCents;
      months.set(key, total);
    }
    return { sales, months: [...months.values()] };
  });
}
