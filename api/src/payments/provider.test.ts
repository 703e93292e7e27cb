import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { loadConfig, loadConfigWithSecrets } from '../config.js';
import { createPaymentProvider, readWebhook, WebhookRefused } from './provider.js';
import { completedSessionEvent, signLikeStripe } from './testPayments.js';

const base = { ADMIN_TOKEN: 'unit-admin-token', RUM_TOKEN_KEY: 'unit-rum-token-key-0123456789abcdef' };
const SECRET = 'whsec_unit';
const signed = (payload: string, timestamp?: number) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, ...(timestamp ? { timestamp } : {}) });
const sessionEvent = (type: string, object: Record<string, unknown>) =>
  JSON.stringify({
    id: `evt_${type}`,
    object: 'event',
    type,
    data: { object: { object: 'checkout.session', ...object } },
  });

describe('choosing the payment provider', () => {
  it('takes Stripe when both of its keys are set, test payments with the demo data or by name, else none', () => {
    const stripe = loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
    expect(stripe.payments).toEqual({ provider: 'stripe', secretKey: 'sk_test_x', webhookSecret: 'whsec_x' });
    expect(createPaymentProvider(stripe.payments, () => '')?.name).toBe('stripe');
    expect(loadConfig({ ...base, SEED_DEMO: '1' }).payments.provider).toBe('test');
    expect(loadConfig({ ...base, PAYMENTS_PROVIDER: 'test' }).payments.provider).toBe('test');
    // A deployment (no demo data) without Stripe's keys takes no payments: test payments are never on by default.
    expect(loadConfig({ ...base }).payments).toEqual({ provider: 'none' });
    expect(createPaymentProvider({ provider: 'none' }, () => '')).toBeNull();
  });

  it('refuses half a Stripe setup and an unknown provider at start', () => {
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYMENTS_PROVIDER/);
  });

  it('gives every instance the same test-payments secret, a key of its own, not derived from the admin token', () => {
    const dir = mkdtempSync(join(tmpdir(), 'test-payments-secret-'));
    try {
      const env = { ...base, SEED_DEMO: '1', DATABASE_PATH: join(dir, 'platform.sqlite') };
      const one = loadConfigWithSecrets(env).payments;
      expect(loadConfigWithSecrets(env).payments).toEqual(one);
      // Whoever holds (or changes) the operator token neither knows nor changes it.
      expect(loadConfigWithSecrets({ ...env, ADMIN_TOKEN: 'another' }).payments).toEqual(one);
      expect(readFileSync(join(dir, 'test-payments-webhook-secret'), 'utf8')).toBe(
        one.provider === 'test' ? one.webhookSecret : '',
      );
      expect(loadConfigWithSecrets({ ...env, TEST_PAYMENTS_WEBHOOK_SECRET: 'whsec_given' }).payments).toEqual({
        provider: 'test',
        webhookSecret: 'whsec_given',
      });
      // A deployment taking test payments names the secret: none is made in a folder nobody shares.
      expect(() =>
        loadConfigWithSecrets({
          ...env,
          NODE_ENV: 'production',
          MAIL: 'off',
          FILE_LINK_KEY: 'f'.repeat(32),
          PAYMENTS_PROVIDER: 'test',
        }),
      ).toThrow(/NODE_ENV=production needs TEST_PAYMENTS_WEBHOOK_SECRET/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reading a webhook', () => {
  it("takes the test payments' own signature as Stripe's library checks it", () => {
    const { payload } = completedSessionEvent({
      id: 'cs_1',
      purchaseNumber: 'P-1',
      amountCents: 2850,
      currency: 'USD',
    });
    expect(readWebhook(payload, signLikeStripe(payload, SECRET), SECRET)).toMatchObject({
      outcome: 'paid',
      purchaseNumber: 'P-1',
      amountCents: 2850,
      currency: 'USD',
      reference: expect.stringMatching(/^pi_test_/),
    });
  });

  it('refuses a changed payload, a stale or missing signature', () => {
    const { payload } = completedSessionEvent({ id: 'cs_1', purchaseNumber: 'P-1', amountCents: 100, currency: 'USD' });
    const header = signed(payload);
    expect(() => readWebhook(payload.replace('100', '1'), header, SECRET)).toThrow(WebhookRefused);
    expect(() => readWebhook(payload, signed(payload, Math.floor(Date.now() / 1000) - 301), SECRET)).toThrow(
      /tolerance/,
    );
    expect(() => readWebhook(payload, undefined, SECRET)).toThrow(WebhookRefused);
  });

  it("reads Stripe's Checkout events: paid, paid later, unpaid yet, expired, and others", () => {
    const read = (payload: string) => readWebhook(payload, signed(payload), SECRET);
    const session = { id: 'cs_2', metadata: { purchaseNumber: 'P-2' }, amount_total: 500, currency: 'eur' };
    expect(read(sessionEvent('checkout.session.completed', { ...session, payment_status: 'paid' }))).toMatchObject({
      outcome: 'paid',
      currency: 'EUR',
      reference: 'cs_2',
    });
    expect(read(sessionEvent('checkout.session.completed', { ...session, payment_status: 'unpaid' })).outcome).toBe(
      'other',
    );
    expect(read(sessionEvent('checkout.session.async_payment_succeeded', session)).outcome).toBe('paid');
    expect(read(sessionEvent('checkout.session.expired', session)).outcome).toBe('expired');
    const refund = JSON.stringify({ id: 'evt_r', object: 'event', type: 'charge.refunded', data: { object: {} } });
    expect(read(refund)).toMatchObject({ outcome: 'other', purchaseNumber: null });
  });
});
