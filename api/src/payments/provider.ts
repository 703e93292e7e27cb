/**
 * Payments: one interface for whoever takes the money, and the one reading of their webhooks.
 * Both providers speak Stripe's webhook format (a JSON event, signed `t=<seconds>,v1=<hex>` with
 * HMAC-SHA256 over `timestamp.payload`), so one handler (payments/webhook.ts) serves both, and it
 * alone marks a purchase paid.
 */
import Stripe from 'stripe';
import { messageOf } from '@marketplace/shared/errors';
import type { PaymentsConfig } from '../config.js';
import { stripeProvider } from './stripe.js';
import { testProvider } from './testPayments.js';
import type { PaymentEvent, PaymentProvider } from './types.js';

export type { PaymentEvent, PaymentProvider, PaymentRequest } from './types.js';

/** How old a webhook's signature may be: Stripe's default tolerance. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** `pageOrigin`: where the API is reached by browsers (known once it listens), for the test payment page. */
export function createPaymentProvider(config: PaymentsConfig, pageOrigin: () => string): PaymentProvider | null {
  if (config.provider === 'stripe') return stripeProvider(config.secretKey, config.webhookSecret);
  if (config.provider === 'test') return testProvider(config.webhookSecret, pageOrigin);
  return null;
}

export class WebhookRefused extends Error {}

/**
 * Checks a webhook's signature and age with Stripe's own library and reads it: throws
 * WebhookRefused when the signature is wrong or older than the tolerance.
 */
export function readWebhook(
  payload: string,
  signature: string | undefined,
  secret: string,
  nowMs = Date.now(),
): PaymentEvent {
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error('no Stripe-Signature header');
    event = Stripe.webhooks.constructEvent(payload, signature, secret, WEBHOOK_TOLERANCE_SECONDS, undefined, nowMs);
  } catch (error) {
    throw new WebhookRefused(`Webhook signature refused: ${messageOf(error).split('\n')[0]}`);
  }
  return toPaymentEvent(event);
}

function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  const base = { id: event.id, type: event.type };
  if (!event.type.startsWith('checkout.session.')) return other(base);
  const session = event.data.object as Stripe.Checkout.Session;
  const purchaseNumber = session.metadata?.purchaseNumber ?? session.client_reference_id ?? null;
  const reference =
    typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? session.id);
  const common = {
    ...base,
    purchaseNumber,
    amountCents: session.amount_total ?? null,
    currency: session.currency ? session.currency.toUpperCase() : null,
    reference,
  };
  const paid =
    (event.type === 'checkout.session.completed' && session.payment_status !== 'unpaid') ||
    event.type === 'checkout.session.async_payment_succeeded';
  if (paid) return { ...common, outcome: 'paid' };
  if (event.type === 'checkout.session.expired') return { ...common, outcome: 'expired' };
  return { ...common, outcome: 'other' };
}

const other = (base: { id: string; type: string }): PaymentEvent => ({
  ...base,
  outcome: 'other',
  purchaseNumber: null,
  amountCents: null,
  currency: null,
  reference: null,
});
