import { messageOf } from '@marketplace/shared/errors';
import type { ApiConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { type ClaimedJob, type MediaJobsRepository, mediaJobsRepository } from '../repositories/mediaJobs.js';
import { keyOf, type MediaJob, mediaJobOf } from './mediaJob.js';
import { DEFAULT_QUEUE_OPTIONS, type QueueOptions } from './queueOptions.js';

export type { MediaJob } from './mediaJob.js';

/**
 * Does the job. Returning is done (also for a file refused: that is an answer, not a failure);
 * throwing is a failed attempt, retried with backoff, and dead-lettered after the last.
 */
export type JobHandler = (job: MediaJob) => Promise<void>;
/** Told once of a job that failed its last attempt, with the last error. */
export type DeadLetterHandler = (job: MediaJob, error: string) => Promise<void>;

/**
 * The media job queue, one interface with two backends: a table on the API's own database for
 * one process (tableQueue, SQLite), pg-boss for PostgreSQL deployments (pgBossQueue). A job may be
 * seen by two workers (a lease that ran out while its worker was only slow): the handler's effect
 * must be made once whoever runs it (media/jobs/target.ts finishes a target with one conditional update).
 */
export interface JobQueue {
  readonly backend: 'table' | 'pg-boss';
  /** Queues the job unless one with its key is waiting (or, for the table, running). */
  send(job: MediaJob): Promise<void>;
  /** Whether a job with its key is waiting, retrying or running (the sweep sends again only one that is not). */
  pending(job: MediaJob): Promise<boolean>;
  /**
   * Starts taking jobs, `concurrency` at a time, until stop; and the later lane's (`formats` jobs) one
   * at a time beside them, so a job someone waits for never waits behind one nobody does.
   */
  work(handler: JobHandler, deadLetter: DeadLetterHandler, concurrency?: number): Promise<void>;
  /** Stops taking jobs and waits for the ones under way. */
  stop(): Promise<void>;
}

/** How long stop() waits for a job under way; past it the job is left to another worker after its lease. */
const STOP_WAIT_MS = 10_000;

const QUEUE = 'media';
/** The later lane: work that improves what is shown already (an order picture's AVIF). */
const LATER_QUEUE = 'media-later';
const DEAD_LETTER_QUEUE = 'media-dead';
/** The later lane's jobs (an order picture's later formats) wait behind none of the first lane's. */
const queueOf = (job: MediaJob) => (job.kind === 'formats' ? LATER_QUEUE : QUEUE);
/**
 * This process's first-lane jobs under way, so the later lane starts a job only when none is
 * (its job already running goes on): an upload's pictures never wait for another's AVIF.
 */
function laneGate() {
  let running = 0;
  const waiting = new Set<() => void>();
  return {
    /** Runs a first-lane job, counted. */
    async first<T>(work: () => Promise<T>): Promise<T> {
      running++;
      try {
        return await work();
      } finally {
        running--;
        if (running === 0) for (const go of waiting) go();
      }
    },
    /** Resolves once no first-lane job runs (at once when none does). */
    idle(): Promise<void> {
      if (running === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const go = () => {
          waiting.delete(go);
          resolve();
        };
        waiting.add(go);
      });
    },
  };
}

/**
 * Jobs in the API's database (media_jobs, repositories/mediaJobs.ts): taken by one conditional
 * update with a lease the worker renews while it works, so a worker killed midway leaves a job
 * another takes once the lease has run out; retried with exponential backoff; kept as 'failed'
 * (the dead letter) after the last attempt. For `npm start`'s one process, and any single instance.
 */
