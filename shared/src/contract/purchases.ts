/**
 * Buying content: the cart's totals, a purchase (checkout's snapshot of what is bought, at what
 * price), what a buyer owns and what a seller sold. Money is integer minor units of `currency`
 * (cents for USD), never a float.
 */
import type { ResponsiveImage } from './entities.js';

/**
 * A photographer's code applied to the cart: it takes `percentOff` off each of that photographer's
 * items, or for an amount code `amountOffCents` once off their total (percentOff 0 then).
 */
export interface AppliedDiscountCode {
  code: string;
  percentOff: number;
  /** Present for an amount code only. */
  amountOffCents?: number;
  sellerProfileName: string;
  sellerName: string;
}

/** What the cart costs now, as the server prices it. */
export interface CartSummary {
  currency: string;
  itemCount: number;
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  discountCode: AppliedDiscountCode | null;
  /** Why the code the cart carries takes nothing off now (it expired, was used up, or its items left): present only then. */
  codeProblem?: string;
}

/**
 * open: waiting for its payment (for 30 minutes); paid: the webhook confirmed it; expired: not
 * paid in time; flagged: a payment arrived that does not match it (amount or currency), for a person to look at.
 */
export const PURCHASE_STATUSES = ['open', 'paid', 'expired', 'flagged'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** One item of a purchase, priced and discounted when the purchase was made. */
export interface PurchaseLine {
  identifier: string;
  name: string;
  sellerProfileName: string;
  sellerName: string;
  priceCents: number;
  discountCents: number;
  amountCents: number;
}

export interface Purchase {
  /** The receipt's number, e.g. "P-7K2M9Q4X". */
  purchaseNumber: string;
  status: PurchaseStatus;
  currency: string;
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  discountCode: string | null;
  createdAt: string;
  paidAt: string | null;
  /** An open purchase is not paid after this. */
  expiresAt: string;
  /** The payment provider's reference once paid (a Stripe payment intent, a test payment's id). */
  paymentReference: string | null;
  items: PurchaseLine[];
  /** Where the buyer pays it (the provider's page, through the API); for an open purchase only. */
  payUrl: string | null;
}

/** An item checkout left in the cart's place: already owned, or no longer for sale. */
export interface CheckoutRefusal {
  identifier: string;
  name: string;
  reason: string;
}

/** Something the user bought: its picture and a short-lived link to its original. */
export interface OwnedItem {
  identifier: string;
  name: string;
  contentType: string;
  eventName: string | null;
  sellerName: string;
  purchaseNumber: string;
  purchasedAt: string;
  image: ResponsiveImage | null;
  downloadUrl: string;
}

/** One item sold: to whom, for how much, and what the seller is paid of it (the order payout's fee rule). */
export interface Sale {
  purchaseNumber: string;
  identifier: string;
  name: string;
  buyerProfileName: string;
  soldAt: string;
  currency: string;
  amountCents: number;
  feeCents: number;
  payoutCents: number;
}

/** A month's sales, "YYYY-MM" in UTC. */
export interface SalesMonth {
  month: string;
  currency: string;
  count: number;
  amountCents: number;
  feeCents: number;
  payoutCents: number;
}
