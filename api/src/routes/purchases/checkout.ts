import type { Context } from 'hono';
import { z } from 'zod';
import type { CheckoutRefusal } from '@marketplace/shared/contract';
import { CURRENCY, isParty, orderLineOf, refusalOf } from '../../domain/orders.js';
import { codeRefusal } from '../../domain/pricing.js';
import type { AppEnv } from '../../http/env.js';
import { forbidden, HttpError, notFound } from '../../http/errors.js';
import { fields, noFields, type Router } from '../../http/route.js';
import { userCartKey } from '../../repositories/cart.js';
import type { Services } from '../../services.js';
import { purchaseView } from '../../views/purchases.js';
import { buyable, priced } from './cart.js';

/** How long a purchase waits for its payment. */
const PURCHASE_OPEN_MS = 30 * 60_000;

/** Opening a purchase to pay: a cart's checkout, and an event order's payment. */
export function registerCheckoutRoutes(r: Router, services: Services): void {
  const { repos, config } = services;

  /** Where the buyer comes back to after paying: the page origin they came from, when it is one of ours. */
  const returnOriginOf = (c: Context<AppEnv>) => {
    const origin = c.req.header('origin');
    return origin && config.allowedOrigins.includes(origin)
      ? origin
      : (config.allowedOrigins[0] ?? config.publicOrigin);
  };

  /** The purchase just opened, as its buyer reads it. */
  const opened = async (purchaseNumber: string) => {
    const purchase = await repos.purchases.byNumber(purchaseNumber);
    if (!purchase) throw new Error(`purchase ${purchaseNumber} vanished after it was made`);
    return purchaseView(purchase, config.publicOrigin);
  };

  r.user('checkout', noFields, async (_input, { c, user }) => {
    if (!services.payments) throw new HttpError(503, 'Payments are not set up on this server');
    const provider = services.payments.name;
    const key = userCartKey(user.id);
    const returnOrigin = returnOriginOf(c);
    const now = new Date();

    const outcome = await repos.transaction(async (tx) => {
      const lines = await tx.purchases.cartLines(key, user.id);
      const refused: CheckoutRefusal[] = lines
        .filter((line) => line.owned || !line.forSale)
        .map((line) => ({
          identifier: line.identifier,
          name: line.name,
          reason: line.owned ? 'You already own this item' : 'This item is no longer for sale',
        }));
      // What cannot be bought leaves the cart, so the buyer is not asked about it again.
      await tx.cart.removeMany(
        key,
        refused.map((line) => line.identifier),
      );
      const candidates = buyable(lines);
      if (candidates.length === 0) return { refused, purchaseNumber: null };
      const applied = await tx.purchases.cartCode(key);
      const problem = applied && codeRefusal(applied.terms, candidates, now);
      if (problem) throw new HttpError(409, `${problem}: remove it to check out`, 'code');
      const code = applied?.terms ?? null;
      const price = priced(candidates, code);

      // One open purchase per cart: the same cart checked out again (a double click, a second tab,
      // a retry) gets the same purchase; a cart that changed replaces it.
      const existing = await tx.purchases.openFor(key);
      if (existing) {
        const sameItems =
          existing.lines.map((line) => line.identifier).join('\n') ===
          price.lines
            .map((line) => line.identifier)
            .sort()
            .join('\n');
        const current = existing.expiresAt > now.toISOString();
        if (
          current &&
          sameItems &&
          existing.totalCents === price.totalCents &&
          existing.discountCodeId === (code?.id ?? null)
        )
          return { refused, purchaseNumber: existing.purchaseNumber };
        await tx.purchases.expire(existing.id);
      }
      const created = await tx.purchases.create({
        buyerId: user.id,
        openKey: key,
        currency: price.currency,
        subtotalCents: price.subtotalCents,
        discountCents: price.discountCents,
        totalCents: price.totalCents,
        code,
        provider,
        returnOrigin,
        expiresAt: new Date(now.getTime() + PURCHASE_OPEN_MS).toISOString(),
        lines: price.lines,
      });
      if (created) return { refused, purchaseNumber: created };
      // Another checkout of this cart committed its purchase first: that one is this one's.
      const other = await tx.purchases.openFor(key);
      if (!other) throw new HttpError(409, 'Your cart changed during checkout: try again');
      return { refused, purchaseNumber: other.purchaseNumber };
    });
    if (!outcome.purchaseNumber) {
      const reasons = outcome.refused.map((line) => `${line.name}: ${line.reason.toLowerCase()}`).join('; ');
      throw new HttpError(409, reasons ? `Nothing in your cart can be bought (${reasons})` : 'Your cart is empty');
    }
    return { purchase: await opened(outcome.purchaseNumber), refused: outcome.refused };
  });

  r.user('payEventOrder', z.object({ orderId: fields.text(40) }), async ({ orderId }, { c, user }) => {
    if (!services.payments) throw new HttpError(503, 'Payments are not set up on this server');
    const provider = services.payments.name;
    const order = await repos.orders.byOrderId(orderId);
    if (!order) throw notFound('Order');
    if (!isParty(order, user.id)) throw forbidden('You are not allowed to change this order');
    if (order.clientId !== user.id) throw new HttpError(409, 'Only the client can do this');
    const refusal = refusalOf(order, 'pay', 'payment');
    if (refusal) throw new HttpError(409, refusal);
    const key = orderLineOf(order.orderId);
    const now = new Date();
    const purchaseNumber = await repos.transaction(async (tx) => {
      // Opened only while the order awaits its payment, decided with its row held: a cancel at the
      // same moment comes before (refused here) or after (and ends this purchase).
      if (!(await tx.orders.holdIfOpen(order.rowId, 'APPROVED'))) {
        const now = await tx.orders.byOrderId(order.orderId);
        throw new HttpError(
          409,
          (now && refusalOf(now, 'pay', 'payment')) ?? 'This order changed meanwhile: look again',
        );
      }
      // One open purchase per order: paying again (a double click, a second tab, a retry) goes on
      // with the same one while it is open and of the order's total.
      const existing = await tx.purchases.openFor(key);
      if (existing) {
        if (existing.expiresAt > now.toISOString() && existing.totalCents === order.totalCents)
          return existing.purchaseNumber;
        await tx.purchases.expire(existing.id);
      }
      const created = await tx.purchases.create({
        buyerId: user.id,
        openKey: key,
        currency: CURRENCY,
        subtotalCents: order.totalCents,
        discountCents: 0,
        totalCents: order.totalCents,
        code: null,
        provider,
        returnOrigin: returnOriginOf(c),
        expiresAt: new Date(now.getTime() + PURCHASE_OPEN_MS).toISOString(),
        lines: [
          {
            identifier: key,
            name: `Event order ${order.orderId}: ${order.eventName}`,
            sellerId: order.photographerId,
            priceCents: order.totalCents,
            discountCents: 0,
            amountCents: order.totalCents,
          },
        ],
      });
      if (created) return created;
      const other = await tx.purchases.openFor(key);
      if (!other) throw new HttpError(409, 'This order changed meanwhile: try again');
      return other.purchaseNumber;
    });
    return { purchase: await opened(purchaseNumber) };
  });
}
