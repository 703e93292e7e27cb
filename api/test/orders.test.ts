import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradientPng } from '../src/db/png.js';
import { orderFileLinks } from '../src/files/orderFileLinks.js';
import { present, processed, startTestApi, type TestApi, type TestClient } from './harness.js';

let t: TestApi;
let clara: TestClient;
let mia: TestClient;
beforeAll(async () => {
  t = await startTestApi({ UPLOAD_MAX_BYTES: String(200 * 1024) });
  clara = await t.as('clara');
  mia = await t.as('mia');
});
afterAll(() => t.close());

const statusTypes = (body: { statuses: { statusType: string }[] }) => body.statuses.map((s) => s.statusType).join(' ');

describe('event orders', () => {
  it("lists the user's orders as client and as photographer", async () => {
    const asClient = (await clara.call('getEventOrders')).body.eventOrders;
    expect(asClient).toHaveLength(9);
    expect(asClient.every((o: { view: string }) => o.view === 'client')).toBe(true);
    const asPhotographer = (await mia.call('getEventOrders')).body.eventOrders;
    expect(
      asPhotographer.every(
        (o: { view: string; counterpart: string }) => o.view === 'photographer' && o.counterpart === 'Clara Client',
      ),
    ).toBe(true);
    expect((await t.client().call('getEventOrders')).status).toBe(401);
  });

  it('pictures each order by its first delivered photo, which the list holder may load', async () => {
    const orders = (await clara.call('getEventOrders')).body.eventOrders;
    const delivered = present(
      orders.find((o) => o.orderId === 'ord-1006'),
      'ord-1006',
    );
    const thumbnail = present(delivered.thumbnailUrl, "ord-1006's thumbnail");
    // The photographer's first deliverable (the demo's are from before the media pipeline: the file itself).
    const [firstDelivered] = (await clara.call('getEventOrderDetails', { orderId: 'ord-1006' })).body.targets.filter(
      (target) => target.kind === 'deliverable',
    );
    expect(new URL(thumbnail).pathname).toContain(present(firstDelivered, 'a deliverable').targetIdentifier);
    const local = thumbnail.replace(t.config.filesOrigin, t.url);
    const picture = await fetch(local, { headers: { cookie: clara.cookieHeader } });
    expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/png']);
    // An order with no picture yet has none.
    expect(orders.find((o) => o.orderId === 'ord-1001')?.thumbnailUrl).toBeNull();
  });

  it.each([
    ['ord-1001', 'ORDER_REQUEST', null, 'CURRENT LOCKED LOCKED LOCKED LOCKED'],
    ['ord-1002', 'REQUIREMENTS_NEEDED', 'AWAITING_APPROVAL', 'COMPLETED CURRENT LOCKED LOCKED LOCKED'],
    ['ord-1003', 'AWAITING_APPROVAL', 'AWAITING_APPROVAL', 'COMPLETED COMPLETED CURRENT LOCKED LOCKED'],
    ['ord-1004', 'APPROVED', null, 'COMPLETED COMPLETED COMPLETED CURRENT LOCKED'],
    ['ord-1005', 'PENDING_FULFILLMENTS', 'SECURED', 'COMPLETED COMPLETED COMPLETED CURRENT LOCKED'],
    ['ord-1006', 'DELIVERED', 'PUBLISHED', 'COMPLETED COMPLETED COMPLETED COMPLETED COMPLETED'],
  ])('%s (%s) has its progress bar and order-info status', async (orderId, publicStatus, status, progress) => {
    const res = await clara.call('getEventOrderDetails', { orderId });
    expect(res.status).toBe(200);
    expect(res.body.eventOrderInfo).toMatchObject({ orderId, publicStatus, status });
    expect(res.body.statuses.map((s: { statusName: string }) => s.statusName)).toEqual([
      'ORDER_REQUEST',
      'REQUIREMENTS_NEEDED',
      'AWAITING_APPROVAL',
      'PENDING_FULFILLMENTS',
      'DELIVERED',
    ]);
    expect(statusTypes(res.body)).toBe(progress);
  });

  it('gives the client view the fields of the spec, the back button and the cancel offer', async () => {
    const { body } = await clara.call('getEventOrderDetails', { orderId: 'ord-1003' });
    expect(body).toMatchObject({
      view: 'client',
      deleted: false,
      backButton: { text: 'Back to orders', link: '/user/orders' },
      discountCode: null,
      requirementInfo: { summary: expect.any(String), items: expect.any(Array) },
      payment: { currency: 'USD', totalCents: 35000, paid: false },
      mediaPayoutInfo: null,
      targets: [],
      sharingId: expect.any(String),
    });
    expect(body.eventOrderInfo.canCancel).toBe(true);
  });

  it('shows declined, deleted and cancelled orders as such, with no cancel offer', async () => {
    const declined = (await clara.call('getEventOrderDetails', { orderId: 'ord-1007' })).body;
    expect(declined).toMatchObject({ deleted: false, eventOrderInfo: { publicStatus: 'DECLINED', canCancel: false } });
    // Only the spec's fields say so: no flag of the API's own.
    expect(declined).not.toHaveProperty('declined');
    const deleted = (await clara.call('getEventOrderDetails', { orderId: 'ord-1008' })).body;
    expect(deleted).toMatchObject({ deleted: true, eventOrderInfo: { canCancel: false } });
    const cancelled = (await clara.call('getEventOrderDetails', { orderId: 'ord-1009' })).body;
    expect(cancelled.eventOrderInfo).toMatchObject({ status: 'CANCELLED', canCancel: false });
  });

  it('gives the photographer its view, without a cancel offer', async () => {
    const { body } = await mia.call('getEventOrderDetails', { orderId: 'ord-1003' });
    expect(body.view).toBe('photographer');
    expect(body.eventOrderInfo.canCancel).toBe(false);
  });

  it('gives anyone holding the sharing id the sharedUser view, and refuses everyone else', async () => {
    const { sharingId } = (await clara.call('getEventOrderDetails', { orderId: 'ord-1006' })).body;
    const nora = await t.as('nora');
    const shared = await nora.call('getEventOrderDetails', { orderId: 'ord-1006', sharingId });
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ view: 'sharedUser', sharingId: null, backButton: { link: '/events' } });
    expect(shared.body.eventOrderInfo.canCancel).toBe(false);
    expect((await t.client().call('getEventOrderDetails', { orderId: 'ord-1006', sharingId })).body.view).toBe(
      'sharedUser',
    );

    const refused = await nora.call('getEventOrderDetails', { orderId: 'ord-1006' });
    expect(refused.status).toBe(403);
    expect((await nora.call('getEventOrderDetails', { orderId: 'ord-1006', sharingId: 'guess' })).status).toBe(403);
    expect((await t.client().call('getEventOrderDetails', { orderId: 'ord-1006' })).status).toBe(401);
    expect((await clara.call('getEventOrderDetails', { orderId: 'ord-9999' })).status).toBe(404);
  });
});

