import Stripe from 'stripe';
import type { PaymentProvider } from './types.js';

/**
 * Stripe Checkout: one Checkout Session per purchase, made once (the purchase number is its
 * idempotency key and its metadata), paid on Stripe's page; Stripe confirms it by webhook.
 */
export function stripeProvider(secretKey: string, webhookSecret: string): PaymentProvider {
  const stripe = new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000 });
  return {
    name: 'stripe',
    webhookSecret,
    async startPayment(request) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: request.purchaseNumber,
          metadata: { purchaseNumber: request.purchaseNumber },
          payment_intent_data: { metadata: { purchaseNumber: request.purchaseNumber } },
          line_items: request.items.map((item) => ({
            quantity: 1,
            price_data: {
              currency: request.currency.toLowerCase(),
              unit_amount: item.amountCents,
              product_data: { name: item.name },
            },
          })),
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          // Stripe's shortest session is 30 minutes, a purchase's own time.
          expires_at: Math.max(Math.floor(request.expiresAt / 1000), Math.floor(Date.now() / 1000) + 30 * 60 + 5),
        },
        { idempotencyKey: `checkout-session-${request.purchaseNumber}` },
      );
      if (!session.url) throw new Error(`Stripe gave no page for ${request.purchaseNumber}`);
      return { session: session.id, url: session.url };
    },
  };
}
