import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderActionRequest } from '@marketplace/shared/contract';
import { gradientPng } from '../src/db/png.js';
import { present, processed, startTestApi, type TestApi, type TestClient } from './harness.js';
import { paidEvent, sendWebhook } from './webhooks.js';

let t: TestApi;
let clara: TestClient;
let mia: TestClient;
beforeAll(async () => {
  t = await startTestApi();
  clara = await t.as('clara');
  mia = await t.as('mia');
});
afterAll(() => t.close());

const act = (client: TestClient, request: OrderActionRequest) => client.call('changeEventOrder', request);
const infoOf = async (orderId: string, client = clara) =>
  (await client.call('getEventOrderDetails', { orderId })).body.eventOrderInfo;
const latestNotice = async (client: TestClient) =>
  present((await client.call('getNotifications')).body.notifications[0], 'a notification');
/** The client approves the quote they read (its sentAt). */
const approve = async (orderId: string, client = clara) =>
  act(client, { orderId, action: 'approve', quoteSentAt: (await infoOf(orderId, client)).quote?.sentAt });
const quote = { packagePriceCents: 40000, discountCents: 4000, extrasCents: 5000, extrasNote: 'Second shooter' };

describe('the order lifecycle', () => {
  it('carries a request through requirements, a quote and approval, each side told of the other step', async () => {
    const orderId = 'ord-1001';
    expect((await infoOf(orderId, mia)).actions).toEqual(['askRequirements', 'sendQuote', 'decline']);
    expect((await infoOf(orderId)).actions).toEqual(['cancel']);

    const asked = await act(mia, { orderId, action: 'askRequirements', message: 'Which speeches?' });
    expect(asked.body).toEqual({ orderId, publicStatus: 'REQUIREMENTS_NEEDED', status: null });
    expect(await latestNotice(clara)).toMatchObject({
      content: expect.stringContaining('Which speeches?'),
      link: `/eventorder/${orderId}`,
    });
    expect(await infoOf(orderId)).toMatchObject({
      requirementsRequest: 'Which speeches?',
      actions: ['answerRequirements', 'cancel'],
    });

    expect(
      (await act(clara, { orderId, action: 'answerRequirements', answer: 'The CEO and the awards.' })).status,
    ).toBe(200);
    expect(await latestNotice(mia)).toMatchObject({ content: expect.stringContaining('answered') });
    expect(await infoOf(orderId, mia)).toMatchObject({
      publicStatus: 'REQUIREMENTS_NEEDED',
      requirementsAnswer: 'The CEO and the awards.',
    });

    const quoted = await act(mia, { orderId, action: 'sendQuote', ...quote });
    expect(quoted.body).toMatchObject({ publicStatus: 'AWAITING_APPROVAL' });
    expect(await latestNotice(clara)).toMatchObject({ content: expect.stringContaining('$410.00') });
    const details = (await clara.call('getEventOrderDetails', { orderId })).body;
    expect(details.eventOrderInfo.quote).toMatchObject({ ...quote, totalCents: 41000, currency: 'USD' });
    expect(details.payment).toEqual({ currency: 'USD', totalCents: 41000, paid: false });
    expect((await mia.call('getEventOrderDetails', { orderId })).body.mediaPayoutInfo).toMatchObject({
      totalCents: 41000,
      platformFeeCents: 6150,
    });
    expect(details.eventOrderInfo.actions).toEqual(['approve', 'cancel']);

    expect((await approve(orderId)).body).toMatchObject({ publicStatus: 'APPROVED' });
    expect(await latestNotice(mia)).toMatchObject({ content: expect.stringContaining('approved') });
    // Approved, the order waits for its payment: the photographer can no longer re-quote or decline.
    const late = await act(mia, { orderId, action: 'sendQuote', ...quote });
    expect([late.status, late.body.error]).toEqual([
      409,
      'This order is "Approved, awaiting payment" now, so it cannot be quoted',
    ]);
    expect((await act(mia, { orderId, action: 'decline', reason: 'Too late' })).status).toBe(409);
  });

  it('delivers a paid order once the photographer has uploaded a processed file', async () => {
    const orderId = 'ord-1005';
    const empty = await act(mia, { orderId, action: 'deliver' });
    expect([empty.status, empty.body.error]).toEqual([
      409,
      'Upload at least one photo or video before marking the order delivered',
    ]);
    // The client's own reference picture is not a deliverable.
    const mine = async (client: TestClient) => {
      const added = await client.call('addTarget', {
        orderId,
        description: 'Finished',
        fileName: 'final.png',
        contentType: 'image/png',
      });
      const put = await client.fetch(added.body.uploadUrl.replace(t.config.filesOrigin, t.url), {
        method: 'PUT',
        body: new Blob([new Uint8Array(gradientPng(64, 48, 3))]),
        headers: { 'content-type': 'image/png' },
      });
      expect(put.status).toBe(200);
      expect((await processed(client, orderId, added.body.targetIdentifier)).state).toBe('ready');
    };
    await mine(clara);
    expect((await act(mia, { orderId, action: 'deliver' })).status).toBe(409);
    // Not before it is paid: the photographer's files are deliverables.
    const early = await mia.call('addTarget', {
      orderId: 'ord-1003',
      description: '',
      fileName: 'x.png',
      contentType: 'image/png',
    });
    expect([early.status, early.body.error]).toEqual([
      409,
      'Deliverables are added and changed once the order is paid, until it is delivered',
    ]);
    await mine(mia);
    expect((await act(clara, { orderId, action: 'deliver' })).body.error).toBe('Only the photographer can do this');

    const delivered = await act(mia, { orderId, action: 'deliver' });
    expect(delivered.body).toEqual({ orderId, publicStatus: 'DELIVERED', status: 'PUBLISHED' });
    expect(await latestNotice(clara)).toMatchObject({
      content: expect.stringContaining('delivered'),
      link: `/eventorder/${orderId}`,
    });
    expect((await infoOf(orderId)).actions).toEqual([]);
    expect((await act(mia, { orderId, action: 'deliver' })).status).toBe(409);
    // Delivered: nothing more to add, by either side.
    const late = await mia.call('addTarget', {
      orderId,
      description: '',
      fileName: 'late.png',
      contentType: 'image/png',
    });
    expect([late.status, late.body.error]).toEqual([
      409,
      'Deliverables are added and changed once the order is paid, until it is delivered',
    ]);
  });

  it('gives the parties every deliverable in one ZIP, and a sharing link its pictures but never an original', async () => {
    const orderId = 'ord-1005';
    const details = (await clara.call('getEventOrderDetails', { orderId })).body;
    expect(details.targets.map((target) => [target.target, target.kind])).toEqual([
      ['final.png', 'reference'],
      ['final.png', 'deliverable'],
    ]);
    const zipUrl = present(details.deliverablesZipUrl, 'the ZIP link');
    const local = (url: string) => url.replace(t.config.filesOrigin, t.url);
    const zip = await fetch(local(zipUrl), { headers: { cookie: clara.cookieHeader } });
    expect([zip.status, zip.headers.get('content-type'), zip.headers.get('content-disposition')]).toEqual([
      200,
      'application/zip',
      'attachment; filename="ord-1005.zip"',
    ]);
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304');
    // Stored, not compressed: the deliverable's original bytes are in it, the client's reference is not.
    expect(bytes.includes(gradientPng(64, 48, 3))).toBe(true);
    expect(bytes.toString('latin1').match(/final\.png/g)?.length).toBe(2); // local header + central directory
    // The link passed to another account, or changed, is refused.
    const nora = await t.as('nora');
    expect((await fetch(local(zipUrl), { headers: { cookie: nora.cookieHeader } })).status).toBe(403);
    expect((await fetch(local(zipUrl.replace('ord-1005', 'ord-1006')))).status).toBe(403);

    const sharingId = present(details.sharingId, 'the sharing id');
    const shared = (await t.client().call('getEventOrderDetails', { orderId, sharingId })).body;
    expect(shared).toMatchObject({ view: 'sharedUser', deliverablesZipUrl: null, canUpload: false, sharingId: null });
    const [target] = shared.targets;
    expect(shared.targets).toHaveLength(1);
    expect(target?.kind).toBe('deliverable');
    // Each link is to a picture the media job made (f=...), none to the original.
    for (const url of present(target, 'the deliverable').targetURLs)
      expect(new URL(url).searchParams.get('f')).toMatch(/\.jpg$/);
    const download = await fetch(local(target?.targetURLs[1] ?? ''));
    expect([
      download.status,
      download.headers.get('content-type'),
      download.headers.get('content-disposition'),
    ]).toEqual([200, 'image/jpeg', expect.stringMatching(/^attachment; filename="final\.jpg"/)]);
    // Its original's link, as a party holds it, is not one a link holder can make from theirs.
    const original = new URL(local(target?.targetURLs[1] ?? ''));
    original.searchParams.delete('f');
    expect((await fetch(original)).status).toBe(403);

    // The client ends the link: the old one no longer opens the order.
    expect((await mia.call('resetOrderSharing', { orderId })).status).toBe(409);
    const reset = await clara.call('resetOrderSharing', { orderId });
    expect(reset.body.sharingId).not.toBe(sharingId);
    expect((await t.client().call('getEventOrderDetails', { orderId, sharingId })).status).toBe(401);
    expect(
      (await t.client().call('getEventOrderDetails', { orderId, sharingId: reset.body.sharingId ?? '' })).status,
    ).toBe(200);
  });

  it('declines with the reason, which the client reads, and ends the order', async () => {
    const orderId = 'ord-1003';
    expect((await act(mia, { orderId, action: 'decline', reason: '' })).body.field).toBe('reason');
    expect((await act(mia, { orderId, action: 'decline', reason: 'Booked that day' })).body).toMatchObject({
      publicStatus: 'DECLINED',
    });
    expect(await infoOf(orderId)).toMatchObject({ declineReason: 'Booked that day', actions: [] });
    expect(await latestNotice(clara)).toMatchObject({ content: expect.stringContaining('Booked that day') });
    expect((await approve(orderId)).body.error).toBe('This order was declined');
  });
});