describe('cancel', () => {
  it('lets only the client cancel; the order becomes CANCELLED and the photographer is notified', async () => {
    const byPhotographer = await mia.call('updateEventOrderStatus', { orderId: 'ord-1002', status: 'CANCELLED' });
    expect([byPhotographer.status, byPhotographer.body.error]).toEqual([409, 'Only the client can do this']);
    const nora = await t.as('nora');
    expect((await nora.call('updateEventOrderStatus', { orderId: 'ord-1002', status: 'CANCELLED' })).status).toBe(403);

    const res = await clara.call('updateEventOrderStatus', { orderId: 'ord-1002', status: 'CANCELLED' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ orderId: 'ord-1002', status: 'CANCELLED' });
    const after = (await clara.call('getEventOrderDetails', { orderId: 'ord-1002' })).body.eventOrderInfo;
    expect(after).toMatchObject({ status: 'CANCELLED', canCancel: false });
    const [latest] = (await mia.call('getNotifications')).body.notifications;
    expect(latest).toMatchObject({
      status: 'NEW',
      content: expect.stringContaining('ord-1002'),
      link: '/eventorder/ord-1002',
    });
  });

  it('refuses to cancel twice, a paid or delivered order, or another status', async () => {
    await clara.call('updateEventOrderStatus', { orderId: 'ord-1001', status: 'CANCELLED' });
    expect((await clara.call('updateEventOrderStatus', { orderId: 'ord-1001', status: 'CANCELLED' })).status).toBe(409);
    const paid = await clara.call('updateEventOrderStatus', { orderId: 'ord-1005', status: 'CANCELLED' });
    expect([paid.status, paid.body.error]).toEqual([409, 'This order can no longer be cancelled']);
    expect((await clara.call('updateEventOrderStatus', { orderId: 'ord-1006', status: 'CANCELLED' })).status).toBe(409);
    expect((await clara.call('updateEventOrderStatus', { orderId: 'ord-1003', status: 'DELIVERED' })).body.field).toBe(
      'status',
    );
  });
});

