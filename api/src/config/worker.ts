import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import { envSchema, type Env } from './env.js';
import { ConfigRefused, parseConfig, refusing } from './fields.js';
import { withKept, type KeptSecrets } from './kept.js';
import type { FilesS3Config } from './shapes.js';

/** The origin browsers reach the API at. */
export const publicOriginOf = (env: Pick<Env, 'API_PORT' | 'API_PUBLIC_ORIGIN'>) =>
  env.API_PUBLIC_ORIGIN ?? `http://localhost:${env.API_PORT}`;

/** The variables a media worker reads: none of the API's serving secrets is among them. */
const workerEnvSchema = envSchema.pick({
  NODE_ENV: true,
  API_PORT: true,
  API_PUBLIC_ORIGIN: true,
  FILES_PUBLIC_ORIGIN: true,
  DATABASE_PATH: true,
  DATABASE_URL: true,
  DATABASE_MIGRATION_URL: true,
  DATABASE_POOL_MAX: true,
  DATABASE_CONNECT_TIMEOUT_MS: true,
  DATABASE_STATEMENT_TIMEOUT_MS: true,
  MEDIA_DIR: true,
  FILES_S3_ENDPOINT: true,
  FILES_S3_PUBLIC_ENDPOINT: true,
  FILES_S3_BUCKET: true,
  FILES_S3_REGION: true,
  FILES_S3_ACCESS_KEY_ID: true,
  FILES_S3_SECRET_ACCESS_KEY: true,
  FILES_S3_PATH_STYLE: true,
  UPLOAD_MAX_BYTES: true,
  VIDEO_UPLOAD_MAX_BYTES: true,
  MEDIA_WORKER: true,
  MEDIA_WORKER_CONCURRENCY: true,
  MEDIA_RETRY_LIMIT: true,
  MEDIA_RETRY_DELAY_MS: true,
  MEDIA_LEASE_MS: true,
  MEDIA_JOB_TIMEOUT_MS: true,
  MEDIA_POLL_MS: true,
  FILE_LINK_KEY: true,
});

type WorkerEnv = z.output<typeof workerEnvSchema>;

/** The settings the API and its media workers share (WorkerConfig). */
export function workerSettingsOf(env: WorkerEnv) {
  const databasePath = resolve(env.DATABASE_PATH);
  return {
    /** The SQLite file, the default store (`npm start`); unused when databaseUrl is set. */
    databasePath,
    /** Origin of the files host (downloads, media, upload targets). Defaults to publicOrigin. */
    filesOrigin: env.FILES_PUBLIC_ORIGIN ?? publicOriginOf(env),
    /** DATABASE_URL=postgres://...: PostgreSQL instead of the SQLite file, shared by every instance. */
    databaseUrl: env.DATABASE_URL,
    /**
     * DATABASE_MIGRATION_URL: the same database reached directly, for the migrations at start, when
     * DATABASE_URL goes through PgBouncer's transaction pooling (docker-compose). Unset: DATABASE_URL.
     */
    databaseMigrationUrl: env.DATABASE_MIGRATION_URL,
    /** PostgreSQL connections per instance, and how long a query may wait for one or run. */
    databasePool: {
      max: env.DATABASE_POOL_MAX,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    },
    /** The local files folder (uploads and media), the default store; unused when filesS3 is set. */
    mediaDir: resolve(env.MEDIA_DIR ?? join(dirname(databasePath), 'media')),
    /** FILES_S3_ENDPOINT=...: uploads and media in an S3-compatible object store instead, shared by every instance. */
    filesS3: filesS3Of(env),
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    /** The largest video upload (VIDEO_UPLOAD_MAX_BYTES, default 500 MB): videos are not compressed in the browser. */
    videoUploadMaxBytes: env.VIDEO_UPLOAD_MAX_BYTES,
    /**
     * Where media jobs run (media/queue.ts): 'inline' (default), in this process beside serving;
     * 'off', in media-worker processes only (`src/worker.ts`, a production deployment).
     */
    mediaWorker: env.MEDIA_WORKER,
    /** Jobs one worker process runs at once (MEDIA_WORKER_CONCURRENCY, default 1: a job uses a core). */
    mediaConcurrency: env.MEDIA_WORKER_CONCURRENCY,
    /** The media queue's retries, lease and timeout (media/queueOptions.ts). */
    mediaQueue: {
      retryLimit: env.MEDIA_RETRY_LIMIT,
      retryDelayMs: env.MEDIA_RETRY_DELAY_MS,
      leaseMs: env.MEDIA_LEASE_MS,
      jobTimeoutMs: env.MEDIA_JOB_TIMEOUT_MS,
      pollMs: env.MEDIA_POLL_MS,
    },
    /**
     * The key links to private files are signed with (files/signedLinks.ts: an order's files, the
     * unmarked pictures of an item for sale, bought originals): FILE_LINK_KEY, the same on every
     * instance, 32 characters at least. A secret of its own, never the operator token, which the
     * release watcher and the operators' tools hold too. Unset: the one kept beside the database
     * (`file-link-key`, keptSecrets.ts), or without one a key of this process's own;
     * NODE_ENV=production refuses to start without it.
     */
    fileLinkKey: fileLinkKeyOf(env),
  };
}

function fileLinkKeyOf(env: Pick<WorkerEnv, 'FILE_LINK_KEY' | 'NODE_ENV'>): string {
  if (env.FILE_LINK_KEY) return env.FILE_LINK_KEY;
  if (env.NODE_ENV === 'production')
    throw new ConfigRefused(
      'NODE_ENV=production needs FILE_LINK_KEY (32 characters at least, the same on every instance): the key links to private files are signed with',
    );
  return randomBytes(32).toString('base64url');
}

function filesS3Of(env: WorkerEnv): FilesS3Config | null {
  const endpoint = env.FILES_S3_ENDPOINT;
  if (!endpoint) return null;
  const accessKeyId = env.FILES_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.FILES_S3_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    throw new ConfigRefused('FILES_S3_ENDPOINT needs FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY');
  return {
    endpoint: endpoint.replace(/\/$/, ''),
    publicEndpoint: (env.FILES_S3_PUBLIC_ENDPOINT ?? endpoint).replace(/\/$/, ''),
    bucket: env.FILES_S3_BUCKET,
    region: env.FILES_S3_REGION,
    accessKeyId,
    secretAccessKey,
    pathStyle: env.FILES_S3_PATH_STYLE,
  };
}

const workerConfigSchema = workerEnvSchema.transform(refusing(workerSettingsOf));

/**
 * What a media worker process (src/worker.ts) is given: the database, the file store, the queue,
 * the upload limits and the key file links are signed with. None of the serving secrets (the
 * operator token, the broker's password and the pages' login key, the beacon key): a decoder
 * compromised by a hostile file finds none of them in its process.
 */
export type WorkerConfig = z.output<typeof workerConfigSchema>;

/**
 * A media worker's settings, read from the environment without the API's secrets (none is
 * needed or read); FILE_LINK_KEY from `env`, else from `kept` (keptSecrets.ts). Reads no file.
 */
export function workerConfigOf(env: NodeJS.ProcessEnv = process.env, kept: KeptSecrets = {}): WorkerConfig {
  return parseConfig(workerConfigSchema, withKept(env, kept));
}