describe('bad input and races', () => {
  it('refuses a quote that does not add up, an unknown action, and anyone not a party', async () => {
    const orderId = 'ord-1002';
    const over = await act(mia, { orderId, action: 'sendQuote', ...quote, discountCents: 50000 });
    expect([over.status, over.body.field]).toEqual([400, 'discountCents']);
    const tiny = await act(mia, {
      orderId,
      action: 'sendQuote',
      packagePriceCents: 50,
      discountCents: 0,
      extrasCents: 0,
    });
    expect([tiny.status, tiny.body.error]).toEqual([
      400,
      "Invalid field 'packagePriceCents': must come to a total of at least $1.00",
    ]);
    const fraction = await act(mia, { orderId, action: 'sendQuote', ...quote, packagePriceCents: 12.5 });
    expect(fraction.body.field).toBe('packagePriceCents');
    const unknown = await mia.call('changeEventOrder', { orderId, action: 'refund' });
    expect([unknown.status, unknown.body.field]).toEqual([400, 'action']);
    const nora = await t.as('nora');
    expect((await act(nora, { orderId, action: 'cancel' })).status).toBe(403);
    expect((await act(t.client(), { orderId, action: 'cancel' })).status).toBe(401);
    // Nothing of the refused requests changed the order.
    expect(await infoOf(orderId)).toMatchObject({
      publicStatus: 'REQUIREMENTS_NEEDED',
      quote: null,
      status: 'AWAITING_APPROVAL',
    });
  });

  const noticesOf = async (orderId: string) =>
    Number(
      (
        await t.rows<{ n: number }>`
          SELECT COUNT(*) AS n FROM notifications WHERE content LIKE ${`%${orderId}%`}`
      )[0]?.n,
    );

  it('lets exactly one of a decline and an approval sent at once through, and tells only its news', async () => {
    const orderId = 'ord-1002';
    expect((await act(mia, { orderId, action: 'sendQuote', ...quote })).status).toBe(200);
    const before = await noticesOf(orderId);
    const quoteSentAt = (await infoOf(orderId)).quote?.sentAt;
    const [approve, decline] = await Promise.all([
      act(clara, { orderId, action: 'approve', quoteSentAt }),
      act(mia, { orderId, action: 'decline', reason: 'Changed my mind' }),
    ]);
    expect([approve.status, decline.status].sort()).toEqual([200, 409]);
    const info = await infoOf(orderId);
    expect(info.publicStatus).toBe(approve.status === 200 ? 'APPROVED' : 'DECLINED');
    expect((approve.status === 200 ? decline : approve).body.error).toBe(
      approve.status === 200
        ? 'This order is "Approved, awaiting payment" now, so it cannot be declined'
        : 'This order was declined',
    );
    expect(await noticesOf(orderId)).toBe(before + 1);
  });

  it('makes one cancel of two sent at once, and ends a quote racing a cancel cancelled', async () => {
    const twice = await Promise.all([
      act(clara, { orderId: 'ord-1004', action: 'cancel' }),
      act(clara, { orderId: 'ord-1004', action: 'cancel' }),
    ]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(twice.find((r) => r.status === 409)?.body.error).toBe('This order was cancelled');
    expect(await noticesOf('ord-1004')).toBe(1);

    // A new request again: the photographer's quote and the client's cancel meet.
    const orderId = 'ord-1006';
    await t.rows`UPDATE event_orders SET public_status = 'ORDER_REQUEST', info_status = NULL WHERE order_id = ${orderId}`;
    const before = await noticesOf(orderId);
    const [quoted, cancelled] = await Promise.all([
      act(mia, { orderId, action: 'sendQuote', ...quote }),
      act(clara, { orderId, action: 'cancel' }),
    ]);
    expect(cancelled.status).toBe(200);
    // Whichever came first: the quote went out, or it was refused for the cancel.
    expect([
      [200, undefined],
      [409, 'This order was cancelled'],
    ]).toContainEqual([quoted.status, quoted.body.error]);
    expect((await infoOf(orderId)).status).toBe('CANCELLED');
    expect(await noticesOf(orderId)).toBe(before + (quoted.status === 200 ? 2 : 1));
  });

  it('refuses a quote on a cancelled order and a change of a deleted one', async () => {
    const cancelled = await act(mia, { orderId: 'ord-1009', action: 'sendQuote', ...quote });
    expect([cancelled.status, cancelled.body.error]).toEqual([409, 'This order was cancelled']);
    const deleted = await act(mia, { orderId: 'ord-1008', action: 'deliver' });
    expect([deleted.status, deleted.body.error]).toEqual([409, 'This order was deleted']);
  });
});

describe('paying an approved order', () => {
  const purchaseOf = async (purchaseNumber: string) =>
    (
      await t.rows<{ status: string; total_cents: number; flag_reason: string | null }>`
        SELECT status, total_cents, flag_reason FROM purchases WHERE purchase_number = ${purchaseNumber}`
    )[0];

  it('makes one purchase of the quoted total however often it is asked, and secures the order once paid', async () => {
    const orderId = 'ord-1007';
    await t.rows`UPDATE event_orders SET public_status = 'AWAITING_APPROVAL', info_status = NULL WHERE order_id = ${orderId}`;
    expect((await act(mia, { orderId, action: 'sendQuote', ...quote })).status).toBe(200);
    // Not before the quote is approved, and only by the client.
    expect((await clara.call('payEventOrder', { orderId })).status).toBe(409);
    expect((await approve(orderId)).status).toBe(200);
    expect((await infoOf(orderId)).actions).toEqual(['pay', 'cancel']);
    expect((await mia.call('payEventOrder', { orderId })).body.error).toBe('Only the client can do this');

    const [first, second] = await Promise.all([
      clara.call('payEventOrder', { orderId }),
      clara.call('payEventOrder', { orderId }),
    ]);
    const purchase = present(first.body.purchase, 'a purchase');
    expect(second.body.purchase?.purchaseNumber).toBe(purchase.purchaseNumber);
    expect(purchase).toMatchObject({ status: 'open', totalCents: 41000, currency: 'USD' });
    expect(purchase.payUrl).toContain(purchase.purchaseNumber);

    // A payment of another amount is held, and the order waits.
    const wrong = await sendWebhook(t, paidEvent(purchase.purchaseNumber, 100).payload);
    expect(wrong.body.outcome).toBe('flagged');
    expect((await infoOf(orderId)).publicStatus).toBe('APPROVED');

    const again = present((await clara.call('payEventOrder', { orderId })).body.purchase, 'a new purchase');
    expect(again.purchaseNumber).not.toBe(purchase.purchaseNumber);
    const event = paidEvent(again.purchaseNumber, 41000);
    const paid = await sendWebhook(t, event.payload);
    expect(paid.body.outcome).toBe('paid');
    expect(await infoOf(orderId)).toMatchObject({
      publicStatus: 'PENDING_FULFILLMENTS',
      status: 'SECURED',
      actions: [],
    });
    expect((await clara.call('getEventOrderDetails', { orderId })).body.payment).toEqual({
      currency: 'USD',
      totalCents: 41000,
      paid: true,
    });
    expect(await latestNotice(mia)).toMatchObject({
      content: expect.stringContaining('paid $410.00 for order ord-1007'),
      link: `/eventorder/${orderId}`,
    });
    expect(await latestNotice(clara)).toMatchObject({ content: expect.stringContaining('Payment received') });
    // Paid: no more paying, no cancelling, and the replayed event changes nothing.
    expect((await clara.call('payEventOrder', { orderId })).status).toBe(409);
    expect((await sendWebhook(t, event.payload)).body.outcome).toBe('replayed');
    expect((await sendWebhook(t, paidEvent(again.purchaseNumber, 41000).payload)).body.outcome).toBe('already settled');
  });

  it('ends the open payment of an order cancelled meanwhile, and holds a payment that came anyway', async () => {
    const orderId = 'ord-1006';
    await t.rows`UPDATE event_orders SET public_status = 'APPROVED', info_status = NULL WHERE order_id = ${orderId}`;
    const purchase = present((await clara.call('payEventOrder', { orderId })).body.purchase, 'a purchase');
    expect((await act(clara, { orderId, action: 'cancel' })).status).toBe(200);
    expect((await purchaseOf(purchase.purchaseNumber))?.status).toBe('expired');
    const late = await sendWebhook(t, paidEvent(purchase.purchaseNumber, purchase.totalCents).payload);
    expect(late.body.outcome).toBe('flagged');
    expect(await purchaseOf(purchase.purchaseNumber)).toMatchObject({
      status: 'flagged',
      flag_reason: `Paid for order ${orderId}, which is no longer awaiting payment: refund it`,
    });
    expect((await infoOf(orderId)).status).toBe('CANCELLED');
  });
});

describe('booking from a photographer page', () => {
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 16) + 'Z';
  const booking = async (over: Record<string, unknown> = {}) => {
    const packages = (await clara.call('getProfile', { profileName: 'mia' })).body.packages;
    const essentials = present(
      packages?.find((p) => p.name === 'Essentials'),
      "mia's Essentials",
    );
    return {
      essentials,
      request: {
        photographer: 'mia',
        packageId: essentials.id,
        eventName: 'Spring gala',
        eventDate: inDays(30),
        location: 'Riverside Hall',
        guests: 80,
        requirements: 'Speeches and the first dance.',
        ...over,
      },
    };
  };

  it('makes a request at the package price less her code, tells her, and keeps that price', async () => {
    const { essentials, request } = await booking({ discountCode: 'mia10' });
    const booked = await clara.call('bookPhotographer', request);
    expect(booked.status).toBe(200);
    const orderId = present(booked.body.orderId, 'the order id');
    expect(orderId).toMatch(/^ord-[a-z0-9]{8}$/);
    const details = (await clara.call('getEventOrderDetails', { orderId })).body;
    expect(details.eventOrderInfo).toMatchObject({
      publicStatus: 'ORDER_REQUEST',
      status: null,
      eventName: 'Spring gala',
      location: 'Riverside Hall',
      packageName: 'Essentials',
      photographer: 'Mia Lens',
      actions: ['cancel'],
    });
    expect(details.discountCode).toBe('MIA10');
    expect(details.payment?.totalCents).toBe(essentials.priceCents - essentials.priceCents / 10);
    expect(details.requirementInfo).toEqual({
      summary: 'Speeches and the first dance.',
      items: [{ label: 'Guests', value: '80' }],
    });
    expect(await latestNotice(mia)).toMatchObject({
      content: expect.stringContaining('asked you to photograph Spring gala'),
      link: `/eventorder/${orderId}`,
    });
    expect((await infoOf(orderId, mia)).actions).toEqual(['askRequirements', 'sendQuote', 'decline']);
    // The package's price changing later does not change the booking.
    await t.rows`UPDATE media_packages SET price_cents = 99900 WHERE id = ${essentials.id}`;
    expect((await clara.call('getEventOrderDetails', { orderId })).body.payment?.totalCents).toBe(22500);
    await t.rows`UPDATE media_packages SET price_cents = ${essentials.priceCents} WHERE id = ${essentials.id}`;
  });

  it.each([
    [{ eventDate: '2020-01-01T10:00Z' }, 'eventDate', 'The event must be in the future'],
    [{ eventDate: 'tomorrow' }, 'eventDate', "Invalid field 'eventDate': must be a date and time"],
    [{ packageId: 999999 }, 'packageId', 'This package is not offered by this photographer'],
    [{ discountCode: 'MAX10' }, 'discountCode', "The code MAX10 is another photographer's"],
    [{ discountCode: 'NOPE' }, 'discountCode', 'There is no discount code NOPE'],
    [{ guests: 0 }, 'guests', "Invalid field 'guests': must be from 1 to 10,000"],
    [{ eventName: '' }, 'eventName', "Invalid field 'eventName': must not be empty"],
  ])('refuses %o with the reason beside %s, and makes no order', async (over, field, error) => {
    const before = (await clara.call('getEventOrders')).body.eventOrders.length;
    const { request } = await booking(over);
    const refused = await clara.call('bookPhotographer', request);
    expect([refused.status, refused.body.field, refused.body.error]).toEqual([400, field, error]);
    expect((await clara.call('getEventOrders')).body.eventOrders.length).toBe(before);
  });

  it("books one of the client's own events, which gives the order its name, date and place", async () => {
    const olga = await t.as('olga');
    const { request } = await booking({ eventIdentifier: 'winter-gala-2026' });
    const { eventName: _name, eventDate: _date, location: _where, ...withoutNewEvent } = request;
    const booked = await olga.call('bookPhotographer', withoutNewEvent);
    expect(booked.status, booked.body.error).toBe(200);
    const info = await infoOf(present(booked.body.orderId, 'the order'), olga);
    const gala = (await olga.call('getEvent', { eventIdentifier: 'winter-gala-2026' })).body.event;
    expect(info).toMatchObject({ eventName: 'Winter Gala', location: 'Grand Hotel Ballroom', client: 'Olga Events' });
    expect(info.eventDate).toBe(gala.startsAt);
    // Someone else's event is not the client's to book; a new one needs its name, date and place.
    const others = await clara.call('bookPhotographer', withoutNewEvent);
    expect([others.status, others.body.field, others.body.error]).toEqual([
      400,
      'eventIdentifier',
      'Choose one of your own events, or describe a new one',
    ]);
    const { location: _place, ...nowhere } = (await booking()).request;
    const refused = await clara.call('bookPhotographer', nowhere);
    expect([refused.status, refused.body.field]).toEqual([400, 'location']);
  });

  it('refuses booking oneself and a visitor', async () => {
    const { request } = await booking();
    expect((await mia.call('bookPhotographer', request)).body.error).toBe('You cannot book yourself');
    expect((await t.client().call('bookPhotographer', request)).status).toBe(401);
  });
});