export function tableQueue(jobs: MediaJobsRepository, options: QueueOptions = DEFAULT_QUEUE_OPTIONS): JobQueue {
  let running = false;
  const loops: Promise<void>[] = [];
  const gate = laneGate();
  const sleepers = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of sleepers) wake();
  };
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  const runOne = async (claimed: ClaimedJob, handler: JobHandler, deadLetter: DeadLetterHandler) => {
    const job = mediaJobOf(JSON.parse(claimed.payload));
    const heartbeat = setInterval(() => {
      jobs
        .renew(claimed, new Date(Date.now() + options.leaseMs))
        .catch((error: unknown) => console.error(`[media] could not renew a job's lease: ${messageOf(error)}`));
    }, options.leaseMs / 3);
    try {
      await handler(job);
      clearInterval(heartbeat);
      await jobs.complete(claimed);
    } catch (error) {
      clearInterval(heartbeat);
      const last = claimed.attempt > options.retryLimit;
      const retryAt = last ? null : new Date(Date.now() + options.retryDelayMs * 2 ** (claimed.attempt - 1));
      // Kept in the job's row (last_error) and given to the dead-letter handler: bounded.
      const reason = messageOf(error).slice(0, 1000);
      console.error(
        `[media] job ${keyOf(job)} attempt ${claimed.attempt} failed${last ? ' for the last time' : ''}: ${reason}`,
      );
      if (last) await deadLetterOnce(claimed, job, reason, deadLetter);
      else await jobs.fail(claimed, reason, retryAt);
    }
  };

  /**
   * The last attempt failed: the handler told first, then the job kept as 'failed'. In this
   * order, so a process dying between the two leaves the job to be taken again and dead-lettered
   * again (the handler's effect is made once); and only while this worker still holds the job
   * (a worker whose lease was taken over does not end the job another is running).
   */
  const deadLetterOnce = async (claimed: ClaimedJob, job: MediaJob, error: string, deadLetter: DeadLetterHandler) => {
    if (!(await jobs.renew(claimed, new Date(Date.now() + options.leaseMs)))) return;
    await deadLetter(job, error);
    await jobs.fail(claimed, error, null);
  };

  const loop = async (queue: string, handler: JobHandler, deadLetter: DeadLetterHandler) => {
    while (running) {
      if (queue === LATER_QUEUE) {
        await gate.idle();
        if (!running) break;
      }
      let claimed: ClaimedJob | undefined;
      try {
        claimed = await jobs.claim(queue, new Date(), new Date(Date.now() + options.leaseMs));
      } catch (error) {
        console.error(`[media] could not look for jobs: ${messageOf(error)}`);
      }
      if (!claimed) {
        await idle(options.pollMs);
        continue;
      }
      try {
        // Taken again after its lease ran out once too often: its workers die on it (a file that
        // kills the process, say). Dead-lettered rather than run once more.
        if (claimed.attempt > options.retryLimit + 1) {
          await deadLetterOnce(
            claimed,
            mediaJobOf(JSON.parse(claimed.payload)),
            'its worker stopped at every attempt',
            deadLetter,
          );
          continue;
        }
        const run = () => runOne(claimed, handler, deadLetter);
        await (queue === QUEUE ? gate.first(run) : run());
      } catch (error) {
        // Recording the outcome failed (the database went away): the lease runs out and the job is taken again.
        console.error(`[media] could not record a job's outcome: ${messageOf(error)}`);
      }
    }
  };

  return {
    backend: 'table',
    async send(job) {
      await jobs.add(queueOf(job), keyOf(job), JSON.stringify(job));
      wakeAll();
    },
    async pending(job) {
      const row = await jobs.byKey(keyOf(job));
      return row !== undefined && row.state !== 'failed';
    },
    async work(handler, deadLetter, concurrency = 1) {
      running = true;
      for (let i = 0; i < concurrency; i++) loops.push(loop(QUEUE, handler, deadLetter));
      loops.push(loop(LATER_QUEUE, handler, deadLetter));
    },
    async stop() {
      running = false;
      wakeAll();
      // A long transcode is not waited for: its lease runs out and another worker takes it.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(loops.splice(0)),
        new Promise((resolve) => {
          timer = setTimeout(resolve, STOP_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}

/**
 * pg-boss on the API's PostgreSQL, in its own schema (it makes and migrates its tables at start).
 * Pinned to 10.4.x: pg-boss 11 and later need Node 22, and the API runs on Node 20. The 'stately'
 * policy keeps one job per key waiting and one running; a job whose worker died is failed by
 * pg-boss's supervisor once it has run `jobTimeoutMs` (it has no heartbeat: a job running longer
 * is failed too) and retried like any failure; after the last retry it goes to the dead-letter
 * queue, whose worker tells `deadLetter`.
 */
export async function pgBossQueue(
  connectionString: string,
  options: QueueOptions = DEFAULT_QUEUE_OPTIONS,
): Promise<JobQueue> {
  // Loaded here: a SQLite deployment never needs it.
  const { default: PgBoss } = await import('pg-boss');
  const timeoutSeconds = Math.max(1, Math.ceil(options.jobTimeoutMs / 1000));
  const boss = new PgBoss({
    connectionString,
    schema: 'pgboss',
    max: 3,
    // The supervisor fails expired jobs: look often enough that a dead worker's job waits about a lease.
    maintenanceIntervalSeconds: Math.max(1, Math.min(120, timeoutSeconds)),
    monitorStateIntervalSeconds: 60,
  });
  boss.on('error', (error: unknown) => console.error(`[media] pg-boss: ${messageOf(error)}`));
  await boss.start();
  const queueOptions = {
    name: QUEUE,
    policy: 'stately',
    retryLimit: options.retryLimit,
    retryDelay: Math.max(1, Math.round(options.retryDelayMs / 1000)),
    retryBackoff: true,
    expireInSeconds: timeoutSeconds,
    deadLetter: DEAD_LETTER_QUEUE,
  } as const;
  // Instances starting together make the queues at once, and PostgreSQL may end one's
  // transaction as a deadlock's victim: that one tries again (the queue is there by then).
  const laterOptions = { ...queueOptions, name: LATER_QUEUE };
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(DEAD_LETTER_QUEUE);
      await boss.createQueue(QUEUE, queueOptions);
      await boss.createQueue(LATER_QUEUE, laterOptions);
      // A queue keeps the options it was made with: this start's configuration applies from now on.
      await boss.updateQueue(QUEUE, queueOptions);
      await boss.updateQueue(LATER_QUEUE, laterOptions);
      break;
    } catch (error) {
      const deadlock = error instanceof Error && 'code' in error && error.code === '40P01';
      if (!deadlock || attempt === 5) {
        await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
  // pg-boss's shortest: other processes' jobs are found within it; this process's at once (notifyWorker).
  const pollingIntervalSeconds = Math.max(0.5, options.pollMs / 1000);
  const workers = new Map<string, string[]>();
  const gate = laneGate();
  return {
    backend: 'pg-boss',
    async send(job) {
      await boss.send(queueOf(job), job, { singletonKey: keyOf(job) });
      // This process's idle workers of the queue look now rather than at their next poll.
      for (const id of workers.get(queueOf(job)) ?? []) boss.notifyWorker(id);
    },
    async pending(job) {
      // 'stately' refuses a second job only in the same state: a job sent while one runs would
      // wait, and block the queue's fetch when it comes to run (pg-boss's unique index), so the
      // sweep asks first. pg-boss 10 has no call for this; its job table is pinned with it.
      const { rows } = await boss
        .getDb()
        .executeSql(
          `SELECT 1 FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry', 'active') LIMIT 1`,
          [queueOf(job), keyOf(job)],
        );
      return rows.length > 0;
    },
    async work(handler, deadLetter, concurrency = 1) {
      const take = async (queue: string) => {
        const id = await boss.work<unknown>(queue, { batchSize: 1, pollingIntervalSeconds }, async ([job]) => {
          if (!job) return;
          const media = mediaJobOf(job.data);
          if (queue === QUEUE) return gate.first(() => handler(media));
          // Fetched already: held until the first lane is idle (well within its expiry).
          await gate.idle();
          await handler(media);
        });
        workers.set(queue, [...(workers.get(queue) ?? []), id]);
      };
      for (let i = 0; i < concurrency; i++) await take(QUEUE);
      await take(LATER_QUEUE);
      await boss.work<unknown>(DEAD_LETTER_QUEUE, { batchSize: 1, pollingIntervalSeconds }, async ([job]) => {
        if (job) await deadLetter(mediaJobOf(job.data), 'it failed every attempt');
      });
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    },
  };
}

/** The queue of this deployment's database: pg-boss on PostgreSQL (reached directly, since it migrates its schema), the table on SQLite. */
export async function openMediaQueue(
  database: Database,
  config: Pick<ApiConfig, 'databaseUrl' | 'databaseMigrationUrl' | 'mediaQueue'>,
): Promise<JobQueue> {
  if (config.databaseUrl) return pgBossQueue(config.databaseMigrationUrl ?? config.databaseUrl, config.mediaQueue);
  return tableQueue(mediaJobsRepository(database.db), config.mediaQueue);
}
