import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { z } from 'zod';
import {
  FILES_PATHS,
  type EventOrderDetails,
  type EventOrderStatus,
  type EventOrderSummary,
  type EventOrderView,
  type OrderInfoStatus,
  type RequirementInfo,
  type Target,
} from '@marketplace/shared/contract';
import { PAGES } from '@marketplace/shared/platform';
import type { ApiConfig } from '../config.js';
import { resolveMediaPath } from '../files/paths.js';
import type { SessionUser } from '../http/env.js';
import { HttpError, forbidden, notFound, notLoggedIn } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { canCancel, fees, isClosed, isParty, progress, viewOf } from '../domain/orders.js';
import { mediaUrl, nowIso } from '../model.js';
import { notifyUser, type Services } from '../services.js';

export interface OrderRow {
  id: number;
  order_id: string;
  sharing_id: string;
  client_id: number;
  photographer_id: number;
  event_name: string;
  event_date: string;
  location: string;
  package_name: string;
  public_status: EventOrderStatus;
  info_status: OrderInfoStatus | null;
  deleted: number;
  requirement_info: string;
  discount_code: string | null;
  total_cents: number;
  paid_out_at: string | null;
  created_at: string;
  client_name: string;
  photographer_name: string;
  photographer_profile_name: string;
}

const ORDER_SELECT = `
  SELECT o.*, c.username AS client_name, p.username AS photographer_name, p.profile_name AS photographer_profile_name
  FROM event_orders o JOIN users c ON c.id = o.client_id JOIN users p ON p.id = o.photographer_id`;

/** Images only: order targets are reference pictures and deliverables. */
export const UPLOAD_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

export function findOrder(services: Services, orderId: string): OrderRow | undefined {
  return services.db.prepare(`${ORDER_SELECT} WHERE o.order_id = ?`).get(orderId) as OrderRow | undefined;
}

export function findOrderById(services: Services, id: number): OrderRow | undefined {
  return services.db.prepare(`${ORDER_SELECT} WHERE o.id = ?`).get(id) as OrderRow | undefined;
}

/** Who is looking (domain/orders.ts); anyone not allowed is refused. */
function viewFor(order: OrderRow, user: SessionUser | null, sharingId: string | undefined): EventOrderView {
  const view = viewOf(order, user?.id ?? null, sharingId);
  if (view) return view;
  if (!user) throw notLoggedIn();
  throw forbidden('You are not allowed to view this order');
}

function requireParty(order: OrderRow, user: SessionUser): void {
  if (!isParty(order, user.id)) throw forbidden('You are not allowed to change this order');
}

export function downloadUrl(config: ApiConfig, filePath: string, fileName: string): string {
  const query = new URLSearchParams({ filePath, fileName });
  return `${config.filesOrigin}${FILES_PATHS.download}?${query.toString()}`;
}

interface TargetRow {
  id: number;
  identifier: string;
  file_name: string;
  content_type: string;
  description: string;
  file_path: string;
  uploaded_at: string;
}

function toTarget(config: ApiConfig, row: TargetRow): Target {
  return {
    targetId: row.id,
    targetIdentifier: row.identifier,
    target: row.file_name,
    targetURLs: [mediaUrl(config, row.file_path) ?? '', downloadUrl(config, row.file_path, row.file_name)],
    description: row.description,
    contentType: row.content_type,
    uploadedAt: row.uploaded_at,
  };
}