describe('what each side may change and see', () => {
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 16) + 'Z';
  /** A new booking of mia's Essentials by clara, with mia's code. */
  const book = async () => {
    const packages = (await clara.call('getProfile', { profileName: 'mia' })).body.packages ?? [];
    const essentials = present(
      packages.find((p) => p.name === 'Essentials'),
      "mia's Essentials",
    );
    const booked = await clara.call('bookPhotographer', {
      photographer: 'mia',
      packageId: essentials.id,
      eventName: 'Summer party',
      eventDate: inDays(60),
      location: 'The roof',
      guests: 40,
      requirements: 'Candid shots.',
      discountCode: 'MIA10',
    });
    return present(booked.body.orderId, 'the order id');
  };
  const upload = async (client: TestClient, orderId: string) => {
    const added = await client.call('addTarget', {
      orderId,
      description: 'A picture',
      fileName: 'picture.png',
      contentType: 'image/png',
    });
    const put = await client.fetch(added.body.uploadUrl.replace(t.config.filesOrigin, t.url), {
      method: 'PUT',
      body: new Blob([new Uint8Array(gradientPng(64, 48, 5))]),
      headers: { 'content-type': 'image/png' },
    });
    expect(put.status).toBe(200);
    const target = await processed(client, orderId, added.body.targetIdentifier, 5000);
    expect([target.state, target.failureReason]).toEqual(['ready', null]);
    return target.targetId;
  };
  const timesUsed = async (code: string) =>
    Number((await t.rows<{ n: number }>`SELECT times_used AS n FROM discount_codes WHERE code = ${code}`)[0]?.n);

  it('approves only the quote the client read: one sent meanwhile is not approved unseen', async () => {
    const orderId = await book();
    expect((await act(mia, { orderId, action: 'sendQuote', ...quote })).status).toBe(200);
    const read = (await infoOf(orderId)).quote?.sentAt;
    const higher = await act(mia, { orderId, action: 'sendQuote', ...quote, extrasCents: 90000 });
    expect(higher.status).toBe(200);
    const stale = await act(clara, { orderId, action: 'approve', quoteSentAt: read });
    expect([stale.status, stale.body.error]).toEqual([
      409,
      'The photographer sent a new quote meanwhile: read it before approving',
    ]);
    expect((await infoOf(orderId)).publicStatus).toBe('AWAITING_APPROVAL');
    expect((await approve(orderId)).body).toMatchObject({ publicStatus: 'APPROVED' });
    expect((await infoOf(orderId)).quote?.totalCents).toBe(126000);
  });

  it("keeps each side's files its own, a delivery's files fixed, and the terms from a sharing link", async () => {
    const orderId = await book();
    const codeUses = await timesUsed('MIA10');
    const reference = await upload(clara, orderId);
    expect((await act(mia, { orderId, action: 'sendQuote', ...quote })).status).toBe(200);
    expect((await approve(orderId)).status).toBe(200);
    const purchase = present((await clara.call('payEventOrder', { orderId })).body.purchase, 'a purchase');
    expect((await sendWebhook(t, paidEvent(purchase.purchaseNumber, purchase.totalCents).payload)).body.outcome).toBe(
      'paid',
    );
    // The code the order was booked with counts as used once the order is paid.
    expect(await timesUsed('MIA10')).toBe(codeUses + 1);
    const deliverable = await upload(mia, orderId);

    // Neither side removes or renames the other's file.
    const theirs = await mia.call('removeTarget', { targetId: reference });
    expect([theirs.status, theirs.body.error]).toEqual([403, 'Only who uploaded a file can remove it']);
    expect((await clara.call('removeTarget', { targetId: deliverable })).status).toBe(403);
    const renamed = await clara.call('changeTargetDescription', {
      orderId,
      targetId: deliverable,
      description: 'Mine now',
    });
    expect(renamed.status).toBe(404);

    // A sharing link before the delivery: the event, nothing delivered yet, none of the terms.
    const sharingId = present((await clara.call('getEventOrderDetails', { orderId })).body.sharingId, 'its link');
    const early = (await t.client().call('getEventOrderDetails', { orderId, sharingId })).body;
    expect(early).toMatchObject({
      view: 'sharedUser',
      targets: [],
      discountCode: null,
      payment: null,
      mediaPayoutInfo: null,
      requirementInfo: { summary: '', items: [] },
    });
    expect(early.eventOrderInfo).toMatchObject({ quote: null, requirementsRequest: null, declineReason: null });

    expect((await act(mia, { orderId, action: 'deliver' })).status).toBe(200);
    const shared = (await t.client().call('getEventOrderDetails', { orderId, sharingId })).body;
    expect(shared.targets.map((target) => target.targetId)).toEqual([deliverable]);
    // Delivered: the photographer's files stay as they were delivered.
    const late = await mia.call('removeTarget', { targetId: deliverable });
    expect([late.status, late.body.error]).toEqual([
      409,
      'Deliverables are added and changed once the order is paid, until it is delivered',
    ]);
    expect(
      (await mia.call('changeTargetDescription', { orderId, targetId: deliverable, description: 'Changed' })).status,
    ).toBe(409);
    expect((await clara.call('getEventOrderDetails', { orderId })).body.targets).toHaveLength(2);
  });
});
