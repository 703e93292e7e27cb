import { createHmac, randomBytes } from 'node:crypto';
import type { PaymentProvider } from './types.js';

/**
 * The embedded test payments (`npm start`, the tests, any deployment without Stripe that names
 * them): the API serves the payment page (payments/testPage.ts), takes Stripe's test card
 * numbers, and confirms the outcome the way Stripe does, by a webhook signed as Stripe signs.
 * No money moves.
 */
export function testProvider(webhookSecret: string, pageOrigin: () => string): PaymentProvider {
  return {
    name: 'test',
    webhookSecret,
    async startPayment(request) {
      return {
        session: `cs_test_${randomBytes(12).toString('hex')}`,
        url: `${pageOrigin()}${TEST_PAYMENT_PATH}/${encodeURIComponent(request.purchaseNumber)}`,
      };
    },
  };
}

/** Where the test payment page of a purchase is, on the API's origin. */
export const TEST_PAYMENT_PATH = '/payments/test';

/** Stripe's test cards: one succeeds, one is declined, one asks the buyer to confirm first. */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  confirm: '4000002500003155',
} as const;

/** The `Stripe-Signature` header of `payload`: `t=<seconds>,v1=<HMAC-SHA256 of "t.payload">`. */
export function signLikeStripe(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** A Checkout Session's completion, as Stripe's event carries it. */
export function completedSessionEvent(session: {
  id: string;
  purchaseNumber: string;
  amountCents: number;
  currency: string;
}): { id: string; payload: string } {
  const id = `evt_test_${randomBytes(12).toString('hex')}`;
  const payload = JSON.stringify({
    id,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        client_reference_id: session.purchaseNumber,
        metadata: { purchaseNumber: session.purchaseNumber },
        amount_total: session.amountCents,
        currency: session.currency.toLowerCase(),
        payment_status: 'paid',
        status: 'complete',
        payment_intent: `pi_test_${randomBytes(12).toString('hex')}`,
      },
    },
  });
  return { id, payload };
}
