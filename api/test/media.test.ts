import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Target } from '@marketplace/shared/contract';
import { gradientPng } from '../src/db/png.js';
import { orderFileLinks } from '../src/files/orderFileLinks.js';
import { pngDeclaring, syntheticClip } from '../src/media/clips.js';
import { mediaJobs, PROCESSING_FAILED, resendStalled } from '../src/media/jobs.js';
import type { MediaJob } from '../src/media/mediaJob.js';
import { DEFAULT_QUEUE_OPTIONS } from '../src/media/queueOptions.js';
import { tableQueue } from '../src/media/tableQueue.js';
import { VIDEO_REFUSALS } from '../src/media/videoRefusals.js';
import { startWorker } from '../src/media/worker.js';
import {
  ENGINE,
  present,
  processed,
  RUM_TOKEN_KEY,
  ADMIN_TOKEN,
  startTestApi,
  type TestApi,
  type TestClient,
  until,
} from './harness.js';

// The media pipeline through the API as deployed: an upload goes to quarantine, a media job (in
// the API's process, or a worker of its own) decodes and remakes it, and only what it made is
// served. On SQLite the jobs are in the API's table queue; on PostgreSQL in pg-boss.

const ORDER = 'ord-1005';
let t: TestApi;
let clara: TestClient;

beforeAll(async () => {
  t = await startTestApi({ UPLOAD_MAX_BYTES: String(30_000_000) });
  clara = await t.as('clara');
});
afterAll(() => t.close());

/** What the order page does: add a target, then PUT the bytes to its upload URL. */
async function upload(api: TestApi, client: TestClient, fileName: string, contentType: string, bytes: Uint8Array) {
  const added = await client.call('addTarget', { orderId: ORDER, description: '', fileName, contentType });
  expect(added.status).toBe(200);
  const sent = await fetch(added.body.uploadUrl.replace(api.config.filesOrigin, api.url), {
    method: 'PUT',
    body: new Blob([new Uint8Array(bytes)]),
    headers: { 'content-type': contentType },
  });
  return { ...added.body, status: sent.status, error: ((await sent.json()) as { error?: string }).error };
}

/** Every stored file of a target, original and derivatives (the local store: a folder). */
const storedFiles = (api: TestApi, targetIdentifier: string): string[] => {
  const folder = join(api.config.mediaDir, 'orders', ORDER, targetIdentifier);
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
};
const local = (api: TestApi, url: string) => url.replace(api.config.filesOrigin, api.url);
const notificationsOf = async (client: TestClient) => (await client.call('getNotifications')).body.notifications;

/** A photo as a camera writes it: JPEG, turned by its EXIF orientation (6: 90 degrees), with the place it was taken. */
const cameraJpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 140 } } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#e0a030"/></svg>`,
        ),
      },
    ])
    .jpeg({ quality: 92 })
    .toBuffer()
    .then((plain) =>
      sharp(plain)
        .withMetadata({ orientation: 6 })
        .withExif({
          IFD0: { Make: 'TestCam', Model: 'Field 24' },
          IFD3: {
            GPSLatitudeRef: 'N',
            GPSLatitude: '48/1 51/1 2964/100',
            GPSLongitudeRef: 'E',
            GPSLongitude: '2/1 17/1 4020/100',
          },
        })
        .jpeg({ quality: 92 })
        .toBuffer(),
    );

