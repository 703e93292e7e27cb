import type { JobRun, WorkerServices } from './jobs/context.js';
import { avatarJob } from './jobs/avatar.js';
import { coverJob } from './jobs/cover.js';
import { formatsJob } from './jobs/formats.js';
import { contentJob } from './jobs/public.js';
import { failTarget, PROCESSING_FAILED, targetJob } from './jobs/target.js';
import type { MediaJob } from './mediaJob.js';
import type { DeadLetterHandler, JobHandler, JobQueue } from './jobQueue.js';
import { jobTimeLimit } from './queueOptions.js';

export type { WorkerServices } from './jobs/context.js';
export { PROCESSING_FAILED };

/** What a job of each kind does (media/jobs/): each in a file of its own. */
const RUNS: Record<MediaJob['kind'], JobRun> = {
  target: targetJob,
  content: contentJob,
  cover: coverJob,
  avatar: avatarJob,
  formats: formatsJob,
};

/**
 * The media jobs: an order target's file, an event's photo or video, an event's cover, a profile
 * picture, and an order picture's later formats. Each makes its media (jobs/make.ts) in a folder
 * of its run's own, then records it in one conditional update: a second worker running the same
 * job finds it recorded and removes what it made. Storage failing throws: the queue retries; a
 * target whose every attempt failed is told so (PROCESSING_FAILED).
 */
export function mediaJobs(services: WorkerServices): { handle: JobHandler; deadLetter: DeadLetterHandler } {
  return {
    handle: (job) =>
      RUNS[job.kind](services, job.id, jobTimeLimit(Date.now(), services.config.mediaQueue.jobTimeoutMs)),
    deadLetter: async (job, error) => {
      if (job.kind === 'target') return failTarget(services, job.id, PROCESSING_FAILED);
      // Public media stay as they were (an item processing, a user without a picture) until a later
      // start queues them again; an order picture without its later formats is shown in the others.
      console.error(`[media] the ${job.kind} job of ${job.id} failed every attempt: ${error}`);
    },
  };
}

/**
 * Queues the media job of every event photo, cover and profile picture whose pictures are not
 * made yet, and of every order file waiting for its job (at start, with the demo data). The profile pictures first: they are small, and a member's header shows one.
 */
export async function queuePublicMedia(queue: JobQueue, services: WorkerServices): Promise<number> {
  const avatars = await services.repos.users.avatarsWaiting();
  const { content, covers } = await services.repos.content.unprocessed();
  for (const id of avatars) await queue.send({ kind: 'avatar', id });
  for (const id of content) await queue.send({ kind: 'content', id });
  for (const id of covers) await queue.send({ kind: 'cover', id });
  // And the demo orders' deliverables, waiting like an upload whose file came.
  const targets = await services.repos.orders.processingSince('9999', 1000);
  for (const id of targets) await queue.send({ kind: 'target', id });
  return avatars.length + content.length + covers.length + targets.length;
}

/** Queues the media job of each target whose file came but whose job may have been lost (sent by the sweep). */
export async function resendStalled(queue: JobQueue, services: WorkerServices, before: string, limit: number) {
  const stalled = await services.repos.orders.processingSince(before, limit);
  let sent = 0;
  for (const id of stalled) {
    if (await queue.pending({ kind: 'target', id })) continue;
    await queue.send({ kind: 'target', id });
    sent++;
  }
  return sent;
}