describe('upload targets', () => {
  const png = gradientPng(64, 48, 7);
  const put = (client: TestClient, url: string, body: Uint8Array, contentType = 'image/png') =>
    client.fetch(url.replace(t.config.filesOrigin, t.url), {
      method: 'PUT',
      body: new Blob([new Uint8Array(body)]),
      headers: { 'content-type': contentType },
    });

  it('adds a target, takes the file by PUT, and lists it in the order', async () => {
    const added = await clara.call('addTarget', {
      orderId: 'ord-1005',
      description: 'Venue map',
      fileName: 'venue.png',
      contentType: 'image/png',
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      uploadUrl: expect.stringContaining('/upload/'),
      targetId: expect.any(Number),
      targetIdentifier: expect.any(String),
    });
    // Not listed until its file arrives.
    expect((await clara.call('getEventOrderDetails', { orderId: 'ord-1005' })).body.targets).toEqual([]);

    const uploaded = await put(t.client(), added.body.uploadUrl, png);
    expect(uploaded.status).toBe(200);
    // Listed at once as processing: nothing of it is served until the media job has remade it.
    const listed = (await clara.call('getEventOrderDetails', { orderId: 'ord-1005' })).body.targets;
    expect(listed).toMatchObject([{ targetIdentifier: added.body.targetIdentifier }]);
    expect(['processing', 'ready']).toContain(listed[0]?.state);
    const target = await processed(clara, 'ord-1005', added.body.targetIdentifier);
    expect(target).toMatchObject({
      targetId: added.body.targetId,
      targetIdentifier: added.body.targetIdentifier,
      target: 'venue.png',
      description: 'Venue map',
      state: 'ready',
      failureReason: null,
    });
    // A 64 px picture is made at its own width only, in each format, with a placeholder.
    const image = present(target.image, 'the processed picture');
    expect(image).toMatchObject({
      width: 64,
      height: 48,
      placeholder: expect.stringMatching(/^data:image\/webp;base64,/),
    });
    expect(image.sources.map((s) => [s.type, s.srcset.replace(/ .*? /g, ' ').split(' ').at(-1)])).toEqual([
      ['image/avif', '64w'],
      ['image/webp', '64w'],
      ['image/jpeg', '64w'],
    ]);
    for (const source of image.sources) {
      const made = await fetch((source.srcset.split(' ')[0] ?? '').replace(t.config.filesOrigin, t.url));
      expect([made.status, made.headers.get('content-type'), made.headers.get('x-content-type-options')]).toEqual([
        200,
        source.type,
        'nosniff',
      ]);
    }
    const [viewUrl = '', downloadUrl = ''] = target.targetURLs;
    expect(viewUrl).toBe(image.src);
    const view = await fetch(viewUrl.replace(t.config.filesOrigin, t.url));
    expect([view.headers.get('content-type'), view.headers.get('content-disposition')]).toEqual([
      'image/jpeg',
      'inline',
    ]);
    // The original, as it was sent, to download only.
    const download = await fetch(downloadUrl.replace(t.config.filesOrigin, t.url));
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="venue.png"/);
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);
    // The photographer hears about it once it is ready.
    expect(present((await mia.call('getNotifications')).body.notifications[0], 'a notification').content).toMatch(
      /venue\.png/,
    );
  });

  it('refuses a bad token, a wrong content type, a non-image, a second upload and an oversized file', async () => {
    const { body } = await clara.call('addTarget', {
      orderId: 'ord-1005',
      description: '',
      fileName: 'a.png',
      contentType: 'image/png',
    });
    const url: string = body.uploadUrl;
    expect((await put(t.client(), url.replace(/token=[^&]+/, 'token=wrong'), png)).status).toBe(403);
    expect((await put(t.client(), url, png, 'image/jpeg')).status).toBe(415);
    const notImage = await put(t.client(), url, Buffer.from('<script>alert(1)</script>'));
    expect(notImage.status).toBe(400);
    expect(notImage.body.error).toMatch(/not a image\/png image/);
    const tooBig = await put(t.client(), url, Buffer.concat([png, Buffer.alloc(300 * 1024)]));
    expect(tooBig.status).toBe(413);
    expect((await clara.call('getEventOrderDetails', { orderId: 'ord-1005' })).body.targets).toHaveLength(1);
    expect((await put(t.client(), url, png)).status).toBe(200);
    expect((await put(t.client(), url, png)).status).toBe(409);
  });

  it('accepts images only, from parties to an open order', async () => {
    const pdf = await clara.call('addTarget', {
      orderId: 'ord-1005',
      description: '',
      fileName: 'a.pdf',
      contentType: 'application/pdf',
    });
    expect(pdf.status).toBe(400);
    expect(pdf.body.field).toBe('contentType');
    expect(
      (
        await clara.call('addTarget', {
          orderId: 'ord-1005',
          description: '',
          fileName: '../x.png',
          contentType: 'image/png',
        })
      ).body.field,
    ).toBe('fileName');
    const nora = await t.as('nora');
    expect(
      (
        await nora.call('addTarget', {
          orderId: 'ord-1005',
          description: '',
          fileName: 'a.png',
          contentType: 'image/png',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await clara.call('addTarget', {
          orderId: 'ord-1007',
          description: '',
          fileName: 'a.png',
          contentType: 'image/png',
        })
      ).status,
    ).toBe(409);
    expect((await clara.call('addTarget', { orderId: 'ord-1005', description: '', fileName: 'a.png' })).body).toEqual({
      error: "Missing field 'contentType'",
      field: 'contentType',
    });
  });

  it("changes a target's description and removes a target with its file", async () => {
    const targets = (await clara.call('getEventOrderDetails', { orderId: 'ord-1006' })).body.targets;
    const first = present(targets[0], 'a first target');
    const second = present(targets[1], 'a second target');
    const changed = await clara.call('changeTargetDescription', {
      orderId: 'ord-1006',
      targetId: first.targetId,
      description: 'Updated',
    });
    expect(changed.body.target).toMatchObject({ targetId: first.targetId, description: 'Updated' });
    expect(
      (await clara.call('changeTargetDescription', { orderId: 'ord-1005', targetId: first.targetId, description: 'x' }))
        .status,
    ).toBe(404);

    const nora = await t.as('nora');
    expect((await nora.call('removeTarget', { targetId: second.targetId })).status).toBe(403);
    // The other party neither: a file is its uploader's.
    expect(second.kind).toBe('reference');
    expect((await mia.call('removeTarget', { targetId: second.targetId })).status).toBe(403);
    const filePath = join(t.config.mediaDir, 'uploads', 'ord-1006');
    expect(existsSync(filePath)).toBe(true);
    expect((await clara.call('removeTarget', { targetId: second.targetId })).body).toEqual({
      removed: second.targetId,
    });
    const remaining = (await clara.call('getEventOrderDetails', { orderId: 'ord-1006' })).body.targets;
    expect(remaining.filter((x) => x.kind === 'reference').map((x) => x.targetId)).toEqual([first.targetId]);
    expect((await clara.call('removeTarget', { targetId: second.targetId })).status).toBe(404);
  });
});