describe('hostile files', () => {
  it('refuses at once what is not the declared type by its first bytes, empty, or over the limit: nothing is listed or kept', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
    );
    const cases: [string, string, Uint8Array, number, RegExp][] = [
      ['x.svg', 'image/png', svg, 400, /not a image\/png image/],
      ['x.gif', 'image/gif', svg, 400, /not a image\/gif image/],
      ['x.png', 'image/png', svg, 400, /not a image\/png image/],
      ['page.png', 'image/png', Buffer.from('<!doctype html><script>alert(1)</script>'), 400, /not a image\/png/],
      ['empty.png', 'image/png', new Uint8Array(0), 400, /empty/],
      ['huge.png', 'image/png', Buffer.concat([gradientPng(8, 8, 1), Buffer.alloc(30_000_001)]), 413, /larger than/],
    ];
    for (const [name, type, bytes, status, reason] of cases) {
      const sent = await upload(t, clara, name, type, bytes);
      expect([sent.status, sent.error], name).toEqual([status, expect.stringMatching(reason)]);
      expect(storedFiles(t, sent.targetIdentifier), name).toEqual([]);
    }
    const listed = (await clara.call('getEventOrderDetails', { orderId: ORDER })).body.targets.map((x) => x.target);
    expect(listed.filter((name) => cases.some(([file]) => file === name))).toEqual([]);
  });

  it("refuses what passes the first bytes but does not decode as its type, with the reason on the order page; nothing of it is served; the order's other files stay", async () => {
    const good = await upload(t, clara, 'good.png', 'image/png', gradientPng(200, 100, 3));
    const goodTarget = await processed(clara, ORDER, good.targetIdentifier);
    const truncated = (await cameraJpeg(800, 600)).subarray(0, 4000);
    const randomPng = Buffer.concat([
      gradientPng(4, 4, 1).subarray(0, 16),
      Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)),
    ]);
    const cases: [string, string, Buffer, RegExp][] = [
      // A GIF/JS polyglot: 'GIF89a' opens it, and it runs as a script where one would load it.
      [
        'polyglot.gif',
        'image/gif',
        Buffer.from('GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=1;alert(document.domain);//;', 'latin1'),
        /not a GIF image|could not be read/,
      ],
      ['bomb.png', 'image/png', pngDeclaring(50_000, 50_000), /50000 x 50000 pixels; at most 100 million/],
      ['cut.jpg', 'image/jpeg', truncated, /^This JPEG image could not be read$/],
      ['noise.png', 'image/png', randomPng, /not a PNG image|could not be read/],
    ];
    for (const [name, type, bytes, reason] of cases) {
      const sent = await upload(t, clara, name, type, bytes);
      expect(sent.status, name).toBe(200);
      const target: Target = await processed(clara, ORDER, sent.targetIdentifier);
      expect([target.state, target.failureReason, target.targetURLs, target.image], name).toEqual([
        'failed',
        expect.stringMatching(reason),
        [],
        null,
      ]);
      // Neither the file nor anything made of it is kept.
      expect(storedFiles(t, sent.targetIdentifier), name).toEqual([]);
    }
    // The uploader is told of each, with its reason.
    const told = (await notificationsOf(clara)).slice(0, cases.length).map((n) => n.content);
    expect(told).toHaveLength(cases.length);
    for (const [name] of cases)
      expect(told.some((content) => content.includes(`"${name}"`) && content.includes('was refused'))).toBe(true);
    // The good file is untouched, and still served.
    const still = await processed(clara, ORDER, good.targetIdentifier);
    expect(still.state).toBe('ready');
    expect((await fetch(local(t, still.targetURLs[0] ?? ''))).status).toBe(200);
    expect(goodTarget.image?.sources).toEqual(still.image?.sources.map((s) => ({ ...s, srcset: expect.any(String) })));
  });
});

