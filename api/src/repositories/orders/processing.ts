import type { Db } from '../../db/database.js';
import { type Derivative, parseMedia, type TargetMedia } from '../../media/derivatives.js';
import { slotQuery, toSlot } from './records.js';

/** Targets' files through their media job, and as the files host serves them once it is done. */
export function orderProcessing(db: Db) {
  return {
    /**
     * A ready target's stored files, as the files host serves them: the original's key, type and
     * name, and what the media job made of it (null for a target uploaded before the pipeline).
     */
    async filesOf(
      targetIdentifier: string,
    ): Promise<{ key: string; contentType: string; fileName: string; media: TargetMedia | null } | undefined> {
      const row = await db
        .selectFrom('order_targets')
        .select(['file_path', 'content_type', 'file_name', 'media'])
        .where('identifier', '=', targetIdentifier)
        .where('state', '=', 'ready')
        .executeTakeFirst();
      return row?.file_path
        ? { key: row.file_path, contentType: row.content_type, fileName: row.file_name, media: parseMedia(row.media) }
        : undefined;
    },

    /** A target whose file waits for its media job, with what the job needs; undefined once it is done (or gone). */
    async processingTarget(targetIdentifier: string) {
      const row = await slotQuery(db)
        .select('t.file_path')
        .where('t.identifier', '=', targetIdentifier)
        .where('t.state', '=', 'processing')
        .executeTakeFirst();
      return row?.file_path ? { ...toSlot(row), sourceKey: row.file_path } : undefined;
    },

    /**
     * Ends a target's processing: ready with what was made of it, or failed with the reason. One
     * conditional update: of two workers finishing the same target, one does; false for the other
     * (and when the target was removed meanwhile).
     */
    async finishProcessing(
      targetId: number,
      outcome: { state: 'ready'; media: TargetMedia } | { state: 'failed'; reason: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('order_targets')
        .set(
          outcome.state === 'ready'
            ? { state: 'ready', media: JSON.stringify(outcome.media) }
            : { state: 'failed', failure_reason: outcome.reason },
        )
        .where('id', '=', targetId)
        .where('state', '=', 'processing')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Adds pictures made after a target was ready (media/jobs/formats.ts: its AVIF) to its media. One
     * conditional update: only while the target is ready with the media `shown` (false when it
     * went, or another worker added its own first).
     */
    async addDerivatives(targetIdentifier: string, shown: TargetMedia, added: Derivative[]): Promise<boolean> {
      const result = await db
        .updateTable('order_targets')
        .set({ media: JSON.stringify({ ...shown, derivatives: [...shown.derivatives, ...added] }) })
        .where('identifier', '=', targetIdentifier)
        .where('state', '=', 'ready')
        .where('media', '=', JSON.stringify(shown))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Targets processing since before `before`: their job may have been lost before it was queued
     * (the sweep sends it again).
     */
    async processingSince(before: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('order_targets')
        .select('identifier')
        .where('state', '=', 'processing')
        .where('uploaded_at', '<', before)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => row.identifier);
    },
  };
}