describe('changes decided once, whatever runs at once', () => {
  const png = gradientPng(16, 16, 3);

  it('of 20 cancels sent at once, one succeeds and notifies once; the rest are 409', async () => {
    const dave = await t.as('dave');
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        dave.call('updateEventOrderStatus', { orderId: 'ord-2001', status: 'CANCELLED' }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, ...Array<number>(19).fill(409)]);
    const [notices] = await t.rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM notifications n JOIN users u ON u.id = n.user_id
      WHERE u.profile_name = 'max' AND n.content LIKE ${'%cancelled order ord-2001%'}`;
    expect(notices?.n).toBe(1);
  });

  it('refuses an upload, a new target and a target change once the order is cancelled', async () => {
    const added = await clara.call('addTarget', {
      orderId: 'ord-1004',
      description: '',
      fileName: 'late.png',
      contentType: 'image/png',
    });
    expect(added.status).toBe(200);
    expect((await clara.call('updateEventOrderStatus', { orderId: 'ord-1004', status: 'CANCELLED' })).status).toBe(200);
    const upload = await clara.fetch(added.body.uploadUrl.replace(t.config.filesOrigin, t.url), {
      method: 'PUT',
      body: new Blob([new Uint8Array(png)]),
      headers: { 'content-type': 'image/png' },
    });
    expect([upload.status, upload.body.error]).toEqual([409, 'This order is closed']);
    const again = await clara.call('addTarget', {
      orderId: 'ord-1004',
      description: '',
      fileName: 'later.png',
      contentType: 'image/png',
    });
    expect(again.status).toBe(409);
    expect((await clara.call('removeTarget', { targetId: added.body.targetId })).status).toBe(409);
    const [stored] = await t.rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM order_targets WHERE identifier = ${added.body.targetIdentifier} AND uploaded_at IS NOT NULL`;
    expect(stored?.n).toBe(0);
  });

  it('answers every one of 20 role changes sent at once, and keeps the roles one of them chose', async () => {
    const nora = await t.as('nora');
    const choices = Array.from({ length: 20 }, (_, i) => ({
      driver: i % 2 ? 'true' : 'false',
      media: i % 3 ? 'true' : 'false',
    }));
    const replies = await Promise.all(
      choices.filter((c) => c.driver === 'true' || c.media === 'true').map((c) => nora.call('updateRoles', c)),
    );
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([200]));
    const roles = (await nora.call('getUserInfo')).body.roles.slice().sort();
    expect([['DRIVER'], ['MEDIA'], ['DRIVER', 'MEDIA']]).toContainEqual(roles);
  });
});

