import type { Db } from '../../db/database.js';
import type { Order } from '../../domain/orders.js';
import { orderQuery, toOrder } from './records.js';

/** Orders as their parties and the sharing link read them. */
export function orderReads(db: Db) {
  return {
    async byRowId(rowId: number): Promise<Order | undefined> {
      const row = await orderQuery(db).where('o.id', '=', rowId).executeTakeFirst();
      return row && toOrder(row);
    },

    async byOrderId(orderId: string): Promise<Order | undefined> {
      const row = await orderQuery(db).where('o.order_id', '=', orderId).executeTakeFirst();
      return row && toOrder(row);
    },

    /** Orders the user is client or photographer of, newest first. */
    async ofParty(userId: number): Promise<Order[]> {
      const rows = await orderQuery(db)
        .where((eb) => eb.or([eb('o.client_id', '=', userId), eb('o.photographer_id', '=', userId)]))
        .orderBy('o.created_at', 'desc')
        .orderBy('o.id', 'desc')
        .execute();
      return rows.map(toOrder);
    },
  };
}
