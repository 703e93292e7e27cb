/**
 * The media queue's timings (media/queue.ts), apart from the queue so the configuration
 * (config.ts) reads them without importing the queue and, through it, the database.
 */
export interface QueueOptions {
  /** Attempts after the first. */
  retryLimit: number;
  /** The first retry's delay; each later one doubles it. */
  retryDelayMs: number;
  /**
   * The table's lease: how long a worker holds a job without renewing it (it renews while the job
   * runs); past it (the worker died) another takes it.
   */
  leaseMs: number;
  /**
   * pg-boss's: the longest a job may run (pg-boss 10 has no heartbeat, so its worker fails a job
   * running longer, and its supervisor fails the job of a worker that died once this has passed).
   * Above the longest video's transcoding.
   */
  jobTimeoutMs: number;
  /**
   * How often an idle worker looks for jobs sent by another process (one sent in its own process
   * wakes it at once); pg-boss's shortest is 500 ms.
   */
  pollMs: number;
}

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = {
  retryLimit: 4,
  retryDelayMs: 5_000,
  leaseMs: 60_000,
  jobTimeoutMs: 3_600_000,
  pollMs: 500,
};
