import { z } from 'zod';
import type { EventOrderView } from '@marketplace/shared/contract';
import { PAGES } from '@marketplace/shared/platform';
import { canCancel, detailsFor, isClosed, isParty, summaryFor, viewOf, type Order } from '../domain/orders.js';
import { settleUploads } from '../files/uploads.js';
import { uploadLimit } from '../config.js';
import type { SessionUser } from '../http/env.js';
import { HttpError, forbidden, notFound, notLoggedIn, orderClosed } from '../http/errors.js';
import { fields, noFields, noNul, type Router } from '../http/route.js';
import { notifyUser, type Services } from '../services.js';

/** Order targets are reference pictures and deliverables: photos, and videos (processed into HLS). */
const UPLOAD_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'video/mp4',
  'video/quicktime',
  'video/webm',
] as const;

const description = () => noNul(z.string().trim().max(500, 'must be at most 500 characters'));

/** Who is looking (domain/orders.ts); anyone not allowed is refused. */
function viewFor(order: Order, user: SessionUser | null, sharingId: string | undefined): EventOrderView {
  const view = viewOf(order, user?.id ?? null, sharingId);
  if (view) return view;
  if (!user) throw notLoggedIn();
  throw forbidden('You are not allowed to view this order');
}

function requireParty(order: Order, user: SessionUser): void {
  if (!isParty(order, user.id)) throw forbidden('You are not allowed to change this order');
}

export function registerOrderRoutes(r: Router, services: Services): void {
  const { repos, files } = services;

  const orderOf = async (orderId: string): Promise<Order> => {
    const order = await repos.orders.byOrderId(orderId);
    if (!order) throw notFound('Order');
    return order;
  };

  r.user('getEventOrders', noFields, async (_input, { user }) => ({
    eventOrders: (await repos.orders.ofParty(user.id)).map((order) => summaryFor(order, user.id)),
  }));

  r.visitor(
    'getEventOrderDetails',
    z.object({ orderId: fields.text(40), sharingId: z.string().max(100).optional() }),
    async ({ orderId, sharingId }, { user }) => {
      const order = await orderOf(orderId);
      const view = viewFor(order, user, sharingId);
      // Files sent straight to an object store since the last look count from now on.
      await settleUploads(services, order.rowId);
      return detailsFor(order, view, await repos.orders.targets(order));
    },
  );

  r.user(
    'addTarget',
    z.object({
      orderId: fields.text(40),
      description: description(),
      fileName: fields.text(200).refine((name) => !/[/\\\0]/.test(name), 'must be a plain file name'),
      contentType: z.enum(UPLOAD_CONTENT_TYPES, {
        message: 'Only images (PNG, JPEG, WebP, GIF) and videos (MP4, MOV, WebM) can be uploaded',
      }),
    }),
    async ({ orderId, ...file }, { user }) => {
      const order = await orderOf(orderId);
      requireParty(order, user);
      if (isClosed(order)) throw orderClosed();
      // Added only while the order is open, decided with the order's row held (a cancel racing it
      // comes before or after, never between the check and the insert).
      const added = await repos.transaction(async (tx) =>
        (await tx.orders.holdIfOpen(order.rowId)) ? tx.orders.addTarget(order, user.id, file) : null,
      );
      if (!added) throw orderClosed();
      const { key, token, ...target } = added;
      // The object store's presigned POST, or the API's own upload target with its token.
      const post = await files.presignUpload(key, file.contentType, uploadLimit(services.config, file.contentType));
      return post
        ? { ...target, uploadUrl: post.url, uploadFields: post.fields }
        : { ...target, uploadUrl: repos.urls.upload(target.targetIdentifier, token) };
    },
  );

  r.user(
    'changeTargetDescription',
    z.object({ orderId: fields.text(40), targetId: fields.id(), description: description() }),
    async ({ orderId, targetId, description }, { user }) => {
      const order = await orderOf(orderId);
      requireParty(order, user);
      const target = await repos.transaction(async (tx) => {
        if (!(await tx.orders.holdIfOpen(order.rowId))) throw orderClosed();
        return tx.orders.describeTarget(order, targetId, description);
      });
      if (!target) throw notFound('Target');
      return { target };
    },
  );

  r.user('removeTarget', z.object({ targetId: fields.id() }), async ({ targetId }, { user }) => {
    const found = await repos.orders.targetById(targetId);
    if (!found) throw notFound('Target');
    if (!found.order) throw notFound('Order');
    requireParty(found.order, user);
    const { rowId } = found.order;
    const removed = await repos.transaction(async (tx) => {
      if (!(await tx.orders.holdIfOpen(rowId))) throw orderClosed();
      return tx.orders.removeTarget(targetId);
    });
    // Its files as the row held them when it went (the original and what the media job made), and
    // what waits in quarantine (sent to an object store, not yet settled).
    for (const key of new Set([...found.keys, ...removed])) if (!files.check(key)) await files.remove(key);
    return { removed: targetId };
  });

  r.user(
    'updateEventOrderStatus',
    z.object({ orderId: fields.text(40), status: z.literal('CANCELLED', { message: "must be 'CANCELLED'" }) }),
    async ({ orderId, status }, { user }) => {
      const order = await orderOf(orderId);
      // SPEC.md section 6: only the client may cancel.
      if (order.clientId !== user.id) throw forbidden('Only the client can cancel this order');
      const refused = () => new HttpError(409, 'This order can no longer be cancelled');
      if (!canCancel(order, 'client')) throw refused();
      // The change and its notification commit together, and only for the one request whose
      // guarded update found the order still cancellable: a concurrent cancel gets 409, no notice.
      await repos.transaction(async (tx) => {
        if (!(await tx.orders.transition(order, 'cancel'))) throw refused();
        await notifyUser(
          { repos: tx, relay: services.relay },
          order.photographerId,
          `${order.clientName} cancelled order ${order.orderId} (${order.eventName}).`,
          PAGES.eventOrder.href({ orderId: order.orderId }),
        );
      });
      // Committed now: the relay's pass told at the write may have run before the commit.
      services.relay.kick();
      return { orderId: order.orderId, status };
    },
  );
}
