/**
 * From an upload's end to its picture on the order page (`pnpm --filter api bench:upload`): the
 * API as `npm start` runs it (SQLite, the media worker inside, the demo seeded; its own media
 * left as seeded, so no start-up backlog runs under the clock), a demo client uploading one
 * 12 MP JPEG of about 1 MB after another (what the browser sends once browser-image-compression
 * has brought a camera's photo under 1 MB, its dimensions kept). The clock runs from the upload
 * request's answer to the first read of the order details (`getEventOrderDetails`, as the page
 * reads it) that shows the target ready with its picture; the reads are made as the page makes
 * them (mf-event-order's useOrderDetails): one at once (the page reads the order when a file is
 * sent), then every BENCH_UPLOAD_POLL_MS while the target has been processing for less than
 * BENCH_UPLOAD_FAST_MS, every 2 s after that. Figures, not a test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigWithSecrets } from '../src/config.js';
import { DEMO_PASSWORD } from '../src/db/seed.js';
import { startApi } from '../src/server.js';
import { freePort } from '@marketplace/shared/node/ports';
import { Browser } from './browser.js';
import { cameraPhoto } from './cameraPhoto.js';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
/** The page's reads while a file is new to processing, and for how long (useOrderDetails.ts). */
const FAST_POLL_MS = Number(process.env.BENCH_UPLOAD_POLL_MS ?? 500);
const FAST_FOR_MS = Number(process.env.BENCH_UPLOAD_FAST_MS ?? 10_000);
/** The page's reads past that. */
const SLOW_POLL_MS = 2000;
/** Past this a target is taken as lost: the bench fails rather than wait for ever. */
const GIVE_UP_MS = 60_000;
const ORDER = 'ord-1005';

/** A 12 MP photo as the browser sends it: 4000 x 3000, at the quality that makes it about 1 MB. */
const photo = (seed: number) => cameraPhoto({ width: 4000, height: 3000, seed, quality: 80, grain: 16 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

const dir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
const port = await freePort();
const api = await startApi(
  loadConfigWithSecrets({
    API_PORT: String(port),
    API_PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    DATABASE_PATH: join(dir, 'db.sqlite'),
    MEDIA_DIR: join(dir, 'media'),
    ADMIN_TOKEN: 'bench-admin-token',
    RUM_TOKEN_KEY: 'bench-rum-token-key-0123456789abcdef',
    SEED_DEMO: '1',
    SEED_DEMO_MEDIA: '0',
  }),
);
try {
  const photos = await Promise.all([0, 1, 2, 3].map(photo));
  const meanMb = photos.reduce((sum, p) => sum + p.length, 0) / photos.length / 1e6;
  const clara = new Browser(api.url);
  const login = await clara.call('login', { login: 'clara', password: DEMO_PASSWORD });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);

  /** One upload, as the page sends it; answers the milliseconds until the page shows its picture. */
  const uploadOne = async (i: number): Promise<{ ms: number; reads: number }> => {
    const bytes = photos[i % photos.length] ?? Buffer.alloc(0);
    const added = await clara.call('addTarget', {
      orderId: ORDER,
      description: '',
      fileName: `photo-${i}.jpg`,
      contentType: 'image/jpeg',
    });
    if (added.status !== 200) throw new Error(`addTarget: ${added.status} ${JSON.stringify(added.body)}`);
    const identifier = String(added.body.targetIdentifier);
    const put = await fetch(String(added.body.uploadUrl).replace(api.services.config.filesOrigin, api.url), {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: { 'content-type': 'image/jpeg' },
    });
    const answer = await put.text();
    if (!put.ok) throw new Error(`upload ${i}: ${put.status} ${answer}`);
    const sent = performance.now();
    for (let reads = 1; ; reads++) {
      const details = await clara.call('getEventOrderDetails', { orderId: ORDER });
      const targets = (details.body.targets ?? []) as { targetIdentifier: string; state: string; image: unknown }[];
      const target = targets.find((t) => t.targetIdentifier === identifier);
      if (target?.state === 'failed') throw new Error(`upload ${i} was refused: ${JSON.stringify(target)}`);
      if (target?.state === 'ready' && target.image) return { ms: performance.now() - sent, reads };
      const waited = performance.now() - sent;
      if (waited > GIVE_UP_MS) throw new Error(`upload ${i}: no picture after ${GIVE_UP_MS} ms`);
      await sleep(waited < FAST_FOR_MS ? FAST_POLL_MS : SLOW_POLL_MS);
    }
  };

  // One first, not counted: sharp's and the routes' first run.
  await uploadOne(-1 + photos.length);
  const times: number[] = [];
  let reads = 0;
  for (let i = 0; i < UPLOADS; i++) {
    const one = await uploadOne(i);
    times.push(one.ms);
    reads += one.reads;
    console.log(`upload ${i + 1}: ${Math.round(one.ms)} ms (${one.reads} reads)`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const line = `| ${UPLOADS} x 4000 x 3000 JPEG, ${meanMb.toFixed(2)} MB | ${FAST_POLL_MS} ms | ${Math.round(percentile(sorted, 50))} ms | ${Math.round(percentile(sorted, 95))} ms | ${Math.round(sorted.at(-1) ?? NaN)} ms | ${(reads / UPLOADS).toFixed(1)} |`;
  console.log(
    `\n| uploads | page's reads while processing | p50 | p95 | max | reads per upload |\n|---|---|---|---|---|---|\n${line}`,
  );
} finally {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
