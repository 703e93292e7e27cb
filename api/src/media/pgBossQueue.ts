import { messageOf } from '@marketplace/shared/errors';
import { DEAD_LETTER_QUEUE, laneGate, LATER_QUEUE, QUEUE, queueOf } from './lanes.js';
import { keyOf, mediaJobOf } from './mediaJob.js';
import type { JobQueue } from './jobQueue.js';
import { DEFAULT_QUEUE_OPTIONS, type QueueOptions } from './queueOptions.js';
import { pgBossRetryOptions } from './retryPolicy.js';

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
    ...pgBossRetryOptions(options),
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
