import { z } from 'zod';
import { settleUploads } from '../../files/uploads.js';
import { fields, noFields, type Router } from '../../http/route.js';
import type { Services } from '../../services.js';
import { orderViews } from '../../views/orders.js';
import { orderOf, viewFor } from './access.js';

/** A party's list of orders, and one order's page as its parties and a sharing-link holder see it. */
export function registerOrderReadRoutes(r: Router, services: Services): void {
  const { repos } = services;
  const views = orderViews(repos.urls);

  r.user('getEventOrders', noFields, async (_input, { user }) => {
    const orders = await repos.orders.ofParty(user.id);
    return { eventOrders: views.summaries(orders, user.id, await repos.orders.readyFiles(orders)) };
  });

  r.visitor(
    'getEventOrderDetails',
    z.object({ orderId: fields.text(40), sharingId: z.string().max(100).optional() }),
    async ({ orderId, sharingId }, { user }) => {
      const order = await orderOf(repos, orderId);
      const view = viewFor(order, user, sharingId);
      // Files sent straight to an object store since the last look count from now on.
      await settleUploads(services, order.rowId);
      return views.details(order, view, await repos.orders.targets(order, view));
    },
  );
}
