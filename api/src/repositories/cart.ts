import type { CartItem, CartItemType } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import { nowIso } from './sql.js';
import type { FileUrls } from './urls.js';

/** A cart is keyed by its owner: `u:<user id>`, or `g:<token>` for a visitor's guest cart. */
export const userCartKey = (userId: number) => `u:${userId}`;
export const guestCartKeyOf = (token: string) => `g:${token}`;

export type CartRepository = ReturnType<typeof cartRepository>;

export function cartRepository(db: Db, urls: FileUrls) {
  return {
    /** The cart's items in the order they were added; an absent key is an empty cart. */
    items(key: string | null): CartItem[] {
      if (!key) return [];
      const rows = db
        .prepare(
          `SELECT c.identifier, c.item_type, ci.name, ci.thumbnail_path, ci.price_cents, e.name AS event_name
           FROM cart_items c JOIN content_items ci ON ci.identifier = c.identifier LEFT JOIN events e ON e.id = ci.event_id
           WHERE c.owner_key = ? ORDER BY c.added_at, c.identifier`,
        )
        .all(key) as {
        identifier: string;
        item_type: CartItemType;
        name: string;
        thumbnail_path: string | null;
        price_cents: number;
        event_name: string | null;
      }[];
      return rows.map((row) => ({
        identifier: row.identifier,
        itemType: row.item_type,
        name: row.name,
        thumbnailUrl: urls.media(row.thumbnail_path),
        eventName: row.event_name,
        priceCents: row.price_cents,
      }));
    },

    /** False when the item was in the cart already. */
    add(key: string, identifier: string, itemType: CartItemType): boolean {
      return (
        db
          .prepare('INSERT OR IGNORE INTO cart_items (owner_key, identifier, item_type, added_at) VALUES (?, ?, ?, ?)')
          .run(key, identifier, itemType, nowIso()).changes > 0
      );
    },

    /** False when the item was not in the cart. */
    remove(key: string, identifier: string): boolean {
      return (
        db.prepare('DELETE FROM cart_items WHERE owner_key = ? AND identifier = ?').run(key, identifier).changes > 0
      );
    },

    /** Moves a guest cart into a user's cart (items both hold stay once). */
    adopt(guestKey: string, userId: number): void {
      db.transaction(() => {
        db.prepare(
          'INSERT OR IGNORE INTO cart_items (owner_key, identifier, item_type, added_at) SELECT ?, identifier, item_type, added_at FROM cart_items WHERE owner_key = ?',
        ).run(userCartKey(userId), guestKey);
        db.prepare('DELETE FROM cart_items WHERE owner_key = ?').run(guestKey);
      })();
    },
  };
}
