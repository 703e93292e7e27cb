import type { EventOrderView } from '@marketplace/shared/contract';
import { isParty, uploadRefusal, viewOf, type Order } from '../../domain/orders.js';
import type { SessionUser } from '../../http/env.js';
import { HttpError, forbidden, notFound, notLoggedIn, orderClosed } from '../../http/errors.js';
import type { RepositorySet } from '../../repositories/index.js';

/** The order, or a 404. */
export async function orderOf(repos: RepositorySet, orderId: string): Promise<Order> {
  const order = await repos.orders.byOrderId(orderId);
  if (!order) throw notFound('Order');
  return order;
}

/** Who is looking (domain/orders.ts); anyone not allowed is refused. */
export function viewFor(order: Order, user: SessionUser | null, sharingId: string | undefined): EventOrderView {
  const view = viewOf(order, user?.id ?? null, sharingId);
  if (view) return view;
  if (!user) throw notLoggedIn();
  throw forbidden('You are not allowed to view this order');
}

export function requireParty(order: Order, user: SessionUser): void {
  if (!isParty(order, user.id)) throw forbidden('You are not allowed to change this order');
}

/** A party acts as the client or the photographer of the order (requireParty checked it is one). */
export const actorOf = (order: Order, user: SessionUser): 'client' | 'photographer' =>
  order.clientId === user.id ? 'client' : 'photographer';

/**
 * Inside a transaction, before a party's file changes: holds the order's row while the party may
 * still change its files (as for adding one: the client's references while the order is open, the
 * photographer's deliverables while it is being fulfilled), or refuses with the reason.
 */
export async function holdForFiles(tx: RepositorySet, order: Order, actor: 'client' | 'photographer'): Promise<void> {
  if (await tx.orders.holdIfOpen(order.rowId, actor === 'photographer' ? 'PENDING_FULFILLMENTS' : null)) return;
  // Read on the transaction's own connection (SQLite has one: another would wait for this one).
  const now = await tx.orders.byOrderId(order.orderId);
  throw new HttpError(409, (now && uploadRefusal(now, actor)) ?? orderClosed().message);
}
