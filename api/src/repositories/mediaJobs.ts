import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { Schema } from '../db/schema.js';
import { isUniqueViolation, nowIso } from './sql.js';

/** A job as a worker holds it: `attempt` is its lease's token (a job taken again has another). */
export interface ClaimedJob {
  id: number;
  payload: string;
  attempt: number;
}

/**
 * The SQLite backend's job table (media/tableQueue.ts). Every change is one conditional
 * statement, so of workers (or instances) doing the same thing at once exactly one does it: one
 * takes a job, one finishes it. Works on PostgreSQL too (the conditions are re-checked on the
 * locked row), though PostgreSQL deployments use pg-boss.
 */
export function mediaJobsRepository(db: Db) {
  return {
    /** Queues a job unless one with its key waits, runs or is dead-lettered; true when queued. */
    async add(queue: string, singletonKey: string, payload: string): Promise<boolean> {
      const now = nowIso();
      try {
        await db
          .insertInto('media_jobs')
          .values({ queue, singleton_key: singletonKey, payload, state: 'created', start_after: now, created_at: now })
          .execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** Takes the oldest due job (waiting past its backoff, or active past its lease) until `until`. */
    async claim(queue: string, now: Date, until: Date): Promise<ClaimedJob | undefined> {
      const at = now.toISOString();
      const due = (eb: ExpressionBuilder<Schema, 'media_jobs'>) =>
        eb.or([
          eb.and([eb('state', '=', 'created'), eb('start_after', '<=', at)]),
          eb.and([eb('state', '=', 'active'), eb('locked_until', '<', at)]),
        ]);
      const row = await db
        .updateTable('media_jobs')
        .set((eb) => ({ state: 'active', attempts: eb('attempts', '+', 1), locked_until: until.toISOString() }))
        .where('id', '=', (eb) =>
          eb.selectFrom('media_jobs').select('id').where('queue', '=', queue).where(due).orderBy('id').limit(1),
        )
        // Checked again on the row itself: of two workers that picked the same id, the second finds it taken.
        .where(due)
        .returning(['id', 'payload', 'attempts'])
        .executeTakeFirst();
      return row && { id: row.id, payload: row.payload, attempt: row.attempts };
    },

    /** Extends a held lease; false when the job was taken by another worker meanwhile. */
    async renew(job: ClaimedJob, until: Date): Promise<boolean> {
      const result = await db
        .updateTable('media_jobs')
        .set({ locked_until: until.toISOString() })
        .where('id', '=', job.id)
        .where('state', '=', 'active')
        .where('attempts', '=', job.attempt)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A finished job goes (its key may be queued again). */
    async complete(job: ClaimedJob): Promise<void> {
      await db.deleteFrom('media_jobs').where('id', '=', job.id).where('attempts', '=', job.attempt).execute();
    },

    /** A failed attempt: due again at `retryAt`, or dead-lettered (kept, with its error) when null. */
    async fail(job: ClaimedJob, error: string, retryAt: Date | null): Promise<void> {
      await db
        .updateTable('media_jobs')
        .set(
          retryAt
            ? { state: 'created', start_after: retryAt.toISOString(), locked_until: null, last_error: error }
            : { state: 'failed', locked_until: null, last_error: error },
        )
        .where('id', '=', job.id)
        .where('attempts', '=', job.attempt)
        .execute();
    },

    /** The job under a key, for tests and operators. */
    async byKey(singletonKey: string) {
      return db.selectFrom('media_jobs').selectAll().where('singleton_key', '=', singletonKey).executeTakeFirst();
    },
  };
}

export type MediaJobsRepository = ReturnType<typeof mediaJobsRepository>;
