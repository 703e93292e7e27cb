import { randomBytes } from 'node:crypto';
import type { EventOrderStatus, OrderInfoStatus, RequirementInfo, Target } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import type { Order } from '../domain/orders.js';
import { nowIso } from './sql.js';
import type { FileUrls } from './urls.js';

interface OrderRow {
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

const toOrder = (row: OrderRow): Order => ({
  rowId: row.id,
  orderId: row.order_id,
  sharingId: row.sharing_id,
  clientId: row.client_id,
  photographerId: row.photographer_id,
  clientName: row.client_name,
  photographerName: row.photographer_name,
  photographerProfileName: row.photographer_profile_name,
  eventName: row.event_name,
  eventDate: row.event_date,
  location: row.location,
  packageName: row.package_name,
  publicStatus: row.public_status,
  infoStatus: row.info_status,
  deleted: row.deleted === 1,
  requirementInfo: JSON.parse(row.requirement_info) as RequirementInfo,
  discountCode: row.discount_code,
  totalCents: row.total_cents,
  paidOutAt: row.paid_out_at,
  createdAt: row.created_at,
});

const TARGET_COLUMNS = 'id, identifier, file_name, content_type, description, file_path, uploaded_at';

interface TargetRow {
  id: number;
  identifier: string;
  file_name: string;
  content_type: string;
  description: string;
  file_path: string;
  uploaded_at: string;
}

/** An upload target waiting for (or holding) its file, as the files host checks a PUT against it. */
export interface UploadSlot {
  targetId: number;
  targetIdentifier: string;
  orderRowId: number;
  uploaderId: number;
  fileName: string;
  contentType: string;
  token: string;
  uploaded: boolean;
}

export type OrdersRepository = ReturnType<typeof ordersRepository>;

/** Event orders and their targets (reference pictures and deliverables, uploaded to the files host). */
export function ordersRepository(db: Db, urls: FileUrls) {
  const toTarget = (row: TargetRow): Target => ({
    targetId: row.id,
    targetIdentifier: row.identifier,
    target: row.file_name,
    targetURLs: [urls.media(row.file_path) ?? '', urls.download(row.file_path, row.file_name)],
    description: row.description,
    contentType: row.content_type,
    uploadedAt: row.uploaded_at,
  });

  const byRowId = (rowId: number): Order | undefined => {
    const row = db.prepare(`${ORDER_SELECT} WHERE o.id = ?`).get(rowId) as OrderRow | undefined;
    return row && toOrder(row);
  };

  return {
    byRowId,

    byOrderId(orderId: string): Order | undefined {
      const row = db.prepare(`${ORDER_SELECT} WHERE o.order_id = ?`).get(orderId) as OrderRow | undefined;
      return row && toOrder(row);
    },

    /** Orders the user is client or photographer of, newest first. */
    ofParty(userId: number): Order[] {
      return (
        db
          .prepare(`${ORDER_SELECT} WHERE o.client_id = ? OR o.photographer_id = ? ORDER BY o.created_at DESC`)
          .all(userId, userId) as OrderRow[]
      ).map(toOrder);
    },

    setInfoStatus(order: Order, status: OrderInfoStatus): void {
      db.prepare('UPDATE event_orders SET info_status = ? WHERE id = ?').run(status, order.rowId);
    },

    /** The order's targets whose file has arrived, in the order they were added. */
    targets(order: Order): Target[] {
      return (
        db
          .prepare(
            `SELECT ${TARGET_COLUMNS} FROM order_targets WHERE order_id = ? AND uploaded_at IS NOT NULL ORDER BY id`,
          )
          .all(order.rowId) as TargetRow[]
      ).map(toTarget);
    },

    /** A new target awaiting its file, and the URL its file is PUT to. */
    addTarget(order: Order, uploaderId: number, file: { fileName: string; contentType: string; description: string }) {
      const targetIdentifier = `tgt-${randomBytes(9).toString('base64url')}`;
      const token = randomBytes(24).toString('base64url');
      const targetId = Number(
        db
          .prepare(
            'INSERT INTO order_targets (identifier, order_id, uploader_id, file_name, content_type, description, upload_token, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          )
          .run(
            targetIdentifier,
            order.rowId,
            uploaderId,
            file.fileName,
            file.contentType,
            file.description,
            token,
            nowIso(),
          ).lastInsertRowid,
      );
      return { targetId, targetIdentifier, uploadUrl: urls.upload(targetIdentifier, token) };
    },

    /** The changed target, or undefined when the order has no such uploaded target. */
    describeTarget(order: Order, targetId: number, description: string): Target | undefined {
      const changed = db
        .prepare('UPDATE order_targets SET description = ? WHERE id = ? AND order_id = ? AND uploaded_at IS NOT NULL')
        .run(description, targetId, order.rowId).changes;
      if (changed === 0) return undefined;
      return toTarget(
        db.prepare(`SELECT ${TARGET_COLUMNS} FROM order_targets WHERE id = ?`).get(targetId) as TargetRow,
      );
    },

    /** A target's order and stored file, for deciding who may remove it. */
    targetById(targetId: number): { order: Order | undefined; filePath: string | null } | undefined {
      const row = db.prepare('SELECT order_id, file_path FROM order_targets WHERE id = ?').get(targetId) as
        { order_id: number; file_path: string | null } | undefined;
      return row && { order: byRowId(row.order_id), filePath: row.file_path };
    },

    removeTarget(targetId: number): void {
      db.prepare('DELETE FROM order_targets WHERE id = ?').run(targetId);
    },

    uploadSlot(targetIdentifier: string): UploadSlot | undefined {
      const row = db
        .prepare(
          'SELECT id, identifier, order_id, uploader_id, file_name, content_type, upload_token, uploaded_at FROM order_targets WHERE identifier = ?',
        )
        .get(targetIdentifier) as
        | {
            id: number;
            identifier: string;
            order_id: number;
            uploader_id: number;
            file_name: string;
            content_type: string;
            upload_token: string;
            uploaded_at: string | null;
          }
        | undefined;
      return (
        row && {
          targetId: row.id,
          targetIdentifier: row.identifier,
          orderRowId: row.order_id,
          uploaderId: row.uploader_id,
          fileName: row.file_name,
          contentType: row.content_type,
          token: row.upload_token,
          uploaded: row.uploaded_at !== null,
        }
      );
    },

    markUploaded(targetId: number, relativePath: string, sizeBytes: number): void {
      db.prepare('UPDATE order_targets SET file_path = ?, size_bytes = ?, uploaded_at = ? WHERE id = ?').run(
        relativePath,
        sizeBytes,
        nowIso(),
        targetId,
      );
    },
  };
}
