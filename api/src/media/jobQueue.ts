import type { MediaJob } from './mediaJob.js';

/**
 * Does the job. Returning is done (also for a file refused: that is an answer, not a failure);
 * throwing is a failed attempt, retried with backoff (media/retryPolicy.ts), and dead-lettered after the last.
 */
export type JobHandler = (job: MediaJob) => Promise<void>;
/** Told once of a job that failed its last attempt, with the last error. */
export type DeadLetterHandler = (job: MediaJob, error: string) => Promise<void>;

/**
 * The media job queue, one interface with two backends: a table on the API's own database for
 * one process (media/tableQueue.ts, SQLite), pg-boss for PostgreSQL deployments (media/pgBossQueue.ts).
 * A job may be seen by two workers (a lease that ran out while its worker was only slow): the
 * handler's effect must be made once whoever runs it (media/jobs/target.ts finishes a target with
 * one conditional update).
 */
export interface JobQueue {
  readonly backend: 'table' | 'pg-boss';
  /** Queues the job unless one with its key is waiting (or, for the table, running). */
  send(job: MediaJob): Promise<void>;
  /** Whether a job with its key is waiting, retrying or running (the sweep sends again only one that is not). */
  pending(job: MediaJob): Promise<boolean>;
  /**
   * Starts taking jobs, `concurrency` at a time, until stop; and the later lane's (`formats` jobs) one
   * at a time beside them, so a job someone waits for never waits behind one nobody does (media/lanes.ts).
   */
  work(handler: JobHandler, deadLetter: DeadLetterHandler, concurrency?: number): Promise<void>;
  /** Stops taking jobs and waits for the ones under way. */
  stop(): Promise<void>;
}