describe('what is made of a photo', () => {
  it("turns it upright, drops its metadata (the GPS position) from every picture made, and keeps the original for the order's parties only", async () => {
    const photo = await cameraJpeg(1600, 1000);
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const sent = await upload(t, clara, 'camera.jpg', 'image/jpeg', photo);
    const target = await processed(clara, ORDER, sent.targetIdentifier);
    const image = present(target.image, 'the picture');
    // Orientation 6: the 1600 x 1000 frame is a 1000 x 1600 picture, made at 320, 640 and its own 1000 px.
    expect([image.width, image.height]).toEqual([1000, 1600]);
    expect(image.sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp', 'image/jpeg']);
    for (const source of image.sources) {
      const entries = source.srcset.split(', ').map((entry) => entry.split(' '));
      expect(entries.map(([, w]) => w)).toEqual(['320w', '640w', '1000w']);
      for (const [url = '', w = ''] of entries) {
        const made = await fetch(local(t, url));
        expect([made.status, made.headers.get('content-type'), made.headers.get('cache-control')]).toEqual([
          200,
          source.type,
          'private, max-age=300',
        ]);
        expect(made.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
        const meta = await sharp(Buffer.from(await made.arrayBuffer())).metadata();
        // No EXIF block at all (so no GPS, no camera), and no orientation left to apply.
        expect([meta.width, meta.exif, meta.orientation]).toEqual([Number.parseInt(w, 10), undefined, undefined]);
      }
    }
    // The original is what the uploader sent, GPS and all: an attachment, for the parties only.
    const original = await fetch(local(t, target.targetURLs[1] ?? ''));
    expect(original.headers.get('content-disposition')).toMatch(/^attachment/);
    expect((await sharp(Buffer.from(await original.arrayBuffer())).metadata()).exif).toBeDefined();
    // Another user cannot read the order, so gets no links; a link for another file of the target is refused.
    const nora = await t.as('nora');
    expect((await nora.call('getEventOrderDetails', { orderId: ORDER })).status).toBe(403);
    const forged = new URL(local(t, image.src));
    forged.searchParams.set('f', '320.avif');
    expect((await fetch(forged)).status).toBe(403);
  });
  it('shows a picture 1280 px wide or more once its WebP and JPEG are made, and adds its AVIF after, never naming a file not written', async () => {
    const sent = await upload(t, clara, 'wide.png', 'image/png', gradientPng(1500, 900, 11));
    const types = (target: Target) => target.image?.sources.map((s) => s.type);
    const first = await processed(clara, ORDER, sent.targetIdentifier);
    expect(first.state).toBe('ready');
    // Read as it was first shown, or once its AVIF came: every file either names is there.
    expect([
      ['image/webp', 'image/jpeg'],
      ['image/avif', 'image/webp', 'image/jpeg'],
    ]).toContainEqual(types(first));
    const whole = await until(
      async () => {
        const { body } = await clara.call('getEventOrderDetails', { orderId: ORDER });
        const target = body.targets.find((x) => x.targetIdentifier === sent.targetIdentifier);
        return target && types(target)?.length === 3 ? target : undefined;
      },
      'the AVIF',
      30_000,
    );
    for (const shown of [first, whole])
      for (const source of present(shown.image, 'the picture').sources) {
        const entries = source.srcset.split(', ').map((entry) => entry.split(' '));
        expect(entries.map(([, w]) => w)).toEqual(['320w', '640w', '1280w', '1500w']);
        for (const [url = ''] of entries) {
          const made = await fetch(local(t, url));
          expect([made.status, made.headers.get('content-type')]).toEqual([200, source.type]);
          await made.arrayBuffer();
        }
      }
    expect(storedFiles(t, sent.targetIdentifier)).toHaveLength(1 + 12);
  });
});

describe('what is made of a video', () => {
  it('makes a poster and an HLS ladder of 2 s fMP4 segments, 360p and 720p, none above the source, served by signed links only', async () => {
    const sent = await upload(
      t,
      clara,
      'clip.mp4',
      'video/mp4',
      syntheticClip({ width: 1280, height: 720, seconds: 5 }),
    );
    expect(sent.status).toBe(200);
    const target = await processed(clara, ORDER, sent.targetIdentifier, 120_000);
    expect([target.state, target.failureReason]).toEqual(['ready', null]);
    expect(present(target.image, 'the poster')).toMatchObject({ width: 1280, height: 720 });
    const video = present(target.video, 'the video');
    expect(video.durationSeconds).toBeCloseTo(5, 0);
    const master = await fetch(local(t, video.hls));
    expect([master.status, master.headers.get('content-type'), master.headers.get('x-content-type-options')]).toEqual([
      200,
      'application/vnd.apple.mpegurl',
      'nosniff',
    ]);
    const masterText = await master.text();
    expect(masterText).toMatch(/RESOLUTION=640x360/);
    expect(masterText).toMatch(/RESOLUTION=1280x720/);
    // Every URI in it is a signed link of its own (a relative one would lose the signature).
    const renditions = masterText.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(renditions).toHaveLength(2);
    for (const rendition of renditions) {
      expect(new URL(rendition).searchParams.get('sig')).toBeTruthy();
      const playlist = await (await fetch(local(t, rendition))).text();
      expect(playlist).toMatch(/#EXT-X-TARGETDURATION:2/);
      const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(playlist)?.[1] ?? '';
      const segments = playlist.split('\n').filter((line) => line && !line.startsWith('#'));
      expect(segments.length).toBeGreaterThanOrEqual(3);
      for (const uri of [init, ...segments]) {
        const file = await fetch(local(t, uri));
        expect([file.status, file.headers.get('content-type')]).toEqual([200, 'video/mp4']);
      }
      // The link names its file: another file of the ladder under the same signature is refused.
      const forged = new URL(local(t, segments[0] ?? ''));
      forged.searchParams.set('f', 'master.m3u8');
      expect((await fetch(forged)).status).toBe(403);
    }
    // A playlist's links last no longer than its own: a master link about to expire (signed as
    // the API signs, 60 s from now) hands out renditions and segments that expire with it.
    const soon = Math.floor(Date.now() / 1000) + 60;
    const query = orderFileLinks(t.config.fileLinkKey).grant(
      { targetIdentifier: sent.targetIdentifier, file: 'master.m3u8', download: false },
      Date.now(),
      soon,
    );
    const shortMaster = await fetch(`${t.url}/files/order/${sent.targetIdentifier}?${query.toString()}`);
    expect(shortMaster.status).toBe(200);
    const nested = (await shortMaster.text()).split('\n').filter((line) => line.startsWith('http'));
    expect(nested).toHaveLength(2);
    for (const link of nested) expect(Number(new URL(link).searchParams.get('exp'))).toBe(soon);
  }, 180_000);

  it('makes a small video at its own height only, and refuses random bytes behind an MP4 box or another container', async () => {
    const small = await upload(
      t,
      clara,
      'small.mp4',
      'video/mp4',
      syntheticClip({ width: 320, height: 240, seconds: 3 }),
    );
    const ready = await processed(clara, ORDER, small.targetIdentifier, 120_000);
    const master = await (await fetch(local(t, present(ready.video, 'the video').hls))).text();
    expect(master.match(/RESOLUTION=\d+x\d+/g)).toEqual(['RESOLUTION=320x240']);

    const noise = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(20_000, 0x5a)]);
    const refused = await upload(t, clara, 'noise.mp4', 'video/mp4', noise);
    expect(refused.status).toBe(200);
    const failed = await processed(clara, ORDER, refused.targetIdentifier, 60_000);
    expect([failed.state, failed.failureReason, failed.video]).toEqual(['failed', VIDEO_REFUSALS.unreadable, null]);
    expect(storedFiles(t, refused.targetIdentifier)).toEqual([]);
    // A WebM declared as MP4 is refused at once by its first bytes.
    const webm = await upload(t, clara, 'x.mp4', 'video/mp4', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4]));
    expect([webm.status, webm.error]).toEqual([400, 'The file is not a video/mp4 video']);
  }, 180_000);
});

