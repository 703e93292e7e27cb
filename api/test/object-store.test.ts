import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startObjectStore } from '../objectstore/s3rver.mjs';
import { gradientPng } from '../src/db/png.js';
import { importFolder } from '../src/files/import.js';
import { UPLOAD_URL_SECONDS } from '../src/files/presigned.js';
import { startWorker } from '../src/media/worker.js';
import {
  FOREIGN_ORIGIN,
  freePort,
  present,
  processed,
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
  store = await startObjectStore({ dir: storeDir, port: await freePort(), bucket: BUCKET });
  t = await startTestApi({ ...store.env, UPLOAD_MAX_BYTES: String(200_000) });
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
/** What a browser does with the upload the API handed out (shared sendUpload): the presigned POST's fields, then the file. */
const send = (
  upload: { uploadUrl: string; uploadFields?: Record<string, string> },
  body: Uint8Array,
  contentType = 'image/png',
  fields: Record<string, string> = {},
) => {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...upload.uploadFields, ...fields })) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(body)], { type: contentType }));
  return fetch(upload.uploadUrl, { method: 'POST', body: form });
};
const targetsOf = async (orderId = 'ord-1005') => (await clara.call('getEventOrderDetails', { orderId })).body.targets;
const idsOf = async (orderId = 'ord-1005') => (await targetsOf(orderId)).map((x) => x.targetId);

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
  it('hands out a presigned POST whose signed policy fixes the key, the type and the size, counts the file once, and tells the other party once it is ready', async () => {
    const png = gradientPng(64, 48, 11);
    const added = await addTarget('stage plan.png');
    expect(added.uploadUrl).toBe(`${store.env.FILES_S3_PUBLIC_ENDPOINT}/${BUCKET}`);
    const fields = present(added.uploadFields, 'the presigned fields');
    const policy = JSON.parse(Buffer.from(fields.Policy ?? '', 'base64').toString()) as {
      expiration: string;
      conditions: unknown[];
    };
    // Valid for an image's 15 minutes (the clock read around the call, at second precision).
    expect(Date.parse(policy.expiration) - Date.now()).toBeGreaterThan(UPLOAD_URL_SECONDS * 1000 - 60_000);
    expect(Date.parse(policy.expiration) - Date.now()).toBeLessThanOrEqual(UPLOAD_URL_SECONDS * 1000);
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['eq', '$key', `quarantine/ord-1005/${added.targetIdentifier}`],
        ['eq', '$Content-Type', 'image/png'],
        ['content-length-range', 1, 200_000],
      ]),
    );
    expect(fields).toMatchObject({ key: `quarantine/ord-1005/${added.targetIdentifier}`, 'Content-Type': 'image/png' });
    expect(fields['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);

    // The browser's preflight: the bucket's CORS rules (set by the API) allow the shell's origin only.
    const preflight = (origin: string) =>
      fetch(added.uploadUrl, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    const allowed = await preflight(SHELL_ORIGIN);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    expect((await preflight(FOREIGN_ORIGIN)).status).toBe(403);

    const before = (await mia.call('getNotifications')).body.notifications.length;
    expect((await send(added, png)).status).toBe(204);
    // Two readers at once (two instances, say): the target is counted once, and processed.
    const [a, b] = await Promise.all([idsOf(), idsOf()]);
    expect(a).toContain(added.targetId);
    expect(b).toContain(added.targetId);
    const target = await processed(clara, 'ord-1005', added.targetIdentifier);
    expect(target.state).toBe('ready');
    const notifications = (await mia.call('getNotifications')).body.notifications;
    expect(notifications.length).toBe(before + 1);
    expect(present(notifications[0], 'a notification').content).toMatch(/stage plan\.png/);

    const [viewUrl = '', downloadUrl = ''] = target.targetURLs;
    expect((await fetch(local(viewUrl))).headers.get('content-type')).toBe('image/jpeg');
    // An order's file is private: streamed by the API under its signed link, not redirected to the store.
    const download = await fetch(local(downloadUrl), { redirect: 'manual' });
    expect([download.status, download.headers.get('cache-control')]).toEqual([200, 'private, max-age=300']);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="stage plan.png"/);
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);
  });

  it('does not count what the store took but the target cannot be (wrong bytes, too large, empty), and lets the upload be sent again', async () => {
    const added = await addTarget('fake.png');
    // The store holds the policy's key, type and largest size; what the bytes are, the API checks.
    expect((await send(added, Buffer.from('<script>alert(1)</script>'))).status).toBe(204);
    expect(await idsOf()).not.toContain(added.targetId);

    const tooLarge = await send(added, new Uint8Array(300_000).fill(0x89));
    expect([tooLarge.status, await tooLarge.text()]).toEqual([400, expect.stringContaining('EntityTooLarge')]);
    expect(await idsOf()).not.toContain(added.targetId);

    expect((await send(added, new Uint8Array(0))).status).toBe(204);
    expect(await idsOf()).not.toContain(added.targetId);

    // The same upload, now with a real image, is taken.
    expect((await send(added, gradientPng(8, 8, 3))).status).toBe(204);
    expect(await idsOf()).toContain(added.targetId);
    expect((await processed(clara, 'ord-1005', added.targetIdentifier)).state).toBe('ready');
  });

  it('removes a refused file and its target in the sweep once the upload URL has expired, and keeps a good re-upload', async () => {
    const refused = await addTarget('refused.png');
    await send(refused, Buffer.from('not an image'));
    const good = await addTarget('good-later.png');
    await send(good, Buffer.from('not an image either'));
    await targetsOf();
    // The second one's uploader sent a real image before the URL expired: it is settled and kept.
    await send(good, gradientPng(8, 8, 9));
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
    expect(await idsOf()).toContain(good.targetId);
  });

  it('serves only what the media job made: the upload sent again after acceptance changes nothing served', async () => {
    // A real GIF named .svg: decoded as the image/gif it was declared, remade as pictures.
    const gif = Buffer.from(
      'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\x00\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
      'latin1',
    );
    const added = await addTarget('x.svg', 'image/gif');
    expect((await send(added, gif, 'image/gif')).status).toBe(204);
    await targetsOf();
    const target = await processed(clara, 'ord-1005', added.targetIdentifier);
    expect([target.state, target.failureReason]).toEqual(['ready', null]);
    const view = () => fetch(local(target.targetURLs[0] ?? ''));
    const first = await view();
    expect(first.headers.get('content-type')).toBe('image/jpeg');
    const served = Buffer.from(await first.arrayBuffer());
    // The attack: an SVG with a script through the same presigned POST, then the order read again.
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>';
    expect((await send(added, Buffer.from(svg), 'image/gif')).status).toBe(204);
    await targetsOf();
    await t.api.sweep();
    const after = await view();
    expect([after.headers.get('content-type'), after.headers.get('x-content-type-options')]).toEqual([
      'image/jpeg',
      'nosniff',
    ]);
    expect(Buffer.from(await after.arrayBuffer()).equals(served)).toBe(true);
  });

  it('removes in the sweep a quarantine object written again after its upload was accepted, and keeps the accepted file', async () => {
    const added = await addTarget('again.png');
    expect((await send(added, gradientPng(8, 8, 6))).status).toBe(204);
    await targetsOf();
    const target = await processed(clara, 'ord-1005', added.targetIdentifier);
    expect(target.state).toBe('ready');
    const quarantined = `quarantine/ord-1005/${added.targetIdentifier}`;
    expect(await inBucket(quarantined)).toBeUndefined();
    // The presigned POST still works: the same key written again, after acceptance.
    expect((await send(added, gradientPng(8, 8, 7))).status).toBe(204);
    expect(await inBucket(quarantined)).toBeGreaterThan(0);
    // A target still waiting within its upload window keeps what it was sent.
    const waiting = await addTarget('waiting.png');
    await send(waiting, Buffer.from('not an image'));
    expect((await t.api.sweep()).ran).toBe(true);
    expect(await inBucket(quarantined)).toBeUndefined();
    expect(await inBucket(`quarantine/ord-1005/${waiting.targetIdentifier}`)).toBeGreaterThan(0);
    const accepted = await processed(clara, 'ord-1005', added.targetIdentifier);
    expect(accepted.state).toBe('ready');
    expect((await fetch(local(accepted.targetURLs[0] ?? ''))).status).toBe(200);
  });

  it("counts only the file at the target's own key: one sent to another key is not its file", async () => {
    const added = await addTarget('other.png');
    const key = present(added.uploadFields?.key, 'the upload key');
    // The store refuses another key outright, as AWS and MinIO do.
    const elsewhere = await send(added, gradientPng(8, 8, 4), 'image/png', { key: `${key}-elsewhere` });
    expect(elsewhere.status).toBe(403);
    expect(await inBucket(`${key}-elsewhere`)).toBeUndefined();
    // Whatever a store lets through (here, a write with the API's own key), the target takes only its own key.
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${key}-elsewhere`, Body: gradientPng(8, 8, 4) }));
    expect(await idsOf()).not.toContain(added.targetId);
  });

  it('completes an upload nobody reads the order after, in the periodic sweep', async () => {
    const added = await addTarget('swept.png');
    const before = (await mia.call('getNotifications')).body.notifications.length;
    expect((await send(added, gradientPng(16, 16, 5))).status).toBe(204);
    await t.api.sweep();
    expect((await processed(clara, 'ord-1005', added.targetIdentifier)).state).toBe('ready');
    expect((await mia.call('getNotifications')).body.notifications.length).toBe(before + 1);
  });

  it('removes every file of a target with it: the original, what was made of it, and one sent but not yet counted', async () => {
    const counted = await addTarget('gone.png');
    await send(counted, gradientPng(8, 8, 6));
    await targetsOf();
    await processed(clara, 'ord-1005', counted.targetIdentifier);
    const pending = await addTarget('gone-too.png');
    await send(pending, gradientPng(8, 8, 7));
    const keys = await uploadsOf('ord-1005');
    // The original and its three formats at 8 px.
    expect(keys.filter((k) => k?.includes(counted.targetIdentifier))).toHaveLength(4);
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

describe("the store's door: every request signed by a key, each key held to its grants", () => {
  /** A client of the store with `keyEnv`'s key (the API's or the media workers'), or another secret. */
  const clientWith = (keyEnv: Record<string, string>, config: Partial<S3ClientConfig> = {}) =>
    new S3Client({
      endpoint: store.url,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: {
        accessKeyId: keyEnv.FILES_S3_ACCESS_KEY_ID ?? '',
        secretAccessKey: keyEnv.FILES_S3_SECRET_ACCESS_KEY ?? '',
      },
      ...config,
    });
  /** The status the store answered `command` with (200 when it did it). */
  const statusOf = async (
    client: S3Client,
    command: HeadObjectCommand | GetObjectCommand | PutObjectCommand | ListObjectsV2Command,
  ) => {
    try {
      // Each command's own send: the client's overloads take one command type at a time.
      if (command instanceof HeadObjectCommand) await client.send(command);
      else if (command instanceof GetObjectCommand) await client.send(command);
      else if (command instanceof PutObjectCommand) await client.send(command);
      else await client.send(command);
      return 200;
    } catch (error) {
      return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
    }
  };
  const SEEDED = 'events/summer-jazz-night-2026/photo-001.png';

  it('refuses an unsigned request, a wrong secret, another bucket, and a signature of another time', async () => {
    expect((await fetch(`${store.url}/${BUCKET}/${SEEDED}`)).status).toBe(403);
    expect((await fetch(`${store.url}/${BUCKET}?list-type=2`)).status).toBe(403);
    const forged = clientWith({ ...store.env, FILES_S3_SECRET_ACCESS_KEY: 'not-the-secret' });
    expect(await statusOf(forged, new HeadObjectCommand({ Bucket: BUCKET, Key: SEEDED }))).toBe(403);
    const unknown = clientWith({ FILES_S3_ACCESS_KEY_ID: 'S3RVER', FILES_S3_SECRET_ACCESS_KEY: 'S3RVER' });
    expect(await statusOf(unknown, new HeadObjectCommand({ Bucket: BUCKET, Key: SEEDED }))).toBe(403);
    const api = clientWith(store.env);
    expect(await statusOf(api, new HeadObjectCommand({ Bucket: BUCKET, Key: SEEDED }))).toBe(200);
    expect(await statusOf(api, new ListObjectsV2Command({ Bucket: 'another-bucket' }))).toBe(403);
    const late = clientWith(store.env, { systemClockOffset: -20 * 60 * 1000 });
    expect(await statusOf(late, new HeadObjectCommand({ Bucket: BUCKET, Key: SEEDED }))).toBe(403);
    for (const client of [forged, unknown, api, late]) client.destroy();
  });

  it('holds a presigned link to its object, its method and its time', async () => {
    const api = clientWith(store.env);
    const link = await getSignedUrl(api, new GetObjectCommand({ Bucket: BUCKET, Key: SEEDED }), { expiresIn: 60 });
    expect((await fetch(link)).status).toBe(200);
    const other = link.replace('photo-001.png', 'photo-002.png');
    expect((await fetch(other)).status).toBe(403);
    expect((await fetch(link, { method: 'DELETE' })).status).toBe(403);
    expect((await fetch(link.replace('X-Amz-Expires=60', 'X-Amz-Expires=6000'))).status).toBe(403);
    const old = await getSignedUrl(api, new GetObjectCommand({ Bucket: BUCKET, Key: SEEDED }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 120_000),
    });
    expect((await fetch(old)).status).toBe(403);
    expect(await inBucket(SEEDED)).toBeGreaterThan(0);
    api.destroy();
  });

  it("is enough for a media worker on the workers' key alone: an upload is made into pictures", async () => {
    const serving = await startTestApi({ ...store.env, MEDIA_WORKER: 'off' });
    const { filesS3 } = serving.config;
    if (!filesS3) throw new Error('the API has no object store');
    const worker = await startWorker({
      ...serving.config,
      mediaWorker: 'off',
      filesS3: {
        ...filesS3,
        accessKeyId: store.workerEnv.FILES_S3_ACCESS_KEY_ID ?? '',
        secretAccessKey: store.workerEnv.FILES_S3_SECRET_ACCESS_KEY ?? '',
      },
    });
    try {
      const owner = await serving.as('clara');
      const added = await owner.call('addTarget', {
        orderId: 'ord-1005',
        description: '',
        fileName: 'worker.png',
        contentType: 'image/png',
      });
      expect((await send(added.body, gradientPng(32, 32, 7))).status).toBe(204);
      await owner.call('getEventOrderDetails', { orderId: 'ord-1005' });
      const target = await processed(owner, 'ord-1005', added.body.targetIdentifier);
      expect([target.state, target.failureReason]).toEqual(['ready', null]);
      expect((await fetch(target.targetURLs[0]?.replace(serving.config.filesOrigin, serving.url) ?? '')).status).toBe(
        200,
      );
    } finally {
      await worker.stop();
      await serving.close();
    }
  }, 60_000);

  it("lets the media workers' key read the sources and write what they make, and nothing else", async () => {
    const worker = clientWith(store.workerEnv);
    const api = clientWith(store.env);
    await api.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'quarantine/door/a.png', Body: gradientPng(4, 4, 1) }));
    expect(await statusOf(worker, new GetObjectCommand({ Bucket: BUCKET, Key: 'quarantine/door/a.png' }))).toBe(200);
    expect(
      await statusOf(worker, new PutObjectCommand({ Bucket: BUCKET, Key: 'media/door/640.webp', Body: 'made' })),
    ).toBe(200);
    // Not a source to write, not a listing, not a file of the demo's events, not the bucket's rules.
    for (const command of [
      new PutObjectCommand({ Bucket: BUCKET, Key: 'quarantine/door/a.png', Body: 'replaced' }),
      new PutObjectCommand({ Bucket: BUCKET, Key: 'uploads/door/x.png', Body: 'x' }),
      new ListObjectsV2Command({ Bucket: BUCKET }),
      new GetObjectCommand({ Bucket: BUCKET, Key: SEEDED }),
    ]) {
      expect(await statusOf(worker, command), command.constructor.name).toBe(403);
    }
    // A copy reads its source: a source the key may not read is refused.
    const copy = await fetch(`${store.url}/${BUCKET}/media/door/copied.png`, { method: 'PUT' });
    expect(copy.status).toBe(403);
    worker.destroy();
    api.destroy();
  });
});
