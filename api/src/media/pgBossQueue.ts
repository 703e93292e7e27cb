import { messageOf } from '@marketplace/shared/errors';
import type { Job } from 'pg-boss';
import { DEAD_LETTER_QUEUE, laneGate, LATER_QUEUE, QUEUE, queueOf } from './lanes.js';
import { keyOf, mediaJobOf } from './mediaJob.js';
import type { JobQueue } from './jobQueue.js';
import { DEFAULT_QUEUE_OPTIONS, type QueueOptions } from './queueOptions.js';
import { setAsideOldSchema } from './pgBossSchema.js';
import { pgBossRetryOptions } from './retryPolicy.js';

const SCHEMA = 'pgboss';

/** The states of a job that has yet to finish. */
const UNFINISHED = new Set(['created', 'retry', 'active']);

/**
 * pg-boss on the API's PostgreSQL, in its own schema (it makes and migrates its tables at start).
 * The 'stately' policy keeps one job per key waiting and one running; a job whose worker died is
 * failed by pg-boss's supervisor once it has run `jobTimeoutMs` (no heartbeat is asked of the
 * handlers: a job running longer is failed too) and retried like any failure; after the last retry
 * it goes to the dead-letter queue, whose worker tells `deadLetter`.
 */
export async function pgBossQueue(
  connectionString: string,
  options: QueueOptions = DEFAULT_QUEUE_OPTIONS,
): Promise<JobQueue> {
  // Loaded here: a SQLite deployment never needs it.
  const { PgBoss } = await import('pg-boss');
  const asideAs = await setAsideOldSchema(connectionString, SCHEMA);
  if (asideAs)
    console.warn(`[media] pg-boss's old job schema is kept as ${asideAs}; its waiting media jobs are queued again`);
  const timeoutSeconds = Math.max(1, Math.ceil(options.jobTimeoutMs / 1000));
  const lookSeconds = Math.max(1, Math.min(120, timeoutSeconds));
  const boss = new PgBoss({
    connectionString,
    schema: SCHEMA,
    max: 3,
    // The supervisor's monitor pass fails expired jobs; a pass runs at the longer of the two
    // intervals: look often enough that a dead worker's job waits about a job timeout more.
    superviseIntervalSeconds: lookSeconds,
    monitorIntervalSeconds: lookSeconds,
  });
  boss.on('error', (error: unknown) => console.error(`[media] pg-boss: ${messageOf(error)}`));
  await boss.start();
  // What this start configures (a queue keeps the options it was made with, so they are set again).
  const queueOptions = {
    ...pgBossRetryOptions(options),
    expireInSeconds: timeoutSeconds,
    deadLetter: DEAD_LETTER_QUEUE,
  };
  // Instances starting together make the queues at once, and PostgreSQL may end one's
  // transaction as a deadlock's victim: that one tries again (the queue is there by then).
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(DEAD_LETTER_QUEUE);
      for (const name of [QUEUE, LATER_QUEUE]) {
        await boss.createQueue(name, { ...queueOptions, policy: 'stately' });
        await boss.updateQueue(name, queueOptions);
      }
      break;
    } catch (error) {
      const deadlock = error instanceof Error && 'code' in error && error.code === '40P01';
      if (!deadlock || attempt === 5) {
        await boss.stop({ graceful: false }).catch(() => undefined);
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
      // sweep asks first. A key's jobs are few (one item's), finished ones kept for a week.
      const jobs = await boss.findJobs(queueOf(job), { key: keyOf(job) });
      return jobs.some((found) => UNFINISHED.has(found.state));
    },
    async work(handler, deadLetter, concurrency = 1) {
      const take = async (queue: string) => {
        const id = await boss.work(queue, { batchSize: 1, pollingIntervalSeconds }, async ([job]: Job[]) => {
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
      await boss.work(DEAD_LETTER_QUEUE, { batchSize: 1, pollingIntervalSeconds }, async ([job]: Job[]) => {
        if (job) await deadLetter(mediaJobOf(job.data), 'it failed every attempt');
      });
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 30_000 });
    },
  };
}
