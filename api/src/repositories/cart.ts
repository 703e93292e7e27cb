import type { CartItem, CartItemType } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import { inTransaction, nowIso } from './sql.js';
import type { FileUrls } from './urls.js';
import { parseMedia, pictureOf, thumbnailJpeg } from '../media/derivatives.js';

/** A cart is keyed by its owner: `u:<user id>`, or `g:<token>` for a visitor's guest cart. */
export const userCartKey = (userId: number) => `u:${userId}`;
export const guestCartKeyOf = (token: string) => `g:${token}`;

export type CartRepository = ReturnType<typeof cartRepository>;

export function cartRepository(db: Db, urls: FileUrls) {
  return {
    /** The cart's items in the order they were added; an absent key is an empty cart. */
    async items(key: string | null): Promise<CartItem[]> {
      if (!key) return [];
      const rows = await db
        .selectFrom('cart_items as c')
        .innerJoin('content_items as ci', 'ci.identifier', 'c.identifier')
        .leftJoin('events as e', 'e.id', 'ci.event_id')
        .select([
          'c.identifier',
          'c.item_type',
          'ci.name',
          'ci.thumbnail_path',
          'ci.media',
          'ci.price_cents',
          'ci.currency',
          'e.name as event_name',
        ])
        .where('c.owner_key', '=', key)
        .orderBy('c.added_at')
        .orderBy('c.identifier')
        .execute();
      return rows.map((row) => {
        const media = parseMedia(row.media);
        return {
          identifier: row.identifier,
          itemType: row.item_type as CartItemType,
          name: row.name,
          // What the media job made, once it has; a seeded thumbnail before (none while a source waits).
          thumbnailUrl: urls.media(media ? (thumbnailJpeg(media)?.key ?? null) : row.thumbnail_path),
          image: media && pictureOf(media, (d) => urls.media(d.key) ?? ''),
          eventName: row.event_name,
          priceCents: row.price_cents,
          currency: row.currency,
        };
      });
    },

    /**
     * False when the item was in the cart already. One statement that the key decides, so two
     * instances adding the same item at once keep one row and one of them answers false.
     */
    async add(key: string, identifier: string, itemType: CartItemType): Promise<boolean> {
      const added = await db
        .insertInto('cart_items')
        .values({ owner_key: key, identifier, item_type: itemType, added_at: nowIso() })
        .onConflict((oc) => oc.columns(['owner_key', 'identifier']).doNothing())
        .returning('identifier')
        .executeTakeFirst();
      return added !== undefined;
    },

    /** False when the item was not in the cart. */
    async remove(key: string, identifier: string): Promise<boolean> {
      const { numDeletedRows } = await db
        .deleteFrom('cart_items')
        .where('owner_key', '=', key)
        .where('identifier', '=', identifier)
        .executeTakeFirst();
      return numDeletedRows > 0n;
    },

    /** Takes these items out of the cart (bought, or refused at checkout). */
    async removeMany(key: string, identifiers: readonly string[]): Promise<void> {
      if (identifiers.length === 0) return;
      await db.deleteFrom('cart_items').where('owner_key', '=', key).where('identifier', 'in', identifiers).execute();
    },

    /** Moves a guest cart into a user's cart (items both hold stay once), with its discount code. */
    async adopt(guestKey: string, userId: number): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx
          .insertInto('cart_items')
          .columns(['owner_key', 'identifier', 'item_type', 'added_at'])
          .expression((eb) =>
            eb
              .selectFrom('cart_items')
              .select([eb.val(userCartKey(userId)).as('owner_key'), 'identifier', 'item_type', 'added_at'])
              .where('owner_key', '=', guestKey),
          )
          .onConflict((oc) => oc.columns(['owner_key', 'identifier']).doNothing())
          .execute();
        await trx.deleteFrom('cart_items').where('owner_key', '=', guestKey).execute();
        // The visitor's discount code comes along, unless the account's cart carries one.
        await trx
          .insertInto('cart_discount_codes')
          .columns(['owner_key', 'code_id', 'applied_at'])
          .expression((eb) =>
            eb
              .selectFrom('cart_discount_codes')
              .select([eb.val(userCartKey(userId)).as('owner_key'), 'code_id', 'applied_at'])
              .where('owner_key', '=', guestKey),
          )
          .onConflict((oc) => oc.column('owner_key').doNothing())
          .execute();
        await trx.deleteFrom('cart_discount_codes').where('owner_key', '=', guestKey).execute();
      });
    },
  };
}
