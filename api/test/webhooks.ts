import Stripe from 'stripe';
import { WEBHOOK_PATH } from '../src/payments/routes.js';
import { completedSessionEvent } from '../src/payments/testPayments.js';
import type { TestApi } from './harness.js';

/** The test API's webhook secret (the tests run with the embedded test payments). */
export const secretOf = (api: TestApi) => {
  const payments = api.config.payments;
  if (payments.provider !== 'test') throw new Error('the tests run with test payments');
  return payments.webhookSecret;
};

/** Posts a webhook signed with Stripe's own test helper. */
export async function sendWebhook(
  api: TestApi,
  payload: string,
  options: { secret?: string; timestamp?: number } = {},
) {
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? secretOf(api),
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  });
  const res = await fetch(`${api.url}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as { outcome?: string; error?: string } };
}

/** The provider's "checkout session completed, paid" event for a purchase. */
export const paidEvent = (purchaseNumber: string, amountCents: number, currency = 'USD') =>
  completedSessionEvent({ id: `cs_test_${purchaseNumber}`, purchaseNumber, amountCents, currency });
