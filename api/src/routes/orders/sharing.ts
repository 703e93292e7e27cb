import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { fields, type Router } from '../../http/route.js';
import type { Services } from '../../services.js';
import { orderOf, requireParty } from './access.js';

/** The client's sharing link, which lets anyone holding it see what was delivered. */
export function registerOrderSharingRoutes(r: Router, { repos }: Services): void {
  r.user('resetOrderSharing', z.object({ orderId: fields.text(40) }), async ({ orderId }, { user }) => {
    const order = await orderOf(repos, orderId);
    requireParty(order, user);
    if (order.clientId !== user.id) throw new HttpError(409, 'Only the client can do this');
    return { sharingId: await repos.orders.resetSharing(order.rowId) };
  });
}
