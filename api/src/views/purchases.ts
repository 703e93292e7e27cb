import type { CartSummary, OwnedItem, Purchase, Sale, SalesMonth } from '@marketplace/shared/contract';
import { fees } from '../domain/orders.js';
import type { CartPrice, PricedLine } from '../domain/pricing.js';
import { parseMedia, pictureOf, unmarkedOf } from '../media/derivatives.js';
import type { PurchasesRepository } from '../repositories/purchases.js';
import type { DiscountCode } from '../repositories/purchases/codes.js';
import type { PurchaseRecord } from '../repositories/purchases/records.js';
import type { FileUrls } from '../repositories/urls.js';

/** Where a buyer pays an open purchase: the API sends them on to the provider's page. */
export const PAY_PATH = '/payments/pay';

type OwnedRow = Awaited<ReturnType<PurchasesRepository['owned']>>[number];
type SaleRow = Awaited<ReturnType<PurchasesRepository['sales']>>[number];

/** A purchase as its buyer reads it: an open one with where to pay it, on the API at `publicOrigin`. */
export const purchaseView = (purchase: PurchaseRecord, publicOrigin: string): Purchase => ({
  purchaseNumber: purchase.purchaseNumber,
  status: purchase.status,
  currency: purchase.currency,
  subtotalCents: purchase.subtotalCents,
  discountCents: purchase.discountCents,
  totalCents: purchase.totalCents,
  discountCode: purchase.discountCode,
  createdAt: purchase.createdAt,
  paidAt: purchase.paidAt,
  expiresAt: purchase.expiresAt,
  paymentReference: purchase.paymentReference,
  items: purchase.lines.map(({ sellerId: _seller, ...line }) => line),
  payUrl:
    purchase.status === 'open' ? `${publicOrigin}${PAY_PATH}/${encodeURIComponent(purchase.purchaseNumber)}` : null,
});

/** The cart's totals, with the code it carries when it still applies and why not when it does not. */
export const cartSummaryView = (
  priced: CartPrice<PricedLine>,
  itemCount: number,
  usable: DiscountCode | null,
  problem: string | null,
): CartSummary => ({
  currency: priced.currency,
  itemCount,
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
});

/** Something `userId` bought: its unmarked pictures (signed links), not the preview everyone else sees. */
export const ownedItemView = (urls: FileUrls, userId: number, row: OwnedRow): OwnedItem => {
  const media = parseMedia(row.media);
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
      ? pictureOf(unmarked, (d) => urls.contentFile(row.identifier, d.name))
      : media && pictureOf(media, (d) => urls.media(d.key) ?? ''),
    downloadUrl: urls.purchased(userId, row.identifier),
  };
};

/** One item sold, with the platform's fee and the seller's payout of it. */
export const saleView = (row: SaleRow): Sale => {
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
};

/** The sales totalled by month and currency, in the order of the sales. */
export const salesByMonth = (sales: readonly Sale[]): SalesMonth[] => {
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
  return [...months.values()];
};
