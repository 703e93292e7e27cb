import type { Hono } from 'hono';
import { isParty } from '../domain/orders.js';
import type { AppEnv } from '../http/env.js';
import { HttpError, notFound } from '../http/errors.js';
import type { Services } from '../services.js';
import { fileLinks } from './fileLinks.js';
import { deliverablesGrant, ORDER_DELIVERABLES_PATH } from './orderFileLinks.js';
import { zipDownload } from './zipStream.js';

/**
 * "Download all" of an order: its deliverables' originals in one streamed ZIP, by the short-lived
 * link the API gives the order's parties when they read it (never a sharing-link holder). A
 * session of someone else is refused the link a party passed on.
 */
export function registerOrderDownloads(app: Hono<AppEnv>, { repos, files, config }: Services): void {
  const links = fileLinks(config.fileLinkKey);
  app.get(`${ORDER_DELIVERABLES_PATH}/:orderId`, async (c) => {
    const orderId = c.req.param('orderId');
    const grant = deliverablesGrant(orderId);
    const query = c.req.query();
    const refusal = links.order.refusal(grant.targetIdentifier, { ...query, f: grant.file, download: '1' });
    if (refusal) throw new HttpError(403, refusal);
    const order = await repos.orders.byOrderId(orderId);
    if (!order) throw notFound('Order');
    const session = c.get('user');
    if (session && !isParty(order, session.id))
      throw new HttpError(403, "This download belongs to the order's parties");
    const deliverables = await repos.orders.deliverableFiles(order);
    if (deliverables.length === 0) throw new HttpError(404, 'This order has nothing delivered yet');
    return zipDownload(files, deliverables, `${order.orderId}.zip`);
  });
}
