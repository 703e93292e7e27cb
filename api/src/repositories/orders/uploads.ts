import type { Db } from '../../db/database.js';
import { nowIso } from '../sql.js';
import { type UploadSlot, slotQuery, toSlot } from './records.js';

/** Targets waiting for their file, as the files host receives it. */
export function orderUploads(db: Db) {
  return {
    async uploadSlot(targetIdentifier: string): Promise<UploadSlot | undefined> {
      const row = await slotQuery(db).where('t.identifier', '=', targetIdentifier).executeTakeFirst();
      return row && toSlot(row);
    },

    /**
     * Targets still waiting for their file, added since `since` (older ones were abandoned: their
     * upload URL has expired), of one order or of all.
     */
    async pendingUploads(since: string, orderRowId?: number, limit = 500): Promise<UploadSlot[]> {
      let query = slotQuery(db).where('t.uploaded_at', 'is', null).where('t.created_at', '>=', since);
      if (orderRowId !== undefined) query = query.where('t.order_id', '=', orderRowId);
      return (await query.orderBy('t.id').limit(limit).execute()).map(toSlot);
    },

    /** Targets still waiting for their file that were added before `before` (abandoned), oldest first. */
    async abandonedUploads(before: string, limit: number): Promise<UploadSlot[]> {
      const query = slotQuery(db).where('t.uploaded_at', 'is', null).where('t.created_at', '<', before);
      return (await query.orderBy('t.id').limit(limit).execute()).map(toSlot);
    },

    /**
     * Records the target's file, which then waits for its media job; false when it already had one
     * (another instance or request was first).
     */
    async markUploaded(targetId: number, key: string, sizeBytes: number): Promise<boolean> {
      const result = await db
        .updateTable('order_targets')
        .set({ file_path: key, size_bytes: sizeBytes, uploaded_at: nowIso(), state: 'processing' })
        .where('id', '=', targetId)
        .where('uploaded_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
