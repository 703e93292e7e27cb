/**
 * What a sharing link's holder receives of an order's files: pictures the media job made (the
 * largest, 1920 px and without metadata, as their download), never an original's link or bytes,
 * so never the camera's EXIF or where the picture was taken. The parties get the originals: the
 * uploader as sent, the other party without where it was taken (its coded pixels unchanged).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOrderDetails, OrderActionRequest } from '@marketplace/shared/contract';
import { UPLOADED_ORIGINAL } from '../src/files/orderFileLinks.js';
import { cameraPhoto, hasDemoLocation, jpegScan } from '../src/media/clips.js';
import { present, processed, startTestApi, type TestApi, type TestClient } from './harness.js';
import { paidEvent, sendWebhook } from './webhooks.js';

let t: TestApi;
let clara: TestClient;
let mia: TestClient;
/** The photographer's upload: a camera's JPEG wider than the largest picture made, with EXIF and GPS. */
let photo: Buffer;
let orderId: string;
let sharingId: string;

const act = (client: TestClient, request: OrderActionRequest) => client.call('changeEventOrder', request);
const local = (url: string) => url.replace(t.config.filesOrigin, t.url);
const bytesOf = async (url: string) => {
  const res = await fetch(local(url));
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), res };
};
/** Every URL of an order's files a reader of `details` is given. */
const urlsIn = (details: EventOrderDetails) =>
  details.targets.flatMap((target) => [
    ...target.targetURLs,
    ...(target.image
      ? [
          target.image.src,
          ...target.image.sources.flatMap((s) => s.srcset.split(', ').map((e) => e.split(' ')[0] ?? '')),
        ]
      : []),
    ...(target.video ? [target.video.hls] : []),
  ]);

beforeAll(async () => {
  t = await startTestApi();
  clara = await t.as('clara');
  mia = await t.as('mia');
  photo = await cameraPhoto({ width: 2400, height: 1600, seed: 11 });
  expect((await sharp(photo).metadata()).exif).toBeDefined();
  expect(hasDemoLocation(photo)).toBe(true);

  const packages = (await clara.call('getProfile', { profileName: 'mia' })).body.packages ?? [];
  const essentials = present(
    packages.find((p) => p.name === 'Essentials'),
    "mia's Essentials",
  );
  const booked = await clara.call('bookPhotographer', {
    photographer: 'mia',
    packageId: essentials.id,
    eventName: 'Garden party',
    eventDate: `${new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 16)}Z`,
    location: 'The garden',
    guests: 30,
    requirements: 'Candid shots.',
  });
  orderId = present(booked.body.orderId, 'the order id');
  expect(
    (await act(mia, { orderId, action: 'sendQuote', packagePriceCents: 40000, discountCents: 0, extrasCents: 0 }))
      .status,
  ).toBe(200);
  const sentAt = (await clara.call('getEventOrderDetails', { orderId })).body.eventOrderInfo.quote?.sentAt;
  expect((await act(clara, { orderId, action: 'approve', quoteSentAt: sentAt })).status).toBe(200);
  const purchase = present((await clara.call('payEventOrder', { orderId })).body.purchase, 'a purchase');
  await sendWebhook(t, paidEvent(purchase.purchaseNumber, purchase.totalCents).payload);

  const added = await mia.call('addTarget', {
    orderId,
    description: 'The first dance',
    fileName: 'dance.jpg',
    contentType: 'image/jpeg',
  });
  const put = await mia.fetch(local(added.body.uploadUrl), {
    method: 'PUT',
    body: new Blob([new Uint8Array(photo)]),
    headers: { 'content-type': 'image/jpeg' },
  });
  expect(put.status).toBe(200);
  const target = await processed(mia, orderId, added.body.targetIdentifier);
  expect([target.state, target.failureReason]).toEqual(['ready', null]);
  // The client's reference picture: the same camera photo, sent by the other party.
  const reference = await clara.call('addTarget', {
    orderId,
    description: 'The venue',
    fileName: 'venue.jpg',
    contentType: 'image/jpeg',
  });
  const sent = await clara.fetch(local(reference.body.uploadUrl), {
    method: 'PUT',
    body: new Blob([new Uint8Array(photo)]),
    headers: { 'content-type': 'image/jpeg' },
  });
  expect(sent.status).toBe(200);
  const referenced = await processed(clara, orderId, reference.body.targetIdentifier);
  expect([referenced.state, referenced.failureReason]).toEqual(['ready', null]);
  expect((await act(mia, { orderId, action: 'deliver' })).status).toBe(200);
  sharingId = present((await clara.call('getEventOrderDetails', { orderId })).body.sharingId, 'its sharing link');
}, 120_000);
afterAll(() => t.close());

