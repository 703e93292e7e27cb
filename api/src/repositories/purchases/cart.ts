import type { Db } from '../../db/database.js';

/** A cart line as checkout and the summary price it: the item now, and whether it can still be bought by this buyer. */
export interface CartLine {
  identifier: string;
  name: string;
  sellerId: number;
  sellerProfileName: string;
  sellerName: string;
  priceCents: number;
  currency: string;
  forSale: boolean;
  /** The buyer holds it already (a paid purchase of theirs). */
  owned: boolean;
}

/** A cart as checkout prices it. */
export function cartLinesRepository(db: Db) {
  return {
    /** The cart's items as a buyer would pay for them now (`buyerId` null for a visitor's cart). */
    async cartLines(key: string, buyerId: number | null): Promise<CartLine[]> {
      const rows = await db
        .selectFrom('cart_items as c')
        .innerJoin('content_items as ci', 'ci.identifier', 'c.identifier')
        .innerJoin('users as u', 'u.id', 'ci.owner_id')
        .leftJoin('entitlements as en', (join) =>
          join.onRef('en.content_identifier', '=', 'c.identifier').on('en.user_id', '=', buyerId ?? -1),
        )
        .select([
          'c.identifier',
          'ci.name',
          'ci.owner_id',
          'ci.price_cents',
          'ci.currency',
          'ci.for_sale',
          'u.profile_name',
          'u.username',
          'en.purchase_id',
        ])
        .where('c.owner_key', '=', key)
        .orderBy('c.added_at')
        .orderBy('c.identifier')
        .execute();
      return rows.map((row) => ({
        identifier: row.identifier,
        name: row.name,
        sellerId: row.owner_id,
        sellerProfileName: row.profile_name,
        sellerName: row.username,
        priceCents: row.price_cents,
        currency: row.currency,
        forSale: row.for_sale === 1 && row.owner_id !== buyerId,
        owned: row.purchase_id !== null,
      }));
    },
  };
}
