/**
 * The media pipeline's throughput (`pnpm --filter api bench:media`): photos per minute (24 MP
 * camera JPEGs, every width and format) and video seconds transcoded per second (1080p clips to
 * the 360p and 720p ladder), with 1 and with 2 media-worker processes, as deployed: the API on
 * SQLite with MEDIA_WORKER=off takes the uploads, the workers (src/worker.ts) take the jobs. The
 * clock runs from the workers' start to the last target ready. Figures, not a test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigWithSecrets } from '../src/config.js';
import { DEMO_PASSWORD } from '../src/db/seed.js';
import { syntheticClip } from '../src/media/clips.js';
import { startApi } from '../src/server.js';
import { freePort } from '@marketplace/shared/node/ports';
import { Browser } from './browser.js';
import { cameraPhoto } from './cameraPhoto.js';

const PHOTOS = Number(process.env.BENCH_MEDIA_PHOTOS ?? 12);
const VIDEOS = Number(process.env.BENCH_MEDIA_VIDEOS ?? 4);
const VIDEO_SECONDS = 10;
const API_ROOT = join(import.meta.dirname, '..');

/** A camera's 24 MP frame: 6000 x 4000, JPEG at 90. */
const photo = (seed: number) => cameraPhoto({ width: 6000, height: 4000, seed, quality: 90 });

async function run(workers: number, files: { name: string; type: string; bytes: Buffer }[]) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-media-'));
  const port = await freePort();
  const env: Record<string, string> = {
    API_PORT: String(port),
    API_PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    DATABASE_PATH: join(dir, 'db.sqlite'),
    MEDIA_DIR: join(dir, 'media'),
    ADMIN_TOKEN: 'bench-admin-token',
    RUM_TOKEN_KEY: 'bench-rum-token-key-0123456789abcdef',
    SEED_DEMO: '1',
    MEDIA_WORKER: 'off',
    UPLOAD_MAX_BYTES: String(60_000_000),
  };
  const api = await startApi(loadConfigWithSecrets(env));
  const children: ChildProcess[] = [];
  try {
    const clara = new Browser(api.url);
    await clara.call('login', { login: 'clara', password: DEMO_PASSWORD });
    const targets: string[] = [];
    for (const file of files) {
      const added = await clara.call('addTarget', {
        orderId: 'ord-1005',
        description: '',
        fileName: file.name,
        contentType: file.type,
      });
      const uploadUrl = String(added.body.uploadUrl).replace(api.services.config.filesOrigin, api.url);
      const put = await fetch(uploadUrl, {
        method: 'PUT',
        body: new Uint8Array(file.bytes),
        headers: { 'content-type': file.type },
      });
      if (!put.ok) throw new Error(`upload ${file.name}: ${put.status} ${await put.text()}`);
      targets.push(String(added.body.targetIdentifier));
    }
    const start = performance.now();
    for (let i = 0; i < workers; i++)
      children.push(
        spawn(process.execPath, ['--import', 'tsx', join(API_ROOT, 'src', 'worker.ts')], {
          cwd: API_ROOT,
          env: { ...process.env, ...env },
          stdio: 'ignore',
        }),
      );
    for (;;) {
      const rows = await api.database.db
        .selectFrom('order_targets')
        .select(['identifier', 'state'])
        .where('identifier', 'in', targets)
        .execute();
      const failed = rows.filter((r) => r.state === 'failed');
      if (failed.length) throw new Error(`${failed.length} failed`);
      if (rows.every((r) => r.state === 'ready')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return (performance.now() - start) / 1000;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))),
      ),
    );
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const photos = await Promise.all(
  Array.from({ length: PHOTOS }, async (_, i) => ({
    name: `photo-${i}.jpg`,
    type: 'image/jpeg',
    bytes: await photo(i),
  })),
);
const clips = Array.from({ length: VIDEOS }, (_, i) => ({
  name: `clip-${i}.mp4`,
  type: 'video/mp4',
  bytes: syntheticClip({ width: 1920, height: 1080, seconds: VIDEO_SECONDS }),
}));
const meanPhotoMb = photos.reduce((sum, p) => sum + p.bytes.length, 0) / photos.length / 1e6;
const lines = [
  `| workers | photos per minute (${PHOTOS} x 24 MP JPEG, ${meanPhotoMb.toFixed(1)} MB each, 4 widths x 3 formats) | video seconds per second (${VIDEOS} x ${VIDEO_SECONDS} s 1080p, 360p + 720p HLS) |`,
  '|---|---|---|',
];
for (const workers of [1, 2]) {
  const photoSeconds = await run(workers, photos);
  const videoSeconds = await run(workers, clips);
  lines.push(
    `| ${workers} | ${((PHOTOS / photoSeconds) * 60).toFixed(1)} (${photoSeconds.toFixed(1)} s) | ${((VIDEOS * VIDEO_SECONDS) / videoSeconds).toFixed(2)} (${videoSeconds.toFixed(1)} s) |`,
  );
  console.log(lines.at(-1));
}
console.log(`\n${lines.join('\n')}`);
process.exit(0);