/** Whether a picture's EXIF (as sharp reads it: "Exif\0\0" and a TIFF header) has a GPS position (IFD0's tag 0x8825). */
function hasGps(exif: Buffer | undefined): boolean {
  if (!exif || exif.length < 16) return false;
  const tiff = exif.subarray(6);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const ifd0 = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  for (let i = 0; i < u16(ifd0); i++) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}

describe('public media', () => {
  it("puts the demo's camera files through the pipeline at start: pages get pictures of every width and format without the GPS position (of a photo for sale, its watermarked preview), and videos their HLS ladder, at immutable URLs; the sources are never served", async () => {
    const api = await startTestApi({ SEED_DEMO_MEDIA: '1' });
    try {
      const visitor = api.client();
      const event = () => visitor.call('getEvent', { eventIdentifier: 'summer-jazz-night-2026' });
      // Right after start the items wait for the pipeline: nothing of a source is served meanwhile.
      const waiting = (await event()).body.contentItems.filter((item) => item.processing);
      expect(waiting.map((item) => [item.contentUrl, item.thumbnailUrl, item.image, item.filePath])).toEqual(
        waiting.map(() => ['', null, null, '']),
      );

      // A picture waiting for the pipeline is no picture (the generic one shows), never its source.
      const picture = async () =>
        (await visitor.call('getProfile', { profileName: 'mia' })).body.profile.profilePicture;
      // None yet (the generic picture), or the one the pipeline made.
      expect((await picture()) ?? '').toMatch(/^$|\/media\/media\/avatar\/mia\/[^/]+\/192\.jpg$/);

      const body = await vi.waitFor(
        async () => {
          const made = (await event()).body;
          if (made.contentItems.some((item) => item.processing) || !made.event.cover || !(await picture()))
            throw new Error('the demo media were not made in 300 s');
          return made;
        },
        { timeout: 300_000, interval: 500 },
      );
      const photo = present(
        body.contentItems.find((item) => item.name === 'Crowd at dusk'),
        'the 16:9 photo',
      );
      const image = present(photo.image, 'its picture');
      // The source is a camera's 4000 x 2250 frame, for sale: a visitor gets its preview, none above 1280.
      expect([photo.canAddToCart, image.width, image.height, photo.width, photo.height]).toEqual([
        true,
        4000,
        2250,
        4000,
        2250,
      ]);
      expect(image.sources.map((s) => s.srcset.split(', ').map((e) => e.split(' ')[1]))).toEqual([
        ['320w', '640w', '1280w'],
        ['320w', '640w', '1280w'],
        ['320w', '640w', '1280w'],
      ]);
      // Its owner gets the widths pages use, none above 1920, unmarked, by signed links (test/previews.test.ts has the rest).
      const mia = await api.as('mia');
      const own = (await mia.call('getEvent', { eventIdentifier: 'summer-jazz-night-2026' })).body.contentItems.find(
        (item) => item.name === 'Crowd at dusk',
      );
      expect(own?.image?.sources.map((s) => s.srcset.split(', ').map((e) => e.split(' ')[1]))).toEqual([
        ['320w', '640w', '1280w', '1920w'],
        ['320w', '640w', '1280w', '1920w'],
        ['320w', '640w', '1280w', '1920w'],
      ]);
      expect(own?.image?.src).toMatch(/\/files\/content\/ci-photo-003\?f=1920\.jpg&/);
      expect((await fetch(local(api, own?.image?.src ?? ''))).status).toBe(200);
      // A photo not for sale is everyone's at every width, at public URLs.
      const notForSale = present(
        body.contentItems.find((item) => !item.canAddToCart && item.contentType === 'image/jpeg'),
        'a photo not for sale',
      );
      expect(notForSale.image?.src).toMatch(/\/media\/media\/content\/ci-photo-005\/[^/]+\/1920\.jpg$/);
      const made = await fetch(local(api, image.src));
      expect([made.status, made.headers.get('content-type'), made.headers.get('cache-control')]).toEqual([
        200,
        'image/jpeg',
        'public, max-age=31536000, immutable',
      ]);
      expect(made.headers.get('x-content-type-options')).toBe('nosniff');
      // The camera wrote where it was; what is served says nothing of it.
      const source = readFileSync(join(api.config.mediaDir, 'sources/events/summer-jazz-night-2026/photo-003.jpg'));
      expect(hasGps((await sharp(source).metadata()).exif)).toBe(true);
      const madeMeta = await sharp(Buffer.from(await made.arrayBuffer())).metadata();
      expect([madeMeta.exif, madeMeta.width, madeMeta.height]).toEqual([undefined, 1280, 720]);
      expect([photo.contentUrl, photo.filePath.endsWith('/1280.jpg')]).toEqual([image.src, true]);
      const avif = await fetch(local(api, (image.sources[0]?.srcset ?? '').split(' ')[0] ?? ''));
      expect(avif.headers.get('content-type')).toBe('image/avif');
      // The sources are the uploads' own files: neither /media nor /download serves them.
      for (const path of [
        '/media/sources/events/summer-jazz-night-2026/photo-003.jpg',
        `/download?filePath=${encodeURIComponent('sources/events/summer-jazz-night-2026/photo-003.jpg')}`,
      ])
        expect((await fetch(`${api.url}${path}`)).status, path).toBe(404);

      // The video, for sale: a visitor gets its poster's preview and nothing to play; its owner
      // plays its ladder by signed links, the master playlist naming both renditions.
      const video = present(
        body.contentItems.find((item) => item.contentType === 'video/mp4'),
        'the video',
      );
      expect([video.width, video.height, video.image?.width, video.filePath, video.locked, video.contentUrl]).toEqual([
        1280,
        720,
        1280,
        '',
        true,
        '',
      ]);
      const ownVideo = (
        await mia.call('getEvent', { eventIdentifier: 'summer-jazz-night-2026' })
      ).body.contentItems.find((item) => item.contentIdentifier === video.contentIdentifier);
      expect(ownVideo?.contentUrl).toMatch(/\/files\/content\/ci-video-\d+\?f=master\.m3u8&/);
      const master = await fetch(local(api, ownVideo?.contentUrl ?? ''));
      expect([master.status, master.headers.get('content-type'), master.headers.get('cache-control')]).toEqual([
        200,
        'application/vnd.apple.mpegurl',
        'private, max-age=300',
      ]);
      const renditions = (await master.text()).split('\n').filter((line) => line && !line.startsWith('#'));
      expect(renditions).toHaveLength(2);
      for (const rendition of renditions) expect((await fetch(local(api, rendition))).status, rendition).toBe(200);
      expect(present(video.thumbnailUrl, 'the poster')).toMatch(/\/640\.jpg$/);

      expect(present(body.event.cover, 'the cover').sources).toHaveLength(3);
      // The events list carries the covers too (its coverUrl the largest JPEG made), never the source.
      const events = (await visitor.call('getEvents', { limit: 20 })).body.events;
      const listed = events.find((e) => e.eventIdentifier === 'summer-jazz-night-2026');
      expect([listed?.cover?.src, listed?.coverUrl]).toEqual([body.event.cover?.src, body.event.cover?.src]);

      // A profile picture: a square JPEG cut from the phone's 4:5 photo, at an immutable URL, without the GPS position.
      const avatarUrl = present(await picture(), "mia's picture");
      expect(avatarUrl).toMatch(/\/media\/media\/avatar\/mia\/[^/]+\/192\.jpg$/);
      const avatar = await fetch(local(api, avatarUrl));
      expect([avatar.status, avatar.headers.get('content-type'), avatar.headers.get('cache-control')]).toEqual([
        200,
        'image/jpeg',
        'public, max-age=31536000, immutable',
      ]);
      expect([avatar.headers.get('x-content-type-options'), avatar.headers.get('content-security-policy')]).toEqual([
        'nosniff',
        "default-src 'none'; sandbox",
      ]);
      const avatarSource = readFileSync(join(api.config.mediaDir, 'sources/avatars/mia.jpg'));
      expect(hasGps((await sharp(avatarSource).metadata()).exif)).toBe(true);
      const avatarMeta = await sharp(Buffer.from(await avatar.arrayBuffer())).metadata();
      expect([avatarMeta.width, avatarMeta.height, avatarMeta.exif]).toEqual([192, 192, undefined]);
      expect((await fetch(`${api.url}/media/sources/avatars/mia.jpg`)).status).toBe(404);
      // Every place a user is shown names the same file: a post's author, a search hit.
      const posts = (await visitor.call('getPosts', { limit: 20 })).body.posts;
      const byMia = posts.find((p) => p.author.profileName === 'mia');
      expect(byMia?.author.profilePicture).toBe(avatarUrl);
      // nora never had a picture: still none.
      expect((await visitor.call('getProfile', { profileName: 'nora' })).body.profile.profilePicture).toBeNull();
    } finally {
      await api.close();
    }
  }, 360_000);
});