export function registerOrderRoutes(r: Router, services: Services): void {
  const { db, config } = services;

  const targetsOf = (orderRowId: number): Target[] =>
    (
      db
        .prepare(
          'SELECT id, identifier, file_name, content_type, description, file_path, uploaded_at FROM order_targets WHERE order_id = ? AND uploaded_at IS NOT NULL ORDER BY id',
        )
        .all(orderRowId) as TargetRow[]
    ).map((row) => toTarget(config, row));

  r.user('getEventOrders', noFields, (_input, { user }) => {
    const rows = db.prepare(`${ORDER_SELECT} WHERE o.client_id = ? OR o.photographer_id = ? ORDER BY o.created_at DESC`).all(user.id, user.id) as OrderRow[];
    const eventOrders: EventOrderSummary[] = rows.map((o) => {
      const asClient = o.client_id === user.id;
      return {
        orderId: o.order_id,
        view: asClient ? 'client' : 'photographer',
        eventName: o.event_name,
        eventDate: o.event_date,
        publicStatus: o.public_status,
        status: o.info_status,
        deleted: o.deleted === 1,
        counterpart: asClient ? o.photographer_name : o.client_name,
        createdAt: o.created_at,
      };
    });
    return { eventOrders };
  });

  r.visitor(
    'getEventOrderDetails',
    z.object({ orderId: fields.text(40), sharingId: z.string().max(100).optional() }),
    ({ orderId, sharingId }, { user }): EventOrderDetails => {
      const order = findOrder(services, orderId);
      if (!order) throw notFound('Order');
      const view = viewFor(order, user, sharingId);
      const party = view !== 'sharedUser';
      const { platformFeeCents, photographerPayoutCents } = fees(order.total_cents);
      return {
        view,
        deleted: order.deleted === 1,
        backButton: party ? { text: 'Back to orders', link: PAGES.orders.href() } : { text: 'Back to events', link: PAGES.events.href() },
        statuses: progress(order.public_status),
        eventOrderInfo: {
          orderId: order.order_id,
          status: order.info_status,
          publicStatus: order.public_status,
          eventName: order.event_name,
          eventDate: order.event_date,
          location: order.location,
          packageName: order.package_name,
          client: order.client_name,
          photographer: order.photographer_name,
          photographerProfileName: order.photographer_profile_name,
          createdAt: order.created_at,
          canCancel: canCancel(order, view),
        },
        requirementInfo: JSON.parse(order.requirement_info) as RequirementInfo,
        discountCode: order.discount_code,
        mediaPayoutInfo: {
          currency: 'USD',
          totalCents: order.total_cents,
          platformFeeCents,
          photographerPayoutCents,
          paidOut: order.paid_out_at !== null,
          paidOutAt: order.paid_out_at,
        },
        targets: targetsOf(order.id),
        sharingId: party ? order.sharing_id : null,
      };
    },
  );

  r.user(
    'addTarget',
    z.object({
      orderId: fields.text(40),
      description: z.string().trim().max(500, 'must be at most 500 characters'),
      fileName: fields.text(200).refine((name) => !/[/\\\0]/.test(name), 'must be a plain file name'),
      contentType: z.enum(UPLOAD_CONTENT_TYPES, { message: 'Only images (PNG, JPEG, WebP, GIF) can be uploaded' }),
    }),
    ({ orderId, description, fileName, contentType }, { user }) => {
      const order = findOrder(services, orderId);
      if (!order) throw notFound('Order');
      requireParty(order, user);
      if (isClosed(order)) throw new HttpError(409, 'This order is closed');
      const targetIdentifier = `tgt-${randomBytes(9).toString('base64url')}`;
      const token = randomBytes(24).toString('base64url');
      const targetId = Number(
        db
          .prepare(
            'INSERT INTO order_targets (identifier, order_id, uploader_id, file_name, content_type, description, upload_token, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          )
          .run(targetIdentifier, order.id, user.id, fileName, contentType, description, token, nowIso()).lastInsertRowid,
      );
      // Like a presigned URL: the token in it is the permission, so the PUT needs no cookie.
      const uploadUrl = `${config.filesOrigin}${FILES_PATHS.upload}/${targetIdentifier}?token=${token}`;
      return { uploadUrl, targetId, targetIdentifier };
    },
  );

  r.user(
    'changeTargetDescription',
    z.object({ orderId: fields.text(40), targetId: fields.id(), description: z.string().trim().max(500, 'must be at most 500 characters') }),
    ({ orderId, targetId, description }, { user }) => {
      const order = findOrder(services, orderId);
      if (!order) throw notFound('Order');
      requireParty(order, user);
      const changed = db.prepare('UPDATE order_targets SET description = ? WHERE id = ? AND order_id = ? AND uploaded_at IS NOT NULL').run(description, targetId, order.id).changes;
      if (changed === 0) throw notFound('Target');
      const row = db.prepare('SELECT id, identifier, file_name, content_type, description, file_path, uploaded_at FROM order_targets WHERE id = ?').get(targetId) as TargetRow;
      return { target: toTarget(config, row) };
    },
  );

  r.user('removeTarget', z.object({ targetId: fields.id() }), ({ targetId }, { user }) => {
    const row = db.prepare('SELECT order_id, file_path FROM order_targets WHERE id = ?').get(targetId) as { order_id: number; file_path: string | null } | undefined;
    if (!row) throw notFound('Target');
    const order = findOrderById(services, row.order_id);
    if (!order) throw notFound('Order');
    requireParty(order, user);
    db.prepare('DELETE FROM order_targets WHERE id = ?').run(targetId);
    if (row.file_path) {
      const file = resolveMediaPath(config.mediaDir, row.file_path);
      if (file.ok) rmSync(file.path, { force: true });
    }
    return { removed: targetId };
  });

  r.user(
    'updateEventOrderStatus',
    z.object({ orderId: fields.text(40), status: z.literal('CANCELLED', { message: "must be 'CANCELLED'" }) }),
    ({ orderId, status }, { user }) => {
      const order = findOrder(services, orderId);
      if (!order) throw notFound('Order');
      // SPEC.md section 6: only the client may cancel.
      if (order.client_id !== user.id) throw forbidden('Only the client can cancel this order');
      if (!canCancel(order, 'client')) throw new HttpError(409, 'This order can no longer be cancelled');
      db.transaction(() => {
        db.prepare('UPDATE event_orders SET info_status = ? WHERE id = ?').run(status, order.id);
        notifyUser(services, order.photographer_id, `${order.client_name} cancelled order ${order.order_id} (${order.event_name}).`, PAGES.eventOrder.href({ orderId: order.order_id }));
      })();
      return { orderId: order.order_id, status };
    },
  );
}
