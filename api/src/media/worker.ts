import type { WorkerConfig } from '../config.js';
import { databaseTarget, openDatabase } from '../db/database.js';
import { fileLinks } from '../files/fileLinks.js';
import { createFileStore } from '../files/store.js';
import { createRepositories } from '../repositories/index.js';
import { mediaJobs } from './jobs.js';
import { openMediaQueue } from './queue.js';

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * A media worker on its own (src/worker.ts): the API's database, file store and queue, taking
 * media jobs only, so processing scales apart from serving (docker-compose's `media-worker`
 * replicas, with the API's MEDIA_WORKER=off). What it tells users goes to the live outbox, which
 * the API instances' relays publish (they poll it). It holds only its WorkerConfig: links it
 * signs use the file link key, as the API's do, and no serving secret is in its process.
 */
export async function startWorker(config: WorkerConfig): Promise<RunningWorker> {
  const database = await openDatabase(databaseTarget(config), config.databasePool);
  try {
    const files = createFileStore(config);
    // No `prepare`: the API makes the bucket and sets its rules, which a worker's key may not.
    const repos = createRepositories(database.db, config.filesOrigin, fileLinks(config.fileLinkKey));
    const queue = await openMediaQueue(database, config);
    const jobs = mediaJobs({ repos, files, config, media: queue });
    await queue.work(jobs.handle, jobs.deadLetter, config.mediaConcurrency);
    return {
      async stop() {
        await queue.stop();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
