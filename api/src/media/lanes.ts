import type { MediaJob } from './mediaJob.js';

/** The first lane: the jobs someone waits for (an upload's pictures, a video's ladder). */
export const QUEUE = 'media';
/** The later lane: work that improves what is shown already (an order picture's AVIF). */
export const LATER_QUEUE = 'media-later';
/** pg-boss's: where a job goes after its last attempt (the table keeps it as 'failed' instead). */
export const DEAD_LETTER_QUEUE = 'media-dead';

/** The later lane's jobs (an order picture's later formats) wait behind none of the first lane's. */
export const queueOf = (job: MediaJob): string => (job.kind === 'formats' ? LATER_QUEUE : QUEUE);

/**
 * This process's first-lane jobs under way, so the later lane starts a job only when none is
 * (its job already running goes on): an upload's pictures never wait for another's AVIF.
 */
export function laneGate() {
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