describe("a sharing link's holder", () => {
  it('is given pictures the media job made, and its download is the largest, without metadata', async () => {
    const shared = (await t.client().call('getEventOrderDetails', { orderId, sharingId })).body;
    expect(shared.view).toBe('sharedUser');
    const [target] = shared.targets;
    const [view = '', download = ''] = present(target, 'the deliverable').targetURLs;
    expect(new URL(download).searchParams.get('download')).toBe('1');
    const got = await bytesOf(download);
    expect([got.status, got.res.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const meta = await sharp(got.bytes).metadata();
    expect([meta.width, meta.exif, meta.xmp]).toEqual([1920, undefined, undefined]);
    expect(new URL(view).searchParams.get('f')).toBe(new URL(download).searchParams.get('f'));
  });

  it('never receives an original: no link to one, none of its bytes, no EXIF or location in anything', async () => {
    const shared = (await t.client().call('getEventOrderDetails', { orderId, sharingId })).body;
    const urls = urlsIn(shared);
    expect(urls.length).toBeGreaterThan(3);
    for (const url of urls) {
      // Each link names a made file; a link without `f` would be the original.
      expect([url, new URL(url).searchParams.get('f')]).toEqual([url, expect.stringMatching(/\.(jpg|webp|avif)$/)]);
      const got = await bytesOf(url);
      expect([url, got.status]).toEqual([url, 200]);
      expect(got.bytes.equals(photo)).toBe(false);
      const meta = await sharp(got.bytes).metadata();
      expect([url, meta.exif, meta.xmp]).toEqual([url, undefined, undefined]);
    }
  });

  it("cannot turn a link it holds into the original's", async () => {
    const shared = (await t.client().call('getEventOrderDetails', { orderId, sharingId })).body;
    const [, download = ''] = present(shared.targets[0], 'the deliverable').targetURLs;
    for (const change of [
      (u: URL) => u.searchParams.delete('f'),
      (u: URL) => u.searchParams.set('f', ''),
      (u: URL) => u.searchParams.set('f', 'original'),
      (u: URL) => u.searchParams.set('f', UPLOADED_ORIGINAL),
      (u: URL) => u.searchParams.set('f', '../dance.jpg'),
    ]) {
      const forged = new URL(local(download));
      change(forged);
      expect([forged.search, (await fetch(forged)).status]).toEqual([forged.search, 403]);
    }
    // Nor the deliverables' ZIP, which holds the originals.
    expect(shared.deliverablesZipUrl).toBeNull();
  });
});

describe("the order's parties", () => {
  it('download the original as uploaded: the uploader their own file, bytes and all', async () => {
    const own = (await mia.call('getEventOrderDetails', { orderId })).body;
    const [, original = ''] = present(own.targets[0], 'the deliverable').targetURLs;
    expect(new URL(original).searchParams.get('f')).toBe(UPLOADED_ORIGINAL);
    const got = await bytesOf(original);
    expect([got.status, got.res.headers.get('content-disposition')]).toEqual([
      200,
      expect.stringMatching(/^attachment; filename="dance\.jpg"/),
    ]);
    expect(got.bytes.equals(photo)).toBe(true);
  });

  it('give the other party the original without where it was taken, its coded pixels byte for byte', async () => {
    const theirs = (await clara.call('getEventOrderDetails', { orderId })).body;
    const [, original = ''] = present(theirs.targets[0], 'the deliverable').targetURLs;
    expect(new URL(original).searchParams.has('f')).toBe(false);
    const got = await bytesOf(original);
    expect([got.status, got.res.headers.get('content-type'), got.res.headers.get('content-disposition')]).toEqual([
      200,
      'image/jpeg',
      expect.stringMatching(/^attachment; filename="dance\.jpg"/),
    ]);
    expect(hasDemoLocation(got.bytes)).toBe(false);
    expect(got.bytes.includes('Seed Camera')).toBe(false);
    expect(jpegScan(got.bytes).equals(jpegScan(photo))).toBe(true);
    const meta = await sharp(got.bytes).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([2400, 1600, 1]);
    // Nor can the other party turn its link into the uploader's.
    const forged = new URL(local(original));
    forged.searchParams.set('f', UPLOADED_ORIGINAL);
    expect((await fetch(forged)).status).toBe(403);
  });

  it("give the photographer the client's reference without where it was taken, and the client it as sent", async () => {
    const originalOf = async (reader: TestClient) => {
      const details = (await reader.call('getEventOrderDetails', { orderId })).body;
      const target = present(
        details.targets.find((x) => x.kind === 'reference'),
        'the reference',
      );
      return present(target.targetURLs[1], "the reference's original");
    };
    const photographers = await bytesOf(await originalOf(mia));
    expect(photographers.status).toBe(200);
    expect(hasDemoLocation(photographers.bytes)).toBe(false);
    expect(jpegScan(photographers.bytes).equals(jpegScan(photo))).toBe(true);
    const clients = await bytesOf(await originalOf(clara));
    expect([clients.status, clients.bytes.equals(photo)]).toEqual([200, true]);
    // The sharing link's holder is shown no reference at all.
    const shared = (await t.client().call('getEventOrderDetails', { orderId, sharingId })).body;
    expect(shared.targets.map((x) => x.kind)).toEqual(['deliverable']);
  });

  it("give the other party the deliverables' ZIP without where they were taken", async () => {
    const theirs = (await clara.call('getEventOrderDetails', { orderId })).body;
    const zip = await bytesOf(present(theirs.deliverablesZipUrl, 'the ZIP link'));
    expect([zip.status, zip.res.headers.get('content-type')]).toEqual([200, 'application/zip']);
    // Stored, not compressed: the entry's bytes are in the ZIP as they are.
    expect(zip.bytes.includes(jpegScan(photo))).toBe(true);
    expect(hasDemoLocation(zip.bytes)).toBe(false);
    expect(zip.bytes.includes('Seed Camera')).toBe(false);
  });
});