describe("an order's files", () => {
  const firstTarget = async () =>
    present((await clara.call('getEventOrderDetails', { orderId: 'ord-1006' })).body.targets[0], 'a target');

  it('are served by signed link to whoever read the order: checked type, private, nosniff, sandboxed', async () => {
    const target = await firstTarget();
    const [viewUrl = '', downloadUrl = ''] = target.targetURLs;
    // No cookie: an <img> on the shell's origin sends none to the API's; the link is the permission.
    const view = await fetch(viewUrl.replace(t.config.filesOrigin, t.url));
    expect(view.status).toBe(200);
    expect(view.headers.get('content-type')).toBe(target.contentType);
    expect(view.headers.get('cache-control')).toMatch(/^private/);
    expect(view.headers.get('x-content-type-options')).toBe('nosniff');
    expect(view.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const download = await fetch(downloadUrl.replace(t.config.filesOrigin, t.url));
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    // The holder of the sharing link sees the deliverables only, and of files from before the
    // pipeline (nothing made of them but the original) gets no link at all.
    const sharingId = (await clara.call('getEventOrderDetails', { orderId: 'ord-1006' })).body.sharingId ?? '';
    const shared = await t.client().call('getEventOrderDetails', { orderId: 'ord-1006', sharingId });
    expect(shared.body.targets.map((x) => [x.kind, x.targetURLs])).toEqual([
      ['deliverable', []],
      ['deliverable', []],
      ['deliverable', []],
    ]);
  });

  it('are refused without a valid, current link, and never served by their key', async () => {
    const target = await firstTarget();
    const url = new URL((target.targetURLs[0] ?? '').replace(t.config.filesOrigin, t.url));
    const tampered = new URL(url);
    tampered.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 3600));
    expect((await fetch(tampered)).status).toBe(403);
    const otherTarget = new URL(url);
    otherTarget.pathname = otherTarget.pathname.replace(target.targetIdentifier, 'tgt-someone-else');
    expect((await fetch(otherTarget)).status).toBe(403);
    const bare = new URL(url);
    bare.search = '';
    expect((await fetch(bare)).status).toBe(403);
    // A link issued long ago has expired, though it was signed right.
    const old = orderFileLinks(t.config.fileLinkKey).grant(
      { targetIdentifier: target.targetIdentifier, file: url.searchParams.get('f'), download: false },
      Date.now() - 3 * 3600_000,
    );
    const expired = await fetch(`${t.url}${url.pathname}?${old.toString()}`);
    expect([expired.status, ((await expired.json()) as { error: string }).error]).toEqual([
      403,
      'This file link has expired: open the order again',
    ]);
    const [row] = await t.rows<{ file_path: string }>`
      SELECT file_path FROM order_targets WHERE identifier = ${target.targetIdentifier}`;
    const key = row?.file_path ?? '';
    expect(key).toMatch(/^(uploads|orders)\//);
    expect((await fetch(`${t.url}/media/${key}`)).status).toBe(404);
    expect((await fetch(`${t.url}/download?${new URLSearchParams({ filePath: key }).toString()}`)).status).toBe(404);
  });
});
