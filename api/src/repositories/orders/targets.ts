import { randomBytes } from 'node:crypto';
import type { EventOrderView } from '@marketplace/shared/contract';
import type { Db } from '../../db/database.js';
import type { Order } from '../../domain/orders.js';
import { quarantineKey } from '../../files/paths.js';
import { parseMedia } from '../../media/derivatives.js';
import { nowIso } from '../sql.js';
import { orderReads } from './reads.js';
import {
  type ReadyFile,
  TARGET_COLUMNS,
  type TargetRecord,
  slotQuery,
  storedKeys,
  toSlot,
  toTargetRecord,
} from './records.js';

/** An order's targets: reference pictures from the client, deliverables from the photographer. */
export function orderTargets(db: Db) {
  const { byRowId } = orderReads(db);
  return {
    /**
     * The order's targets whose file has arrived (processing, ready or refused), in the order they
     * were added, as `view` may see them: a sharing-link holder the ready deliverables of a delivered order only.
     */
    async targets(order: Order, view: EventOrderView): Promise<TargetRecord[]> {
      let query = db
        .selectFrom('order_targets')
        .select(TARGET_COLUMNS)
        .where('order_id', '=', order.rowId)
        .where('state', '!=', 'waiting');
      if (view === 'sharedUser') {
        // What was delivered, once it was: nothing of a delivery still under way.
        if (order.publicStatus !== 'DELIVERED') return [];
        query = query.where('uploader_id', '=', order.photographerId).where('state', '=', 'ready');
      }
      const rows = await query.orderBy('id').execute();
      return rows.map(toTargetRecord);
    },

    /** The ready targets of the orders, in the order they were added. */
    async readyFiles(orders: readonly Order[]): Promise<ReadyFile[]> {
      if (orders.length === 0) return [];
      const rows = await db
        .selectFrom('order_targets')
        .select(['order_id', 'identifier', 'uploader_id', 'content_type', 'media'])
        .where(
          'order_id',
          'in',
          orders.map((order) => order.rowId),
        )
        .where('state', '=', 'ready')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        orderRowId: row.order_id,
        identifier: row.identifier,
        uploaderId: row.uploader_id,
        contentType: row.content_type,
        media: parseMedia(row.media),
      }));
    },

    /** Whether the photographer has a processed file on the order, so there is something to deliver. */
    async hasDeliverable(order: Order): Promise<boolean> {
      const row = await db
        .selectFrom('order_targets')
        .select('id')
        .where('order_id', '=', order.rowId)
        .where('uploader_id', '=', order.photographerId)
        .where('state', '=', 'ready')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The originals of the order's ready deliverables, for their ZIP. */
    async deliverableFiles(order: Order): Promise<{ key: string; fileName: string }[]> {
      const rows = await db
        .selectFrom('order_targets')
        .select(['file_path', 'file_name'])
        .where('order_id', '=', order.rowId)
        .where('uploader_id', '=', order.photographerId)
        .where('state', '=', 'ready')
        .orderBy('id')
        .execute();
      return rows.flatMap((row) => (row.file_path ? [{ key: row.file_path, fileName: row.file_name }] : []));
    },

    /** A new target awaiting its file; the token is the permission to send it to the files host. */
    async addTarget(
      order: Order,
      uploaderId: number,
      file: { fileName: string; contentType: string; description: string },
    ): Promise<{ targetId: number; targetIdentifier: string; key: string; token: string }> {
      const targetIdentifier = `tgt-${randomBytes(9).toString('base64url')}`;
      const token = randomBytes(24).toString('base64url');
      const { id } = await db
        .insertInto('order_targets')
        .values({
          identifier: targetIdentifier,
          order_id: order.rowId,
          uploader_id: uploaderId,
          file_name: file.fileName,
          content_type: file.contentType,
          description: file.description,
          upload_token: token,
          created_at: nowIso(),
          state: 'waiting',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { targetId: id, targetIdentifier, key: quarantineKey(order.orderId, targetIdentifier), token };
    },

    /** The changed target, or undefined when the order has no such target uploaded by `uploaderId`. */
    async describeTarget(
      order: Order,
      uploaderId: number,
      targetId: number,
      description: string,
    ): Promise<TargetRecord | undefined> {
      const row = await db
        .updateTable('order_targets')
        .set({ description })
        .where('id', '=', targetId)
        .where('order_id', '=', order.rowId)
        .where('uploader_id', '=', uploaderId)
        .where('state', '!=', 'waiting')
        .returning(TARGET_COLUMNS)
        .executeTakeFirst();
      return row && toTargetRecord(row);
    },

    /**
     * A target's order, for deciding who may remove it, and where its files are (or would be)
     * stored: quarantine, original, and what the media job made.
     */
    async targetById(
      targetId: number,
    ): Promise<{ order: Order | undefined; uploaderId: number; keys: string[] } | undefined> {
      const row = await slotQuery(db)
        .select(['t.file_path', 't.media'])
        .where('t.id', '=', targetId)
        .executeTakeFirst();
      return (
        row && {
          order: await byRowId(row.order_id),
          uploaderId: row.uploader_id,
          keys: [toSlot(row).key, ...storedKeys(row)],
        }
      );
    },

    /**
     * Removes the target and answers where its files are, as the row said when it went (one
     * statement: a media job finishing at the same moment either finished before, and its files
     * are answered, or finds the target gone and removes what it made).
     */
    async removeTarget(targetId: number): Promise<string[]> {
      const row = await db
        .deleteFrom('order_targets')
        .where('id', '=', targetId)
        .returning(['file_path', 'media'])
        .executeTakeFirst();
      return row ? storedKeys(row) : [];
    },
  };
}
