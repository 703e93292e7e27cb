// An S3-compatible object store on loopback for the tests, the e2e suite's production project and
// `npm run start:prod`: s3rver (npm; Debian has no S3 server), which keeps objects as files in a
// folder, behind guard.mjs. s3rver checks Signature V2 only and has no users, so it listens on a
// loopback port of its own and every request reaches it through the guard, which checks Signature
// V4 (headers, presigned URLs, presigned POST policies) against two keys, each with the grants of
// docker-compose's MinIO users: the API's (anything in the bucket) and the media workers' (read
// the sources, write what they make). It serves one process's disk: it stands in for S3 or MinIO
// on one machine's loopback, never in production.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
import AWSAccount from 's3rver/lib/models/account.js';
import { freePort, stopOnSignal } from '@marketplace/shared/node/ports';
import { API_GRANTS, WORKER_GRANTS } from './grants.mjs';
import { startGuard } from './guard.mjs';

/** The key ids, unless the starter names its own (the secrets are the starter's, or drawn at each start). */
export const API_KEY_ID = 'platform-api';
export const WORKER_KEY_ID = 'platform-media-worker';

/**
 * Starts the store on 127.0.0.1:`port` with its objects in `dir` (kept across starts), for one
 * bucket (the API's FILES_S3_BUCKET).
 * @param {{ dir: string, port: number, bucket?: string, apiKeyId?: string, apiSecret?: string, workerKeyId?: string,
 *   workerSecret?: string }} options
 * @returns {Promise<{ url: string, env: Record<string, string>, workerEnv: Record<string, string>, stop(): Promise<void> }>}
 *   `env`: the API's FILES_S3_* settings for it; `workerEnv`: the media workers' (their own key)
 */
export async function startObjectStore({
  dir,
  port,
  bucket = 'marketplace-files',
  apiKeyId = API_KEY_ID,
  apiSecret = randomBytes(24).toString('hex'),
  workerKeyId = WORKER_KEY_ID,
  workerSecret = randomBytes(24).toString('hex'),
}) {
  mkdirSync(dir, { recursive: true });
  // s3rver takes any Signature V4 naming a key id it knows: the guard has checked it by then.
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(apiKeyId, apiSecret);
  AWSAccount.DUMMY_ACCOUNT.createKeyPair(workerKeyId, workerSecret);
  const upstreamPort = await freePort();
  const server = new S3rver({ address: '127.0.0.1', port: upstreamPort, directory: dir, silent: true });
  await server.run();
  const guard = await startGuard({
    port,
    upstreamPort,
    bucket,
    keys: new Map([
      [apiKeyId, { secret: apiSecret, grants: API_GRANTS }],
      [workerKeyId, { secret: workerSecret, grants: WORKER_GRANTS }],
    ]),
  });
  const url = `http://127.0.0.1:${port}`;
  const common = {
    FILES_S3_ENDPOINT: url,
    // Browsers on this machine reach loopback as localhost, like the API.
    FILES_S3_PUBLIC_ENDPOINT: `http://localhost:${port}`,
    FILES_S3_BUCKET: bucket,
  };
  return {
    url,
    env: { ...common, FILES_S3_ACCESS_KEY_ID: apiKeyId, FILES_S3_SECRET_ACCESS_KEY: apiSecret },
    workerEnv: { ...common, FILES_S3_ACCESS_KEY_ID: workerKeyId, FILES_S3_SECRET_ACCESS_KEY: workerSecret },
    stop: async () => {
      await guard.stop();
      await server.close();
    },
  };
}

// `node api/objectstore/s3rver.mjs`: the store in the foreground until SIGINT or SIGTERM
// (S3_DATA_DIR, S3_PORT, 4569 by default; S3_BUCKET; the keys' secrets S3_API_SECRET and
// S3_WORKER_SECRET, which the API and the workers are given, and their ids S3_API_KEY_ID and
// S3_WORKER_KEY_ID, API_KEY_ID and WORKER_KEY_ID by default).
if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.env.S3_DATA_DIR;
  const apiSecret = process.env.S3_API_SECRET;
  const workerSecret = process.env.S3_WORKER_SECRET;
  if (!dir || !apiSecret || !workerSecret) {
    console.error('s3rver.mjs: set S3_DATA_DIR, S3_API_SECRET and S3_WORKER_SECRET (and S3_PORT, S3_BUCKET)');
    process.exit(2);
  }
  const store = await startObjectStore({
    dir,
    port: Number(process.env.S3_PORT || 4569),
    bucket: process.env.S3_BUCKET || 'marketplace-files',
    apiKeyId: process.env.S3_API_KEY_ID || API_KEY_ID,
    apiSecret,
    workerKeyId: process.env.S3_WORKER_KEY_ID || WORKER_KEY_ID,
    workerSecret,
  });
  console.log(`[object store] ${store.url}`);
  stopOnSignal(() => store.stop());
}
