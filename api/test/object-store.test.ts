import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startObjectStore } from '../objectstore/s3rver.mjs';
import { gradientPng } from '../src/db/png.js';
import { importFolder } from '../src/files/import.js';
import {
  FOREIGN_ORIGIN,
  freePort,
  present,
  SHELL_ORIGIN,
  startTestApi,
  type TestApi,
  type TestClient,
} from './harness.js';

// The API with its files in an S3-compatible object store (s3rver on loopback, started here):
// seeded media land in the bucket, media stream from it, downloads redirect to presigned GETs,
// and the spec's upload flow runs on presigned PUTs sent straight to the store.
let t: TestApi;
let store: Awaited<ReturnType<typeof startObjectStore>>;
let storeDir: string;
let s3: S3Client;
let clara: TestClient;
let mia: TestClient;
const BUCKET = 'test-files';

beforeAll(async () => {
  storeDir = mkdtempSync(join(tmpdir(), 'object-store-'));
  store = await startObjectStore({ dir: storeDir, port: await freePort() });
  t = await startTestApi({ ...store.env, FILES_S3_BUCKET: BUCKET, UPLOAD_MAX_BYTES: String(200_000) });
  s3 = new S3Client({
    endpoint: store.url,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: {
      accessKeyId: store.env.FILES_S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: store.env.FILES_S3_SECRET_ACCESS_KEY ?? '',
    },
  });
  clara = await t.as('clara');
  mia = await t.as('mia');
});
afterAll(async () => {
  await t.close();
  s3.destroy();
  await store.stop();
  rmSync(storeDir, { recursive: true, force: true });
});

const inBucket = async (key: string) => {
  try {
    return (await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).ContentLength;
  } catch {
    return undefined;
  }
};
/** An order's uploads in the store: waiting in quarantine, and the checked copies served. */
const uploadsOf = async (orderId: string) =>
  (
    await Promise.all(
      [`quarantine/${orderId}/`, `orders/${orderId}/`].map(
        async (Prefix) => (await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix }))).Contents ?? [],
      ),
    )
  )
    .flat()
    .map((o) => o.Key);
const local = (url: string) => url.replace(t.config.filesOrigin, t.url);
const addTarget = async (fileName: string, contentType = 'image/png', orderId = 'ord-1005') => {
  const added = await clara.call('addTarget', { orderId, description: '', fileName, contentType });
  expect(added.status).toBe(200);
  return added.body;
};
/** What a browser does with the upload URL: a PUT of the bytes with their type, no cookies. */
const put = (url: string, body: Uint8Array, contentType = 'image/png') =>
  fetch(url, { method: 'PUT', body: new Blob([new Uint8Array(body)]), headers: { 'content-type': contentType } });
const targetsOf = async (orderId = 'ord-1005') =>
  (await clara.call('getEventOrderDetails', { orderId })).body.targets as { targetId: number; targetURLs: string[] }[];

describe('media in the object store', () => {
  it('seeds the demo media into the bucket, none onto the disk, and streams them at /media', async () => {
    expect(await inBucket('events/summer-jazz-night-2026/photo-001.png')).toBeGreaterThan(0);
    expect(await inBucket('videos/video-007/playlist.m3u8')).toBeGreaterThan(0);
    expect(existsSync(t.config.mediaDir)).toBe(false);

    const image = await fetch(`${t.url}/media/events/summer-jazz-night-2026/photo-001.png`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await image.arrayBuffer())[1]).toBe(0x50); // 'P' of the PNG signature
    const playlist = await fetch(`${t.url}/media/videos/video-007/playlist.m3u8`);
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(await playlist.text()).toMatch(/segment0\.ts/);
    expect((await fetch(`${t.url}/media/events/nothing-here.png`)).status).toBe(404);
  });

  it('redirects /download to a short-lived presigned GET on the public endpoint that saves under fileName', async () => {
    const query = new URLSearchParams({
      filePath: 'events/summer-jazz-night-2026/photo-001.png',
      fileName: 'Stage.png',
    });
    const res = await fetch(`${t.url}/download?${query.toString()}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.origin).toBe(store.env.FILES_S3_PUBLIC_ENDPOINT);
    expect(location.pathname).toBe(`/${BUCKET}/events/summer-jazz-night-2026/photo-001.png`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');

    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="Stage.png"; filename*=UTF-8''Stage.png`,
    );
    expect(file.headers.get('content-type')).toBe('image/png');
  });

  it('answers 404 for a missing file and 400 for a path that leaves the store, as with the folder', async () => {
    const download = (filePath: string) =>
      fetch(`${t.url}/download?${new URLSearchParams({ filePath, fileName: 'x' }).toString()}`, { redirect: 'manual' });
    expect((await download('events/nothing-here.png')).status).toBe(404);
    for (const filePath of ['../secret.txt', '/etc/passwd', 'events//photo-001.png', '%2e%2e/x', '']) {
      expect((await download(filePath)).status, filePath).toBe(400);
    }
  });
});

