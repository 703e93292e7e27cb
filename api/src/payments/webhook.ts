import { formatMoney } from '@marketplace/shared/format';
import { PAGES } from '@marketplace/shared/platform';
import { orderIdOfLine } from '../domain/orders.js';
import { userCartKey } from '../repositories/cart.js';
import { mailLink, queueMail } from '../mail/queue.js';
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
 * order never undo a payment (each change is conditional on the purchase's state). A purchase
 * of an event order moves the order from APPROVED to PENDING_FULFILLMENTS (SECURED) instead.
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
    const money = (cents: number) => formatMoney(cents, purchase.currency);

    // An event order's payment secures the order; one no longer awaiting it (cancelled meanwhile)
    // is held for a person to refund, and the order stays as it is.
    const orderId = purchase.lines.length === 1 ? orderIdOfLine(purchase.lines[0]?.identifier ?? '') : null;
    if (orderId !== null) {
      const order = await tx.orders.byOrderId(orderId);
      if (!order || !(await tx.orders.transition(order, 'pay'))) {
        await tx.purchases.flag(
          purchase.id,
          `Paid for order ${orderId}, which is no longer awaiting payment: refund it`,
          event.reference,
        );
        return done('flagged');
      }
      if (!(await tx.purchases.markPaid(purchase.id, event.reference, now))) return done('already settled');
      // The code the order was booked with is used once the order is paid, as a purchase's is.
      if (order.discountCode) await tx.purchases.countCodeUseOf(order.photographerId, order.discountCode);
      const page = PAGES.eventOrder.href({ orderId });
      const mailTo = { repos: tx, config: services.config };
      await queueMail(mailTo, order.clientId, 'receipt', {
        purchaseNumber: purchase.purchaseNumber,
        lines: purchase.lines.map((line) => ({ name: line.name, amount: money(line.amountCents) })),
        total: money(purchase.totalCents),
        link: mailLink(
          services.config,
          PAGES.receipt.href({ purchaseNumber: purchase.purchaseNumber }),
          purchase.returnOrigin,
        ),
      });
      await queueMail(mailTo, order.photographerId, 'orderUpdate', {
        orderId,
        eventName: order.eventName,
        news: `${order.clientName} paid ${money(purchase.totalCents)} for order ${orderId} (${order.eventName}). You can now deliver.`,
        link: mailLink(services.config, page, purchase.returnOrigin),
      });
      await notifyUser(
        tx,
        order.clientId,
        `Payment received: ${money(purchase.totalCents)} for order ${orderId} (${order.eventName}). ${order.photographerName} can now deliver.`,
        page,
      );
      await notifyUser(
        tx,
        order.photographerId,
        `${order.clientName} paid ${money(purchase.totalCents)} for order ${orderId} (${order.eventName}).`,
        page,
      );
      return done('paid');
    }

    if (!(await tx.purchases.markPaid(purchase.id, event.reference, now))) return done('already settled');
    await tx.purchases.grant(purchase, now);
    const bought = purchase.lines.map((line) => line.identifier);
    await tx.cart.removeMany(userCartKey(purchase.buyerId), bought);
    if (purchase.discountCodeId !== null) await tx.purchases.countCodeUse(purchase.discountCodeId);

    const receipt = PAGES.receipt.href({ purchaseNumber: purchase.purchaseNumber });
    // The buyer's receipt by mail, with the payment it records (or neither).
    await queueMail({ repos: tx, config: services.config }, purchase.buyerId, 'receipt', {
      purchaseNumber: purchase.purchaseNumber,
      lines: purchase.lines.map((line) => ({ name: line.name, amount: money(line.amountCents) })),
      total: money(purchase.totalCents),
      link: mailLink(services.config, receipt, purchase.returnOrigin),
    });
    await notifyUser(
      tx,
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
      await notifyUser(tx, sellerId, `${buyer} bought ${names} for ${money(amount)}.`, PAGES.sales.href());
    }
    return done('paid');
  });
  return outcome;
}
