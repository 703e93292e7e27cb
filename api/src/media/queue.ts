import type { ApiConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { mediaJobsRepository } from '../repositories/mediaJobs.js';
import type { JobQueue } from './jobQueue.js';
import { pgBossQueue } from './pgBossQueue.js';
import { tableQueue } from './tableQueue.js';

/** The queue of this deployment's database: pg-boss on PostgreSQL (reached directly, since it migrates its schema), the table on SQLite. */
export async function openMediaQueue(
  database: Database,
  config: Pick<ApiConfig, 'databaseUrl' | 'databaseMigrationUrl' | 'mediaQueue'>,
): Promise<JobQueue> {
  if (config.databaseUrl) return pgBossQueue(config.databaseMigrationUrl ?? config.databaseUrl, config.mediaQueue);
  return tableQueue(mediaJobsRepository(database.db), config.mediaQueue);
}