describe('uploads to the object store', () => {
  it('hands out a presigned PUT that a browser on the shell origin may use, counts the file once it is there, and tells the other party', async () => {
    const png = gradientPng(64, 48, 11);
    const added = await addTarget('stage plan.png');
    const url = new URL(added.uploadUrl);
    expect(url.origin).toBe(store.env.FILES_S3_PUBLIC_ENDPOINT);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toContain('content-type');

    // The browser's preflight: the bucket's CORS rules (set by the API) allow the shell's origin only.
    const preflight = (origin: string) =>
      fetch(url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
      });
    const allowed = await preflight(SHELL_ORIGIN);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-methods')).toContain('PUT');
    expect((await preflight(FOREIGN_ORIGIN)).status).toBe(403);

    const before = (await mia.call('getNotifications')).body.notifications.length;
    expect((await put(added.uploadUrl, png)).status).toBe(200);
    // Two readers at once (two instances, say): the target is completed and announced once.
    const [a, b] = await Promise.all([targetsOf(), targetsOf()]);
    expect(a.map((x) => x.targetId)).toContain(added.targetId);
    expect(b.map((x) => x.targetId)).toContain(added.targetId);
    const notifications = (await mia.call('getNotifications')).body.notifications;
    expect(notifications.length).toBe(before + 1);
    expect(present(notifications[0], 'a notification').content).toMatch(/stage plan\.png/);

    const target = present(
      (await targetsOf()).find((x) => x.targetId === added.targetId),
      'the uploaded target',
    );
    const [viewUrl = '', downloadUrl = ''] = target.targetURLs;
    expect(Buffer.from(await (await fetch(local(viewUrl))).arrayBuffer()).equals(png)).toBe(true);
    // An order's file is private: streamed by the API under its signed link, not redirected to the store.
    const download = await fetch(local(downloadUrl), { redirect: 'manual' });
    expect([download.status, download.headers.get('cache-control')]).toEqual([200, 'private, max-age=300']);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="stage plan.png"/);
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);
  });

  it('does not count what the store took but the target cannot be (wrong bytes, too large, empty), and lets the URL be used again', async () => {
    const added = await addTarget('fake.png');
    // s3rver, unlike AWS, does not enforce the signed type: the API checks the bytes itself.
    expect((await put(added.uploadUrl, Buffer.from('<script>alert(1)</script>'), 'image/png')).status).toBe(200);
    expect((await targetsOf()).map((x) => x.targetId)).not.toContain(added.targetId);

    expect((await put(added.uploadUrl, new Uint8Array(300_000).fill(0x89))).status).toBe(200);
    expect((await targetsOf()).map((x) => x.targetId)).not.toContain(added.targetId);

    expect((await put(added.uploadUrl, new Uint8Array(0))).status).toBe(200);
    expect((await targetsOf()).map((x) => x.targetId)).not.toContain(added.targetId);

    // The same URL, now with a real image, is taken.
    expect((await put(added.uploadUrl, gradientPng(8, 8, 3))).status).toBe(200);
    expect((await targetsOf()).map((x) => x.targetId)).toContain(added.targetId);
  });

  it('removes a refused file and its target in the sweep once the upload URL has expired, and keeps a good re-upload', async () => {
    const refused = await addTarget('refused.png');
    await put(refused.uploadUrl, Buffer.from('not an image'), 'image/png');
    const good = await addTarget('good-later.png');
    await put(good.uploadUrl, Buffer.from('not an image either'), 'image/png');
    await targetsOf();
    // The second one's uploader sent a real image before the URL expired: it is settled and kept.
    await put(good.uploadUrl, gradientPng(8, 8, 9));
    await targetsOf();
    await t.rows`UPDATE order_targets SET created_at = '2000-01-01T00:00:00.000Z'
      WHERE identifier IN (${refused.targetIdentifier}, ${good.targetIdentifier})`;
    expect((await t.api.sweep()).ran).toBe(true);
    const keys = await uploadsOf('ord-1005');
    expect(keys.some((k) => k?.includes(refused.targetIdentifier))).toBe(false);
    const [rows] = await t.rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM order_targets WHERE identifier = ${refused.targetIdentifier}`;
    expect(rows?.n).toBe(0);
    expect(keys.some((k) => k?.includes(good.targetIdentifier))).toBe(true);
    expect((await targetsOf()).map((x) => x.targetId)).toContain(good.targetId);
  });

  it('serves the checked copy with its checked type: the upload URL used again after acceptance changes nothing served', async () => {
    // A real GIF named .svg: accepted as the image/gif it was declared and checked to be.
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const added = await addTarget('x.svg', 'image/gif');
    expect((await put(added.uploadUrl, gif, 'image/gif')).status).toBe(200);
    const target = present(
      (await targetsOf()).find((x) => x.targetId === added.targetId),
      'the accepted target',
    );
    const view = () => fetch(local(target.targetURLs[0] ?? ''));
    const first = await view();
    expect(first.headers.get('content-type')).toBe('image/gif');
    expect(Buffer.from(await first.arrayBuffer()).equals(gif)).toBe(true);
    // The attack: an SVG with a script through the same presigned URL, then the order read again.
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';
    expect((await put(added.uploadUrl, Buffer.from(svg), 'image/gif')).status).toBe(200);
    await targetsOf();
    const after = await view();
    expect(after.headers.get('content-type')).toBe('image/gif');
    expect(after.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await after.arrayBuffer()).equals(gif)).toBe(true);
  });

  it("counts only the file at the target's own key: one sent to another key is not its file", async () => {
    const added = await addTarget('other.png');
    // s3rver checks a presigned URL's expiry but not its SigV4 signature (README): AWS and MinIO
    // refuse this PUT outright. Whatever a store lets through, the target takes only its own key.
    const elsewhere = new URL(added.uploadUrl);
    elsewhere.pathname = `${elsewhere.pathname}-elsewhere`;
    await put(elsewhere.toString(), gradientPng(8, 8, 4));
    expect((await targetsOf()).map((x) => x.targetId)).not.toContain(added.targetId);
  });

  it('completes an upload nobody reads the order after, in the periodic sweep', async () => {
    const added = await addTarget('swept.png');
    const before = (await mia.call('getNotifications')).body.notifications.length;
    expect((await put(added.uploadUrl, gradientPng(16, 16, 5))).status).toBe(200);
    await t.api.sweep();
    expect((await mia.call('getNotifications')).body.notifications.length).toBe(before + 1);
    expect((await targetsOf()).map((x) => x.targetId)).toContain(added.targetId);
  });

  it('removes the object with its target, also one that was sent but not yet counted', async () => {
    const counted = await addTarget('gone.png');
    await put(counted.uploadUrl, gradientPng(8, 8, 6));
    await targetsOf();
    const pending = await addTarget('gone-too.png');
    await put(pending.uploadUrl, gradientPng(8, 8, 7));
    const keys = await uploadsOf('ord-1005');
    expect(keys.some((k) => k?.includes(counted.targetIdentifier))).toBe(true);
    expect(keys.some((k) => k?.includes(pending.targetIdentifier))).toBe(true);

    for (const target of [counted, pending])
      expect((await clara.call('removeTarget', { targetId: target.targetId })).status).toBe(200);
    const after = await uploadsOf('ord-1005');
    expect(after.some((k) => k?.includes(counted.targetIdentifier))).toBe(false);
    expect(after.some((k) => k?.includes(pending.targetIdentifier))).toBe(false);
  });
});

describe('moving a folder of files into the object store', () => {
  it('copies each file under its relative path and keeps what the store has', async () => {
    const folder = join(storeDir, '..', `${BUCKET}-folder-${process.pid}`);
    mkdirSync(join(folder, 'events', 'moved'), { recursive: true });
    const moved = gradientPng(10, 10, 9);
    writeFileSync(join(folder, 'events', 'moved', 'photo.png'), moved);
    // Already in the bucket: kept, not overwritten by the folder's copy.
    writeFileSync(join(folder, 'avatars-mia.png'), 'not the seeded picture');
    mkdirSync(join(folder, 'avatars'));
    writeFileSync(join(folder, 'avatars', 'mia.png'), 'not the seeded picture');
    try {
      const result = await importFolder(t.api.services.files, folder);
      expect(result).toEqual({ copied: 2, kept: 1, refused: [] });
      const served = await fetch(`${t.url}/media/events/moved/photo.png`);
      expect(Buffer.from(await served.arrayBuffer()).equals(moved)).toBe(true);
      const avatar = new Uint8Array(await (await fetch(`${t.url}/media/avatars/mia.png`)).arrayBuffer());
      expect(avatar[1]).toBe(0x50); // still the seeded PNG
      expect(await importFolder(t.api.services.files, folder)).toEqual({ copied: 0, kept: 3, refused: [] });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