describe('the media job queue', () => {
  // The table's lease is renewed while a job runs; on pg-boss a dead worker's job is failed once
  // it has run the job timeout (media/queue.ts), kept short here, but long enough for the 8 s
  // clip's ladder on a loaded runner: a job must decode within 80 % of it (media/queueOptions.ts).
  const TIMING = { MEDIA_LEASE_MS: '2000', MEDIA_JOB_TIMEOUT_MS: ENGINE === 'postgres' ? '40000' : '3600000' };
  /** An API that only serves (MEDIA_WORKER=off): its uploads wait for a worker started by the test. */
  let serving: TestApi;
  let servingClara: TestClient;
  let servingMia: TestClient;
  beforeAll(async () => {
    serving = await startTestApi({
      MEDIA_WORKER: 'off',
      UPLOAD_MAX_BYTES: String(30_000_000),
      ...TIMING,
      MEDIA_RETRY_DELAY_MS: '200',
      MEDIA_RETRY_LIMIT: '1',
      MEDIA_POLL_MS: '100',
    });
    servingClara = await serving.as('clara');
    servingMia = await serving.as('mia');
  });
  afterAll(() => serving.close());

  /** The job's state in the queue's own storage: the table's row, or pg-boss's. */
  const jobState = async (targetIdentifier: string): Promise<string | undefined> => {
    const key = `target:${targetIdentifier}`;
    const rows =
      ENGINE === 'postgres'
        ? await serving.rows<{
            state: string;
          }>`SELECT state FROM pgboss.job WHERE name = 'media' AND singleton_key = ${key} ORDER BY created_on DESC LIMIT 1`
        : await serving.rows<{ state: string }>`SELECT state FROM media_jobs WHERE singleton_key = ${key}`;
    return rows[0]?.state;
  };

  it("makes a profile picture once when two workers run its job at once: one picture served, the other run's files removed", async () => {
    const source = 'sources/avatars/leo-twice.png';
    await serving.api.services.files.put(source, gradientPng(300, 400, 9), 'image/png');
    await serving.rows`UPDATE users SET profile_picture = NULL, profile_picture_source = ${source} WHERE profile_name = 'leo'`;
    const jobs = mediaJobs(serving.api.services);
    await Promise.all([jobs.handle({ kind: 'avatar', id: 'leo' }), jobs.handle({ kind: 'avatar', id: 'leo' })]);
    const picture = present(
      (await servingClara.call('getProfile', { profileName: 'leo' })).body.profile.profilePicture,
      "leo's picture",
    );
    expect(picture).toMatch(/\/media\/media\/avatar\/leo\/[^/]+\/192\.jpg$/);
    // One run's folder is left: the one served.
    const folder = join(serving.config.mediaDir, 'media', 'avatar', 'leo');
    const made = () =>
      readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name).slice(folder.length));
    expect(made()).toEqual([picture.slice(picture.indexOf('/avatar/leo') + '/avatar/leo'.length)]);
    // Done: a third run finds nothing waiting and makes nothing.
    await jobs.handle({ kind: 'avatar', id: 'leo' });
    expect(made()).toHaveLength(1);
  });

  it('does a job once when two workers run it at once: one set of pictures served, one notice', async () => {
    const sent = await upload(serving, servingClara, 'twice.png', 'image/png', gradientPng(700, 400, 5));
    expect((await servingClara.call('getEventOrderDetails', { orderId: ORDER })).body.targets.at(-1)?.state).toBe(
      'processing',
    );
    const before = (await notificationsOf(servingMia)).length;
    // The same job run by two workers (one whose lease ran out while it was only slow, say).
    const jobs = mediaJobs(serving.api.services);
    await Promise.all([
      jobs.handle({ kind: 'target', id: sent.targetIdentifier }),
      jobs.handle({ kind: 'target', id: sent.targetIdentifier }),
    ]);
    const target = await processed(servingClara, ORDER, sent.targetIdentifier);
    expect(target.state).toBe('ready');
    // The original and one run's 3 widths x 3 formats: the other run removed what it made.
    expect(storedFiles(serving, sent.targetIdentifier)).toHaveLength(1 + 9);
    expect((await notificationsOf(servingMia)).length).toBe(before + 1);
  });

  it("makes a wide picture's AVIF in a later job: shown without it first, added once by two runs at once, queued again by the first job's retry if it was lost", async () => {
    const { services } = serving.api;
    const sent = await upload(serving, servingClara, 'later.png', 'image/png', gradientPng(1400, 800, 12));
    const id = sent.targetIdentifier;
    const jobs = mediaJobs(services);
    const picture = async () => {
      const { body } = await servingClara.call('getEventOrderDetails', { orderId: ORDER });
      const target = body.targets.find((x) => x.targetIdentifier === id);
      return present(target?.image, 'the picture');
    };
    await jobs.handle({ kind: 'target', id });
    // Ready with what the page can show at every width; the AVIF waits for its own job.
    expect((await picture()).sources.map((s) => [s.type, s.srcset.split(', ').length])).toEqual([
      ['image/webp', 4],
      ['image/jpeg', 4],
    ]);
    expect(storedFiles(serving, id)).toHaveLength(1 + 8);
    expect(await services.media.pending({ kind: 'formats', id })).toBe(true);
    // The job lost (the process died between the target's commit and the queue): the first job's
    // next attempt finds the target ready without it, and queues it again.
    if (ENGINE === 'postgres') await serving.rows`DELETE FROM pgboss.job WHERE singleton_key = ${`formats:${id}`}`;
    else await serving.rows`DELETE FROM media_jobs WHERE singleton_key = ${`formats:${id}`}`;
    expect(await services.media.pending({ kind: 'formats', id })).toBe(false);
    await jobs.handle({ kind: 'target', id });
    expect(await services.media.pending({ kind: 'formats', id })).toBe(true);
    expect(storedFiles(serving, id)).toHaveLength(1 + 8);
    // Two workers run it at once: one adds its AVIF, the other removes what it made.
    await Promise.all([jobs.handle({ kind: 'formats', id }), jobs.handle({ kind: 'formats', id })]);
    const image = await picture();
    expect(image.sources.map((s) => [s.type, s.srcset.split(', ').length])).toEqual([
      ['image/avif', 4],
      ['image/webp', 4],
      ['image/jpeg', 4],
    ]);
    for (const entry of image.sources[0]?.srcset.split(', ') ?? []) {
      const made = await fetch(local(serving, entry.split(' ')[0] ?? ''));
      expect([made.status, made.headers.get('content-type')]).toEqual([200, 'image/avif']);
      expect((await sharp(Buffer.from(await made.arrayBuffer())).metadata()).exif).toBeUndefined();
    }
    expect(storedFiles(serving, id)).toHaveLength(1 + 12);
    // Done: another run makes nothing, and the first job's retry queues nothing.
    await jobs.handle({ kind: 'formats', id });
    await jobs.handle({ kind: 'target', id });
    expect(storedFiles(serving, id)).toHaveLength(1 + 12);
  });

  it("leaves nothing of a later job's run when its target is removed while it runs", async () => {
    const sent = await upload(serving, servingClara, 'gone.png', 'image/png', gradientPng(1400, 800, 13));
    const { services } = serving.api;
    await mediaJobs(services).handle({ kind: 'target', id: sent.targetIdentifier });
    expect(storedFiles(serving, sent.targetIdentifier)).toHaveLength(1 + 8);
    // The uploader removes it while the later run stores its first AVIF.
    let removal: Promise<unknown> | undefined;
    const files = {
      ...services.files,
      put: async (...args: Parameters<typeof services.files.put>) => {
        removal ??= servingClara.call('removeTarget', { targetId: sent.targetId });
        expect(((await removal) as { status: number }).status).toBe(200);
        return services.files.put(...args);
      },
    };
    await mediaJobs({ ...services, files }).handle({ kind: 'formats', id: sent.targetIdentifier });
    expect(removal).toBeDefined();
    expect(storedFiles(serving, sent.targetIdentifier)).toEqual([]);
  });

  it('takes a video job again after its worker was killed (SIGKILL) midway, and finishes it once', async () => {
    const sent = await upload(
      serving,
      servingClara,
      'long.mp4',
      'video/mp4',
      syntheticClip({ width: 1280, height: 720, seconds: 8 }),
    );
    const before = (await notificationsOf(servingMia)).length;
    const env: Record<string, string> = {
      ...(serving.config.databaseUrl ? { DATABASE_URL: serving.config.databaseUrl } : {}),
      DATABASE_PATH: serving.config.databasePath,
      MEDIA_DIR: serving.config.mediaDir,
      ADMIN_TOKEN,
      RUM_TOKEN_KEY,
      UPLOAD_MAX_BYTES: String(30_000_000),
      ...TIMING,
      MEDIA_POLL_MS: '100',
    };
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '..', 'src', 'worker.ts')],
      {
        cwd: join(import.meta.dirname, '..'),
        env: { ...process.env, ...env },
        stdio: 'ignore',
      },
    );
    const exited = new Promise((done) => child.once('exit', done));
    try {
      await vi.waitFor(
        async () => {
          if ((await jobState(sent.targetIdentifier)) !== 'active') throw new Error('the worker never took the job');
        },
        { timeout: 30_000, interval: 20 },
      );
      child.kill('SIGKILL');
      await exited;
    } finally {
      child.kill('SIGKILL');
    }
    expect(
      (await servingClara.call('getEventOrderDetails', { orderId: ORDER })).body.targets.find(
        (x) => x.targetIdentifier === sent.targetIdentifier,
      )?.state,
    ).toBe('processing');
    // Another worker takes it once the dead one's lease has run out (on PostgreSQL pg-boss's
    // maintenance finds the expired job first: about 70 s here, more on a loaded runner).
    const worker = await startWorker({ ...serving.config, mediaWorker: 'off' });
    try {
      const target = await processed(servingClara, ORDER, sent.targetIdentifier, 120_000);
      expect(target.state).toBe('ready');
      expect((await fetch(local(serving, present(target.video, 'the video').hls))).status).toBe(200);
    } finally {
      await worker.stop();
    }
    expect((await notificationsOf(servingMia)).length).toBe(before + 1);
  }, 180_000);

  it('retries a job that fails, then dead-letters it: the target is failed with a reason, never processing for ever', async () => {
    const sent = await upload(serving, servingClara, 'lost.png', 'image/png', gradientPng(64, 64, 8));
    // The stored file is lost before any worker reads it: every attempt fails.
    for (const file of storedFiles(serving, sent.targetIdentifier)) rmSync(file);
    const worker = await startWorker({ ...serving.config, mediaWorker: 'off' });
    try {
      const target = await processed(servingClara, ORDER, sent.targetIdentifier, 60_000);
      expect([target.state, target.failureReason]).toEqual(['failed', PROCESSING_FAILED]);
    } finally {
      await worker.stop();
    }
    expect(await jobState(sent.targetIdentifier)).toBe('failed');
  });

  it('does not queue a job again while one for the target waits (the sweep), and queues one lost before it was', async () => {
    const sent = await upload(serving, servingClara, 'waiting.png', 'image/png', gradientPng(32, 32, 9));
    const { services } = serving.api;
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await services.media.pending({ kind: 'target', id: sent.targetIdentifier })).toBe(true);
    expect(await resendStalled(services.media, services, future, 100)).toBe(0);
    // The job is lost (the process died between the upload's commit and the queue): queued again.
    if (ENGINE === 'postgres')
      await serving.rows`DELETE FROM pgboss.job WHERE singleton_key = ${`target:${sent.targetIdentifier}`}`;
    else await serving.rows`DELETE FROM media_jobs WHERE singleton_key = ${`target:${sent.targetIdentifier}`}`;
    expect(await services.media.pending({ kind: 'target', id: sent.targetIdentifier })).toBe(false);
    expect(await resendStalled(services.media, services, future, 100)).toBeGreaterThanOrEqual(1);
    expect(await services.media.pending({ kind: 'target', id: sent.targetIdentifier })).toBe(true);
    const worker = await startWorker({ ...serving.config, mediaWorker: 'off' });
    try {
      expect((await processed(servingClara, ORDER, sent.targetIdentifier, 60_000)).state).toBe('ready');
    } finally {
      await worker.stop();
    }
  });

  // The table's own rule (pg-boss counts a dead worker's attempt as a failure itself).
  if (ENGINE === 'sqlite')
    it('dead-letters a job whose workers die at every attempt, instead of taking it for ever: the target fails with a reason', async () => {
      const sent = await upload(serving, servingClara, 'deadly.png', 'image/png', gradientPng(32, 32, 10));
      const { repos } = serving.api.services;
      // Two workers (the first attempt and its one retry) took it and died: their leases ran out.
      for (let i = 0; i < 2; i++) expect(await repos.mediaJobs.claim('media', new Date(), new Date(0))).toBeDefined();
      const worker = await startWorker({ ...serving.config, mediaWorker: 'off' });
      try {
        const target = await processed(servingClara, ORDER, sent.targetIdentifier, 30_000);
        expect([target.state, target.failureReason]).toEqual(['failed', PROCESSING_FAILED]);
      } finally {
        await worker.stop();
      }
      expect(await jobState(sent.targetIdentifier)).toBe('failed');
    });
});

