import { messageOf } from '@marketplace/shared/errors';
import type { ClaimedJob, MediaJobsRepository } from '../repositories/mediaJobs.js';
import { laneGate, LATER_QUEUE, QUEUE, queueOf } from './lanes.js';
import { keyOf, type MediaJob, mediaJobOf } from './mediaJob.js';
import type { DeadLetterHandler, JobHandler, JobQueue } from './jobQueue.js';
import { DEFAULT_QUEUE_OPTIONS, type QueueOptions } from './queueOptions.js';
import { failureReason, isLastAttempt, outlivedItsAttempts, retryAtAfter } from './retryPolicy.js';

/** How long stop() waits for a job under way; past it the job is left to another worker after its lease. */
const STOP_WAIT_MS = 10_000;

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

  const runOne = async (claimed: ClaimedJob, job: MediaJob, handler: JobHandler, deadLetter: DeadLetterHandler) => {
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
      const last = isLastAttempt(claimed.attempt, options);
      const reason = failureReason(error);
      console.error(
        `[media] job ${keyOf(job)} attempt ${claimed.attempt} failed${last ? ' for the last time' : ''}: ${reason}`,
      );
      if (last) await deadLetterOnce(claimed, job, reason, deadLetter);
      else await jobs.fail(claimed, reason, retryAtAfter(claimed.attempt, options));
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

  /** One take of a job: read, then run, retried or dead-lettered by how it ends. */
  const attempt = async (queue: string, claimed: ClaimedJob, handler: JobHandler, deadLetter: DeadLetterHandler) => {
    let job: MediaJob;
    try {
      job = mediaJobOf(JSON.parse(claimed.payload));
    } catch (error) {
      // No attempt reads it better: dead-lettered at once, kept with why. The handler is not
      // told, since it is told of a job and this is none.
      const reason = failureReason(error);
      console.error(`[media] job ${claimed.id} is no media job, dead-lettered: ${reason}`);
      await jobs.fail(claimed, reason, null);
      return;
    }
    if (outlivedItsAttempts(claimed.attempt, options)) {
      await deadLetterOnce(claimed, job, 'its worker stopped at every attempt', deadLetter);
      return;
    }
    const run = () => runOne(claimed, job, handler, deadLetter);
    await (queue === QUEUE ? gate.first(run) : run());
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
        await attempt(queue, claimed, handler, deadLetter);
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
