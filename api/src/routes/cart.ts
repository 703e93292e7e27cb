import type { Context } from 'hono';
import { z } from 'zod';
import { CART_ITEM_TYPES } from '@marketplace/shared/contract';
import { guestCartKey } from '../auth/sessions.js';
import type { AppEnv, SessionUser } from '../http/env.js';
import { HttpError, notFound } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { userCartKey } from '../repositories/cart.js';
import type { Services } from '../services.js';

/** A cart belongs to the signed-in user, or to a visitor's guest-cart cookie (merged at log in). */
export function registerCartRoutes(r: Router, { repos, config }: Services): void {
  const ownerKey = (c: Context<AppEnv>, user: SessionUser | null, create: boolean) =>
    user ? userCartKey(user.id) : guestCartKey(c, config, create);

  r.visitor('getCart', noFields, async (_input, { c, user }) => ({
    cart: await repos.cart.items(ownerKey(c, user, false)),
  }));

  r.visitor(
    'addCartItem',
    z.object({
      identifier: fields.text(100),
      itemType: z.enum(CART_ITEM_TYPES, { message: `must be one of ${CART_ITEM_TYPES.join(', ')}` }),
    }),
    async ({ identifier, itemType }, { c, user }) => {
      const terms = await repos.content.saleTerms(identifier);
      if (!terms) throw notFound('Item');
      if (!terms.forSale) throw new HttpError(400, 'This item is not for sale', 'identifier');
      if (user && terms.ownerId === user.id) throw new HttpError(400, 'You cannot buy your own item', 'identifier');
      const key = ownerKey(c, user, true) as string;
      if (!(await repos.cart.add(key, identifier, itemType)))
        throw new HttpError(409, 'Item already in cart', 'identifier');
      return { cart: await repos.cart.items(key) };
    },
  );

  r.visitor('removeCartItem', z.object({ identifier: fields.text(100) }), async ({ identifier }, { c, user }) => {
    const key = ownerKey(c, user, false);
    if (!key || !(await repos.cart.remove(key, identifier))) throw notFound('Cart item');
    return { cart: await repos.cart.items(key) };
  });
}
