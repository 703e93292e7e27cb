import { messageOf } from '@marketplace/shared/errors';
import type { QueueOptions } from './queueOptions.js';

// When a failed job is tried again, the same on both backends: `retryLimit` attempts after the
// first, the first retry after `retryDelayMs` and each later one after twice the one before.

/** Whether attempt `attempt` (counted from 1) was the job's last. */
export const isLastAttempt = (attempt: number, options: QueueOptions): boolean => attempt > options.retryLimit;

/**
 * Whether a job was taken more often than it has attempts: its workers' leases ran out at every
 * one (they die on it: a file that kills the process, say), so it is dead-lettered rather than run again.
 */
export const outlivedItsAttempts = (attempt: number, options: QueueOptions): boolean =>
  attempt > options.retryLimit + 1;

/** When a job whose attempt `attempt` failed is due again (exponential backoff). */
export const retryAtAfter = (attempt: number, options: QueueOptions, now = Date.now()): Date =>
  new Date(now + options.retryDelayMs * 2 ** (attempt - 1));

/** pg-boss's own retry options for the same policy (it counts its delay in whole seconds). */
export const pgBossRetryOptions = (options: QueueOptions) =>
  ({
    retryLimit: options.retryLimit,
    retryDelay: Math.max(1, Math.round(options.retryDelayMs / 1000)),
    retryBackoff: true,
  }) as const;

/** Why an attempt failed, as kept in the job's row (last_error) and given to the dead-letter handler: bounded. */
export const failureReason = (error: unknown): string => messageOf(error).slice(0, 1000);
