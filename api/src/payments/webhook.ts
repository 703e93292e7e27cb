import { formatMoney } from '@marketplace/shared/format';
import { PAGES } from '@marketplace/shared/platform';
import { userCartKey } from '../repositories/cart.js';
import { notifyUser, type Services } from '../services.js';
import type { PaymentEvent } from './types.js';

/** What a webhook did, for its answer and the tests. */
export type WebhookOutcome =
  'paid' | 'replayed' | 'already settled' | 'flagged' | 'expired' | 'ignored' | 'unknown purchase';

/**
 * Acts on a verified payment event, once: its id is recorded in the same transaction as what it
 * changes, so a replay (or the same event delivered twice at once) changes nothing. A payment is
 * checked against the purchase (amount and currency): a mismatch flags the purchase and grants
 * nothing. Paid: the purchase, the buyer's entitlements, the cart emptied of those items, the
 * code's use and the notifications to buyer and sellers commit together. Events arriving out of
 * order never undo a payment (each change is conditional on the purchase's state).
 */
export async function handlePaymentEvent(services: Services, event: PaymentEvent): Promise<WebhookOutcome> {
  const outcome = await services.repos.transaction(async (tx): Promise<WebhookOutcome> => {
    if (!(await tx.purchases.recordEvent(event.id, event.type, event.purchaseNumber, 'received'))) return 'replayed';
    const done = async (outcome: WebhookOutcome) => {
      await tx.purchases.setEventOutcome(event.id, outcome);
      return outcome;
    };
    if (event.outcome === 'other' || !event.purchaseNumber) return done('ignored');
    const purchase = await tx.purchases.byNumber(event.purchaseNumber);
    if (!purchase) return done('unknown purchase');
    if (event.outcome === 'expired') return done((await tx.purchases.expire(purchase.id)) ? 'expired' : 'ignored');

    if (purchase.status === 'paid' || purchase.status === 'flagged') return done('already settled');
    if (event.amountCents !== purchase.totalCents || event.currency !== purchase.currency) {
      const reason = `Payment of ${event.amountCents ?? '?'} ${event.currency ?? '?'} does not match the purchase's ${purchase.totalCents} ${purchase.currency}`;
      await tx.purchases.flag(purchase.id, reason, event.reference);
      return done('flagged');
    }
    const now = new Date();
    if (!(await tx.purchases.markPaid(purchase.id, event.reference, now))) return done('already settled');
    await tx.purchases.grant(purchase, now);
    const bought = purchase.lines.map((line) => line.identifier);
    await tx.cart.removeMany(userCartKey(purchase.buyerId), bought);
    if (purchase.discountCodeId !== null) await tx.purchases.countCodeUse(purchase.discountCodeId);

    const outbox = { repos: tx, relay: services.relay };
    const money = (cents: number) => formatMoney(cents, purchase.currency);
    const receipt = PAGES.receipt.href({ purchaseNumber: purchase.purchaseNumber });
    await notifyUser(
      outbox,
      purchase.buyerId,
      `Payment received: ${purchase.lines.length === 1 ? '1 item' : `${purchase.lines.length} items`} for ${money(purchase.totalCents)} (${purchase.purchaseNumber}). Your downloads are ready.`,
      receipt,
    );
    const buyer = (await tx.users.profileNameOf(purchase.buyerId)) ?? 'A buyer';
    const bySeller = new Map<number, typeof purchase.lines>();
    for (const line of purchase.lines) bySeller.set(line.sellerId, [...(bySeller.get(line.sellerId) ?? []), line]);
    for (const [sellerId, lines] of bySeller) {
      const names = lines.map((line) => line.name).join(', ');
      const amount = lines.reduce((total, line) => total + line.amountCents, 0);
      await notifyUser(outbox, sellerId, `${buyer} bought ${names} for ${money(amount)}.`, PAGES.sales.href());
    }
    return done('paid');
  });
  // Committed now: the relay's pass told at the write may have run before the commit.
  services.relay.kick();
  return outcome;
}
