// An S3-compatible object store on loopback for the tests, the e2e suite's production project and
// `npm run start:prod`: s3rver (npm; Debian has no S3 server), which keeps objects as files in a
// folder. Its limits (api/README.md "Files"): it checks Signature V2 but accepts any Signature V4
// (what the AWS SDK and presigned URLs use) naming a known access key id, so it authenticates
// nothing and has no users or policies to scope a key; it does not enforce a presigned URL's
// signed Content-Type, and serves one process's disk. It stands in for S3 or MinIO on one
// machine's loopback, never in production.
import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
import { stopOnSignal } from '@marketplace/shared/node/ports';

/** s3rver's one fixed key pair (start:prod and the e2e production project name it too). */
const OBJECT_STORE_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * Starts the store on 127.0.0.1:`port` with its objects in `dir` (kept across starts).
 * @param {{ dir: string, port: number }} options
 * @returns {Promise<{ url: string, env: Record<string, string>, stop(): Promise<void> }>} `env`: the API's FILES_S3_* settings for it
 */
export async function startObjectStore({ dir, port }) {
  mkdirSync(dir, { recursive: true });
  const server = new S3rver({ address: '127.0.0.1', port, directory: dir, silent: true });
  await server.run();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    env: {
      FILES_S3_ENDPOINT: url,
      // Browsers on this machine reach loopback as localhost, like the API.
      FILES_S3_PUBLIC_ENDPOINT: `http://localhost:${port}`,
      FILES_S3_ACCESS_KEY_ID: OBJECT_STORE_CREDENTIALS.accessKeyId,
      FILES_S3_SECRET_ACCESS_KEY: OBJECT_STORE_CREDENTIALS.secretAccessKey,
    },
    stop: () => server.close(),
  };
}

// `node api/objectstore/s3rver.mjs`: the store in the foreground until SIGINT or SIGTERM
// (S3_DATA_DIR, S3_PORT; 4569 by default).
if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.env.S3_DATA_DIR;
  if (!dir) {
    console.error('s3rver.mjs: set S3_DATA_DIR (and S3_PORT)');
    process.exit(2);
  }
  const store = await startObjectStore({ dir, port: Number(process.env.S3_PORT || 4569) });
  console.log(`[object store] ${store.url}`);
  stopOnSignal(() => store.stop());
}
