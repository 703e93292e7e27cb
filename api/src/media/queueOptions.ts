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
   * pg-boss's: the longest a job may run (the handlers send pg-boss no heartbeat, so a job running
   * longer is failed, and its supervisor fails the job of a worker that died once this has passed).
   * A job's own time limit is below it (jobTimeLimit).
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

/**
 * When one run of a media job must be done, so it ends before the queue gives the job to another
 * worker: pg-boss expires a job `jobTimeoutMs` after it fetched it (a little before the handler
 * starts) and starts it again, whether or not the first run still works. So a run's decoders
 * (ffmpeg, media/videos.ts) are killed at `decodeBy`, four fifths in, leaving the rest for storing
 * what was made; a run that has not stored it by `recordBy` removes it and fails (the queue
 * retries) rather than record; and the last twentieth covers the record's one transaction and
 * the gap between the fetch and the handler. Two runs of a job therefore never decode or record
 * at once; and were one to outlive all this (a store write hanging past the expiry), the record
 * is a conditional update: one run records, the other finds it done and removes what it made.
 */
export interface JobTimeLimit {
  decodeBy: number;
  recordBy: number;
}

export const jobTimeLimit = (startedAt: number, jobTimeoutMs: number): JobTimeLimit => ({
  decodeBy: startedAt + Math.floor(jobTimeoutMs * 0.8),
  recordBy: startedAt + Math.floor(jobTimeoutMs * 0.95),
});
