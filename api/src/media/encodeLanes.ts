import { availableParallelism } from 'node:os';

/**
 * Encodes run at once: sharp gives each one libvips thread here (its default on glibc without
 * jemalloc), so a job uses the machine's cores only by running several; at most 2, so a job
 * leaves room to the API's requests beside it.
 */
export const ENCODE_LANES = Math.max(1, Math.min(2, availableParallelism()));

/** Work for inLanes: `size` orders it (the largest first). */
export interface Task<T> {
  size: number;
  run: () => Promise<T>;
}

/**
 * Runs `tasks` at most `lanes` at a time, the largest first (so the longest is not the one left
 * running alone at the end), and answers their results in the tasks' order; the first failure
 * rejects, once the tasks under way have ended, and no further task starts.
 */
export async function inLanes<T>(tasks: readonly Task<T>[], lanes: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  const order = tasks.map((_, i) => i).sort((a, b) => (tasks[b]?.size ?? 0) - (tasks[a]?.size ?? 0));
  let failed = false;
  const lane = async () => {
    for (let next = order.shift(); next !== undefined && !failed; next = order.shift()) {
      const task = tasks[next];
      if (!task) continue;
      try {
        results[next] = await task.run();
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(lanes, tasks.length) }, lane));
  const failure = settled.find((s) => s.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}
