import type { Db } from '../../db/database.js';

/** What a buyer bought and a seller sold. */
export function purchaseHistoryRepository(db: Db) {
  return {
    /** A user's purchases that are not open or expired (paid, and any under review), newest first. */
    async numbersOf(buyerId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('purchases')
        .select('purchase_number')
        .where('buyer_id', '=', buyerId)
        .where('status', 'in', ['paid', 'flagged'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((row) => row.purchase_number);
    },

    /** What a seller sold in paid purchases, newest first. */
    async sales(sellerId: number) {
      return db
        .selectFrom('purchase_items as pi')
        .innerJoin('purchases as p', 'p.id', 'pi.purchase_id')
        .innerJoin('users as b', 'b.id', 'p.buyer_id')
        .select([
          'p.purchase_number',
          'pi.content_identifier',
          'pi.name',
          'pi.amount_cents',
          'p.currency',
          'p.paid_at',
          'b.profile_name as buyer_profile_name',
        ])
        .where('pi.seller_id', '=', sellerId)
        .where('p.status', '=', 'paid')
        .orderBy('p.paid_at', 'desc')
        .orderBy('pi.content_identifier')
        .execute();
    },
  };
}
