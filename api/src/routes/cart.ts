import type { Context } from 'hono';
import { z } from 'zod';
import { CART_ITEM_TYPES, type CartItem } from '@marketplace/shared/contract';
import { guestCartKey } from '../auth/sessions.js';
import type { AppEnv, SessionUser } from '../http/env.js';
import { HttpError, notFound } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { mediaUrl, nowIso } from '../model.js';
import type { Services } from '../services.js';

/** A cart belongs to the signed-in user, or to a visitor's guest-cart cookie (merged at log in). */
export function registerCartRoutes(r: Router, { db, config }: Services): void {
  const ownerKey = (c: Context<AppEnv>, user: SessionUser | null, create: boolean) =>
    user ? `u:${user.id}` : guestCartKey(c, config, create);

  const cartOf = (key: string | null): CartItem[] => {
    if (!key) return [];
    const rows = db
      .prepare(
        `SELECT c.identifier, c.item_type, ci.name, ci.thumbnail_path, ci.price_cents, e.name AS event_name
         FROM cart_items c JOIN content_items ci ON ci.identifier = c.identifier LEFT JOIN events e ON e.id = ci.event_id
         WHERE c.owner_key = ? ORDER BY c.added_at, c.identifier`,
      )
      .all(key) as { identifier: string; item_type: 'CONTENT'; name: string; thumbnail_path: string | null; price_cents: number; event_name: string | null }[];
    return rows.map((row) => ({
      identifier: row.identifier,
      itemType: row.item_type,
      name: row.name,
      thumbnailUrl: mediaUrl(config, row.thumbnail_path),
      eventName: row.event_name,
      priceCents: row.price_cents,
    }));
  };

  r.visitor('getCart', noFields, (_input, { c, user }) => ({ cart: cartOf(ownerKey(c, user, false)) }));

  r.visitor(
    'addCartItem',
    z.object({ identifier: fields.text(100), itemType: z.enum(CART_ITEM_TYPES, { message: `must be one of ${CART_ITEM_TYPES.join(', ')}` }) }),
    ({ identifier, itemType }, { c, user }) => {
      const item = db.prepare('SELECT owner_id, for_sale FROM content_items WHERE identifier = ?').get(identifier) as
        | { owner_id: number; for_sale: number }
        | undefined;
      if (!item) throw notFound('Item');
      if (item.for_sale !== 1) throw new HttpError(400, 'This item is not for sale', 'identifier');
      if (user && item.owner_id === user.id) throw new HttpError(400, 'You cannot buy your own item', 'identifier');
      const key = ownerKey(c, user, true) as string;
      const added = db.prepare('INSERT OR IGNORE INTO cart_items (owner_key, identifier, item_type, added_at) VALUES (?, ?, ?, ?)').run(key, identifier, itemType, nowIso());
      if (added.changes === 0) throw new HttpError(409, 'Item already in cart', 'identifier');
      return { cart: cartOf(key) };
    },
  );

  r.visitor('removeCartItem', z.object({ identifier: fields.text(100) }), ({ identifier }, { c, user }) => {
    const key = ownerKey(c, user, false);
    const removed = key ? db.prepare('DELETE FROM cart_items WHERE owner_key = ? AND identifier = ?').run(key, identifier).changes : 0;
    if (removed === 0) throw notFound('Cart item');
    return { cart: cartOf(key) };
  });
}
