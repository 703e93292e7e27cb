import type { WorkerConfig } from '../../config.js';
import type { Services } from '../../services.js';
import type { JobTimeLimit } from '../queueOptions.js';

/** What a media worker uses: the API's storage, the file store, the live outbox and the queue (for later jobs), wherever it runs. */
export type WorkerServices = Pick<Services, 'repos' | 'files' | 'media'> & { config: WorkerConfig };

/**
 * One run of a job of one kind on what it is about (its identifier): returning is done, a refused
 * source included; throwing is a failed attempt, which the queue retries.
 */
export type JobRun = (services: WorkerServices, identifier: string, timeLimit: JobTimeLimit) => Promise<void>;
