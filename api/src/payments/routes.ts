import type { Context, Hono } from 'hono';
import { PAGES } from '@marketplace/shared/platform';
import { formatMoney } from '@marketplace/shared/format';
import type { AppEnv } from '../http/env.js';
import { HttpError, notFound } from '../http/errors.js';
import type { PurchaseRecord } from '../repositories/purchases/records.js';
import { PAY_PATH } from '../views/purchases.js';
import type { Services } from '../services.js';
import { readWebhook, WebhookRefused } from './provider.js';
import { completedSessionEvent, signLikeStripe, TEST_CARDS, TEST_PAYMENT_PATH } from './testPayments.js';
import { handlePaymentEvent } from './webhook.js';

/** Where providers deliver their events. */
export const WEBHOOK_PATH = '/v2/payments/webhook';
/** The largest webhook accepted: Stripe's events are a few kilobytes. */
const WEBHOOK_MAX_BYTES = 256 * 1024;

/**
 * The payment routes outside the contract: the webhook (providers call it, not pages), the hop to
 * the provider's page, and the embedded test payment page.
 */
export function registerPaymentRoutes(app: Hono<AppEnv>, services: Services): void {
  const { repos, config } = services;

  app.post(WEBHOOK_PATH, async (c) => {
    const provider = services.payments;
    if (!provider) throw new HttpError(404, 'Payments are not set up on this server');
    const payload = await c.req.text();
    if (Buffer.byteLength(payload) > WEBHOOK_MAX_BYTES) throw new HttpError(413, 'This webhook is too large');
    let event;
    try {
      event = readWebhook(payload, c.req.header('stripe-signature'), provider.webhookSecret);
    } catch (error) {
      if (error instanceof WebhookRefused) throw new HttpError(400, error.message);
      throw error;
    }
    const outcome = await handlePaymentEvent(services, event);
    return c.json({ received: true, outcome });
  });

  /** The buyer's own open purchase, or a page that says why not. */
  const buyersPurchase = async (c: Context<AppEnv>): Promise<PurchaseRecord> => {
    const user = c.get('user');
    const purchase = await repos.purchases.byNumber(c.req.param('purchaseNumber') ?? '');
    if (!purchase || !user || purchase.buyerId !== user.id) throw notFound('Purchase');
    return purchase;
  };
  const receiptUrl = (purchase: PurchaseRecord) =>
    `${purchase.returnOrigin}${PAGES.receipt.href({ purchaseNumber: purchase.purchaseNumber })}`;

  app.get(`${PAY_PATH}/:purchaseNumber`, async (c) => {
    const provider = services.payments;
    if (!provider) throw new HttpError(503, 'Payments are not set up on this server');
    const purchase = await buyersPurchase(c);
    if (purchase.status !== 'open' || purchase.expiresAt <= new Date().toISOString())
      return c.redirect(receiptUrl(purchase), 303);
    let url = purchase.providerUrl;
    if (!url) {
      const started = await provider.startPayment({
        purchaseNumber: purchase.purchaseNumber,
        amountCents: purchase.totalCents,
        currency: purchase.currency,
        items: purchase.lines.map((line) => ({ name: line.name, amountCents: line.amountCents })),
        successUrl: receiptUrl(purchase),
        cancelUrl: `${purchase.returnOrigin}${PAGES.cart.href()}`,
        expiresAt: Date.parse(purchase.expiresAt),
      });
      url = (await repos.purchases.setProviderSession(purchase.id, started.session, started.url)).url;
    }
    return c.redirect(url, 303);
  });

  if (config.payments.provider !== 'test') return;
  const secret = config.payments.webhookSecret;

  // A refused card shows the form again with the reason, answered 200 like a payment page's own
  // form (a 4xx document is reported on the browser's console as a failed load).
  const page = (c: Context<AppEnv>, purchase: PurchaseRecord, body: string) => {
    c.header('Cache-Control', 'no-store');
    c.header(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self' ${purchase.returnOrigin}; frame-ancestors 'none'; base-uri 'none'`,
    );
    return c.html(testPage(purchase, body));
  };
  const cardForm = (purchase: PurchaseRecord, message = '') => `
    ${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
    <form method="post">
      <label for="card">Card number</label>
      <input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
      <button type="submit">Pay ${escapeHtml(formatMoney(purchase.totalCents, purchase.currency))}</button>
    </form>
    <p class="hint">Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0025 0000 3155 asks you to confirm.</p>
    <p><a href="${escapeHtml(`${purchase.returnOrigin}${PAGES.cart.href()}`)}">Cancel and return to the cart</a></p>`;

  app.get(`${TEST_PAYMENT_PATH}/:purchaseNumber`, async (c) => {
    const purchase = await buyersPurchase(c);
    if (purchase.status !== 'open') return c.redirect(receiptUrl(purchase), 303);
    return page(c, purchase, cardForm(purchase));
  });

  app.post(`${TEST_PAYMENT_PATH}/:purchaseNumber`, async (c) => {
    const purchase = await buyersPurchase(c);
    if (purchase.status !== 'open') return c.redirect(receiptUrl(purchase), 303);
    const form = await c.req.parseBody();
    const card = String(form.card ?? '').replace(/[\s-]/g, '');
    const confirmed = form.confirm === 'yes';
    if (card === TEST_CARDS.declined)
      return page(c, purchase, cardForm(purchase, 'Your card was declined. Nothing was charged.'));
    if (card === TEST_CARDS.confirm && form.confirm === undefined)
      return page(
        c,
        purchase,
        `<h2>Confirm this payment</h2>
        <p>Your bank asks you to confirm a payment of ${escapeHtml(formatMoney(purchase.totalCents, purchase.currency))}.</p>
        <form method="post"><input type="hidden" name="card" value="${card}">
          <button type="submit" name="confirm" value="yes">Confirm</button>
          <button type="submit" name="confirm" value="no" class="secondary">Refuse</button>
        </form>`,
      );
    if (card === TEST_CARDS.confirm && !confirmed)
      return page(c, purchase, cardForm(purchase, 'The payment was not confirmed. Nothing was charged.'));
    if (card !== TEST_CARDS.succeeds && card !== TEST_CARDS.confirm)
      return page(c, purchase, cardForm(purchase, 'Use one of the test cards below: no real card works here.'));

    // Paid: confirmed by a webhook to the API, signed as Stripe signs, like any provider's.
    const event = completedSessionEvent({
      id: purchase.providerSession ?? `cs_test_${purchase.purchaseNumber}`,
      purchaseNumber: purchase.purchaseNumber,
      amountCents: purchase.totalCents,
      currency: purchase.currency,
    });
    const answer = await fetch(`${config.publicOrigin}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signLikeStripe(event.payload, secret) },
      body: event.payload,
    });
    if (!answer.ok) throw new HttpError(502, `The payment could not be confirmed (webhook answered ${answer.status})`);
    return c.redirect(receiptUrl(purchase), 303);
  });
}

function testPage(purchase: PurchaseRecord, body: string): string {
  const lines = purchase.lines
    .map(
      (line) =>
        `<li><span>${escapeHtml(line.name)}</span><span>${escapeHtml(formatMoney(line.amountCents, purchase.currency))}</span></li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test payment · EventMedia</title><link rel="icon" href="data:,">
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f4f4f6;color:#1d1d1f}
main{max-width:440px;margin:0 auto;padding:24px 16px}
.banner{background:#fff4ce;border:1px solid #e0c36a;padding:8px 12px;border-radius:6px;font-weight:600}
.card{background:#fff;border-radius:10px;padding:20px;margin-top:16px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
ul{list-style:none;padding:0;margin:0 0 12px}li{display:flex;justify-content:space-between;gap:12px;padding:4px 0}
.total{display:flex;justify-content:space-between;font-weight:700;border-top:1px solid #ddd;padding-top:8px}
label{display:block;margin:16px 0 4px;font-weight:600}
input{width:100%;box-sizing:border-box;font-size:18px;padding:10px;border:1px solid #999;border-radius:6px}
button{margin-top:12px;width:100%;font-size:17px;padding:12px;border:0;border-radius:6px;background:#5b3df5;color:#fff;cursor:pointer}
button.secondary{background:#e4e4e8;color:#1d1d1f}.error{color:#b00020;font-weight:600}.hint{color:#555;font-size:14px}
</style></head><body><main>
<p class="banner">Test payment: no money moves</p>
<div class="card"><h1>Pay ${escapeHtml(purchase.purchaseNumber)}</h1>
<ul>${lines}</ul>
<p class="total"><span>Total</span><span>${escapeHtml(formatMoney(purchase.totalCents, purchase.currency))}</span></p>
${body}</div></main></body></html>`;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);
