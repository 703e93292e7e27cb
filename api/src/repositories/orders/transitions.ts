import { randomBytes } from 'node:crypto';
import type { EventOrderStatus } from '@marketplace/shared/contract';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Schema } from '../../db/schema.js';
import { ORDER_TRANSITIONS, type Order, type OrderTransition } from '../../domain/orders.js';
import { nowIso } from '../sql.js';
import type { NewOrder, TransitionData } from './records.js';

/** A sharing link's id: 72 random bits, unguessable. */
const newSharingId = () => randomBytes(9).toString('base64url');

/** Neither deleted nor cancelled: the WHERE every change of an order starts from. */
const live = (eb: ExpressionBuilder<Schema, 'event_orders'>) =>
  eb.and([
    eb('event_orders.deleted', '=', 0),
    eb.or([eb('event_orders.info_status', 'is', null), eb('event_orders.info_status', '!=', 'CANCELLED')]),
  ]);

/** An order's life: its booking, its changes of state, its sharing link, and the hold its files' changes take. */
export function orderTransitions(db: Db) {
  return {
    /** A new order, a request to the photographer; answers its id (`ord-` and 8 random characters). */
    async create(order: NewOrder): Promise<string> {
      const orderId = `ord-${randomBytes(6)
        .toString('base64url')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '0')}`;
      await db
        .insertInto('event_orders')
        .values({
          order_id: orderId,
          sharing_id: newSharingId(),
          client_id: order.clientId,
          photographer_id: order.photographerId,
          event_name: order.eventName,
          event_date: order.eventDate,
          location: order.location,
          package_name: order.packageName,
          public_status: 'ORDER_REQUEST',
          info_status: null,
          requirement_info: JSON.stringify(order.requirementInfo),
          discount_code: order.discountCode,
          total_cents: order.totalCents,
          paid_out_at: null,
          created_at: nowIso(),
        })
        .execute();
      return orderId;
    },

    /**
     * Makes a change of the order's state (domain/orders.ts ORDER_TRANSITIONS) if the order is still
     * in a state it may leave: one conditional update, so of requests racing to change the order
     * one does it; false for the others.
     */
    async transition(order: Order, name: OrderTransition, data: TransitionData = {}): Promise<boolean> {
      const rule = ORDER_TRANSITIONS[name];
      let update = db
        .updateTable('event_orders')
        .set({
          ...('to' in rule ? { public_status: rule.to } : {}),
          ...('info' in rule ? { info_status: rule.info } : {}),
          ...(data.quote ? { quote: JSON.stringify(data.quote) } : {}),
          ...(data.totalCents !== undefined ? { total_cents: data.totalCents } : {}),
          ...(data.requirementsRequest !== undefined ? { requirements_request: data.requirementsRequest } : {}),
          ...(data.requirementsAnswer !== undefined ? { requirements_answer: data.requirementsAnswer } : {}),
          ...(data.declineReason !== undefined ? { decline_reason: data.declineReason } : {}),
        })
        .where('id', '=', order.rowId)
        .where((eb) => live(eb))
        .where('public_status', 'in', rule.from);
      if (data.whileQuote !== undefined) {
        // Stored as JSON.stringify wrote it, and parsing keeps its keys' order: the same text.
        update = data.whileQuote
          ? update.where('quote', '=', JSON.stringify(data.whileQuote))
          : update.where('quote', 'is', null);
      }
      const result = await update.executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A new sharing link for the order: whoever held the old one can no longer read it. */
    async resetSharing(orderRowId: number): Promise<string> {
      const sharingId = newSharingId();
      await db.updateTable('event_orders').set({ sharing_id: sharingId }).where('id', '=', orderRowId).execute();
      return sharingId;
    },

    /**
     * Inside a transaction, before a target changes: holds the order's row (a status change waits
     * for this transaction, and this one for a status change under way) if the order is open;
     * false when it is not (or not in `status`, when given). A guarded update of nothing, since
     * SQLite has no SELECT ... FOR UPDATE.
     */
    async holdIfOpen(orderRowId: number, status: EventOrderStatus | null = null): Promise<boolean> {
      let update = db
        .updateTable('event_orders')
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', orderRowId)
        .where((eb) => live(eb))
        .where('public_status', '!=', 'DECLINED');
      if (status) update = update.where('public_status', '=', status);
      const result = await update.executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