// The table queue on either engine's database (PostgreSQL deployments use pg-boss, but the table
// works there too), driven directly with a handler that only records what it is given.
describe('the table queue and a row that is no media job', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ MEDIA_WORKER: 'off' });
  });
  afterAll(() => api.close());

  it('dead-letters a row whose payload cannot be read after one take, never takes it again, and runs the next job', async () => {
    const rows = api.api.services.repos.mediaJobs;
    const queue = tableQueue(rows, { ...DEFAULT_QUEUE_OPTIONS, leaseMs: 2_000, pollMs: 50 });
    // One is no JSON, the other JSON of no job; both queued before a job that is one.
    expect(await rows.add('media', 'broken:json', '{"kind":')).toBe(true);
    expect(await rows.add('media', 'broken:shape', '{"kind":"nothing"}')).toBe(true);
    const next: MediaJob = { kind: 'target', id: 'after-the-broken-ones' };
    await queue.send(next);
    const handled: MediaJob[] = [];
    const deadLettered: MediaJob[] = [];
    await queue.work(
      async (job) => {
        handled.push(job);
      },
      async (job) => {
        deadLettered.push(job);
      },
    );
    try {
      await vi.waitFor(() => expect(handled).toContainEqual(next), { timeout: 10_000, interval: 20 });
    } finally {
      await queue.stop();
    }
    for (const [key, error] of [
      ['broken:json', /JSON/],
      ['broken:shape', /Not a media job/],
    ] as const) {
      const row = await rows.byKey(key);
      expect([row?.state, Number(row?.attempts)]).toEqual(['failed', 1]);
      expect(row?.last_error).toMatch(error);
    }
    expect(handled).toEqual([next]);
    expect(deadLettered).toEqual([]);
    expect(await rows.byKey('target:after-the-broken-ones')).toBeUndefined();
    // Nothing is due even once every lease has run out: a worker looking an hour on takes nothing.
    const later = new Date(Date.now() + 3_600_000);
    expect(await rows.claim('media', later, later)).toBeUndefined();
  });
});
