/**
 * The payment providers' common shapes: what one is asked to collect, what it offers, and a
 * webhook event as the handler acts on it. Apart from provider.ts, which picks an implementation,
 * so the implementations import these without importing their chooser.
 */
/** What the provider is asked to collect. */
export interface PaymentRequest {
  purchaseNumber: string;
  amountCents: number;
  currency: string;
  /** One line per item, for the provider's page. */
  items: { name: string; amountCents: number }[];
  /** Where the buyer goes once paid, and where when they give up. */
  successUrl: string;
  cancelUrl: string;
  /** The provider's page is not offered after this (epoch ms). */
  expiresAt: number;
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'test';
  /**
   * Opens the provider's payment page for a purchase: the same purchase asked twice gets the same
   * page (Stripe: an idempotency key per purchase).
   */
  startPayment(request: PaymentRequest): Promise<{ session: string; url: string }>;
  /** The secret webhooks are signed with. */
  readonly webhookSecret: string;
}

/** A webhook event as the handler acts on it. */
export interface PaymentEvent {
  id: string;
  /** paid: the money is collected; expired: the payment page closed unpaid; other: recorded, nothing changes. */
  outcome: 'paid' | 'expired' | 'other';
  type: string;
  purchaseNumber: string | null;
  amountCents: number | null;
  /** Upper case (ISO 4217), as purchases store it. */
  currency: string | null;
  /** The payment's own reference (a payment intent's id), for the receipt. */
  reference: string | null;
}
