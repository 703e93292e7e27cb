import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscountCodeDraft, MediaPackageDraft } from '@marketplace/shared/contract';
import { present, startTestApi, type TestApi, type TestClient } from './harness.js';

let t: TestApi;
let ivy: TestClient;
let leo: TestClient;
let clara: TestClient;
let mia: TestClient;
beforeAll(async () => {
  t = await startTestApi();
  ivy = await t.as('ivy');
  leo = await t.as('leo');
  clara = await t.as('clara');
  mia = await t.as('mia');
});
afterAll(() => t.close());

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const portraits: MediaPackageDraft = {
  name: 'Portrait corner',
  description: 'A lit corner for guests, 80 edited portraits.',
  priceCents: 45000,
  hours: 3,
  photoCount: 80,
};
const refusal = (reply: { status: number; body: { field?: string; error?: string } }) => [
  reply.status,
  reply.body.field,
  reply.body.error,
];

async function newPackage(client: TestClient, over: Partial<MediaPackageDraft> = {}) {
  const created = await client.call('createMediaPackage', { ...portraits, ...over });
  expect(created.status).toBe(200);
  return present(created.body.mediaPackage, 'the new package');
}

async function newCode(client: TestClient, draft: DiscountCodeDraft) {
  const created = await client.call('createDiscountCode', draft);
  expect(created.status, created.body.error).toBe(200);
  return present(created.body.discountCode, 'the new code');
}

const booking = (packageId: number, over: Record<string, unknown> = {}) => ({
  photographer: 'ivy',
  packageId,
  eventName: 'Launch party',
  eventDate: inDays(20).slice(0, 16) + 'Z',
  location: 'Dock 4',
  guests: 120,
  ...over,
});

describe('media packages', () => {
  it('are created, edited and withdrawn by their photographer, and withdrawn ones are no longer offered', async () => {
    const created = await newPackage(ivy);
    expect(created).toEqual({ id: expect.any(Number), ...portraits, videoMinutes: 0, active: true });
    expect((await ivy.call('getMediaPackages')).body.mediaPackages).toContainEqual(created);
    expect((await clara.call('getProfile', { profileName: 'ivy' })).body.packages).toContainEqual(created);

    const edited = await ivy.call('updateMediaPackage', {
      ...portraits,
      id: created.id,
      name: 'Portrait studio',
      priceCents: 52000,
      videoMinutes: 2,
    });
    expect(edited.body.mediaPackage).toMatchObject({ name: 'Portrait studio', priceCents: 52000, videoMinutes: 2 });

    // A booking made now keeps the package's name and price, whatever happens to it later.
    const booked = await clara.call('bookPhotographer', booking(created.id));
    expect(booked.status).toBe(200);
    const orderId = present(booked.body.orderId, 'the order');

    const withdrawn = await ivy.call('withdrawMediaPackage', { id: created.id });
    expect(withdrawn.body.mediaPackage).toMatchObject({ id: created.id, active: false });
    const own = (await ivy.call('getMediaPackages')).body.mediaPackages;
    expect(own.find((p) => p.id === created.id)).toMatchObject({ name: 'Portrait studio', active: false });
    const offered = (await clara.call('getProfile', { profileName: 'ivy' })).body.packages;
    expect(offered.map((p) => p.id)).not.toContain(created.id);

    expect(refusal(await clara.call('bookPhotographer', booking(created.id)))).toEqual([
      409,
      'packageId',
      'This package has been withdrawn by the photographer: choose another',
    ]);
    const details = (await clara.call('getEventOrderDetails', { orderId })).body;
    expect(details.eventOrderInfo.packageName).toBe('Portrait studio');
    expect(details.payment?.totalCents).toBe(52000);

    // Offered again from its edit form.
    const again = await ivy.call('updateMediaPackage', { ...portraits, id: created.id, active: true });
    expect(again.body.mediaPackage?.active).toBe(true);
    expect((await clara.call('getProfile', { profileName: 'ivy' })).body.packages.map((p) => p.id)).toContain(
      created.id,
    );
  });

  it.each([
    [{ name: '' }, 'name', "Invalid field 'name': must not be empty"],
    [{ priceCents: 0 }, 'priceCents', "Invalid field 'priceCents': must be more than $0.00"],
    [{ priceCents: 10_000_001 }, 'priceCents', "Invalid field 'priceCents': must be at most $100,000.00"],
    [{ priceCents: '12.50' }, 'priceCents', "Invalid field 'priceCents': must be a whole number of cents"],
    [{ hours: -1 }, 'hours', "Invalid field 'hours': must be a whole number of hours from 0 to 100"],
    [
      { photoCount: 'many' },
      'photoCount',
      "Invalid field 'photoCount': must be a whole number of photos from 0 to 10,000",
    ],
    [
      { videoMinutes: 601 },
      'videoMinutes',
      "Invalid field 'videoMinutes': must be a whole number of minutes from 0 to 600",
    ],
  ])('refuses %o with the reason beside %s', async (over, field, error) => {
    const before = (await ivy.call('getMediaPackages')).body.mediaPackages.length;
    expect(refusal(await ivy.call('createMediaPackage', { ...portraits, ...over }))).toEqual([400, field, error]);
    expect((await ivy.call('getMediaPackages')).body.mediaPackages.length).toBe(before);
  });

  it("are their owner's alone to change, and a photographer's to have", async () => {
    const own = await newPackage(ivy);
    const notFound = [404, undefined, 'Media package not found'];
    expect(refusal(await leo.call('updateMediaPackage', { ...portraits, id: own.id, name: 'Mine now' }))).toEqual(
      notFound,
    );
    expect(refusal(await leo.call('withdrawMediaPackage', { id: own.id }))).toEqual(notFound);
    expect(refusal(await ivy.call('withdrawMediaPackage', { id: 999_999 }))).toEqual(notFound);
    expect((await ivy.call('getMediaPackages')).body.mediaPackages.find((p) => p.id === own.id)).toEqual(own);

    const forbidden = [403, undefined, 'Media packages are for users with the MEDIA role'];
    expect(refusal(await clara.call('createMediaPackage', portraits))).toEqual(forbidden);
    expect(refusal(await clara.call('withdrawMediaPackage', { id: own.id }))).toEqual(forbidden);
    expect((await t.client().call('createMediaPackage', portraits)).status).toBe(401);
  });
});

describe('discount codes', () => {
  it('are created (percent or amount), edited and withdrawn, and the owner sees every one with its state', async () => {
    const percent = await newCode(ivy, { code: 'ivyspring', percentOff: 15, expiresAt: inDays(30), maxUses: 5 });
    expect(percent).toMatchObject({
      code: 'IVYSPRING',
      percentOff: 15,
      amountOffCents: null,
      maxUses: 5,
      timesUsed: 0,
      active: true,
    });
    const amount = await newCode(ivy, { code: 'IVY50', amountOffCents: 5000 });
    expect(amount).toMatchObject({ percentOff: 0, amountOffCents: 5000, expiresAt: null, maxUses: null });

    const edited = await ivy.call('updateDiscountCode', { id: percent.id, code: 'IVYSUMMER', amountOffCents: 2500 });
    expect(edited.body.discountCode).toMatchObject({
      code: 'IVYSUMMER',
      percentOff: 0,
      amountOffCents: 2500,
      expiresAt: null,
      maxUses: null,
      active: true,
    });
    // A date alone lasts to the end of that day.
    const dated = await ivy.call('updateDiscountCode', {
      id: percent.id,
      code: 'IVYSUMMER',
      percentOff: 20,
      expiresAt: inDays(10).slice(0, 10),
    });
    expect(dated.body.discountCode?.expiresAt).toBe(`${inDays(10).slice(0, 10)}T23:59:59.999Z`);

    const withdrawn = await ivy.call('withdrawDiscountCode', { id: amount.id });
    expect(withdrawn.body.discountCode).toMatchObject({ code: 'IVY50', active: false });
    const listed = (await ivy.call('getDiscountCodes')).body.discountCodes;
    expect(listed.map((code) => [code.code, code.active])).toEqual(
      expect.arrayContaining([
        ['IVY50', false],
        ['IVYSUMMER', true],
      ]),
    );
  });

  it.each([
    [{ code: 'a b' }, 'code', "Invalid field 'code': must be 3 to 20 letters and digits, without spaces"],
    [{ code: 'mia10' }, 'code', 'The code MIA10 is taken: choose another'],
    [{ percentOff: 0 }, 'percentOff', "Invalid field 'percentOff': must be a whole percent from 1 to 100"],
    [{ percentOff: 101 }, 'percentOff', "Invalid field 'percentOff': must be a whole percent from 1 to 100"],
    [{ percentOff: undefined }, 'percentOff', 'Give a percent or an amount off'],
    [{ amountOffCents: 500 }, 'amountOffCents', 'Give a percent or an amount off, not both'],
    [
      { percentOff: undefined, amountOffCents: 0 },
      'amountOffCents',
      "Invalid field 'amountOffCents': must be more than $0.00",
    ],
    [{ expiresAt: '2020-01-01' }, 'expiresAt', 'The expiry must be in the future'],
    [{ expiresAt: 'soon' }, 'expiresAt', "Invalid field 'expiresAt': must be a date"],
    [{ maxUses: 0 }, 'maxUses', "Invalid field 'maxUses': must be a whole number of uses from 1 to 1,000,000"],
  ])('refuses %o with the reason beside %s', async (over, field, error) => {
    const before = (await ivy.call('getDiscountCodes')).body.discountCodes.length;
    const draft = { code: 'IVYNEW', percentOff: 10, ...over };
    expect(refusal(await ivy.call('createDiscountCode', draft))).toEqual([
      field === 'code' && error.includes('taken') ? 409 : 400,
      field,
      error,
    ]);
    expect((await ivy.call('getDiscountCodes')).body.discountCodes.length).toBe(before);
  });

  it("are their owner's alone to change", async () => {
    const own = await newCode(ivy, { code: 'IVYMINE', percentOff: 5 });
    const notFound = [404, undefined, 'Discount code not found'];
    expect(refusal(await leo.call('updateDiscountCode', { id: own.id, code: 'LEOMINE', percentOff: 90 }))).toEqual(
      notFound,
    );
    expect(refusal(await leo.call('withdrawDiscountCode', { id: own.id }))).toEqual(notFound);
    expect(refusal(await clara.call('createDiscountCode', { code: 'CLARA', percentOff: 5 }))).toEqual([
      403,
      undefined,
      'Discount codes are for users with the MEDIA role',
    ]);
    // Keeping its own text is no clash.
    expect((await ivy.call('updateDiscountCode', { id: own.id, code: 'ivymine', percentOff: 6 })).status).toBe(200);
  });
});

describe('codes where they are applied', () => {
  async function miaItems(count: number) {
    return t.rows<{ identifier: string; price_cents: number }>`
      SELECT ci.identifier, ci.price_cents FROM content_items ci JOIN users u ON u.id = ci.owner_id
      WHERE u.profile_name = 'mia' AND ci.for_sale = 1 ORDER BY ci.identifier LIMIT ${count}`;
  }
  let buyers = 0;
  async function buyerWith(identifiers: string[]) {
    const name = `offers-buyer-${++buyers}`;
    const buyer = t.client();
    expect(
      (
        await buyer.call('signup', {
          username: `Offers buyer ${buyers}`,
          profileName: name,
          email: `${name}@example.com`,
          password: 'buyer-pass-2026',
        })
      ).status,
    ).toBe(201);
    for (const identifier of identifiers)
      expect((await buyer.call('addCartItem', { identifier, itemType: 'CONTENT' })).status).toBe(200);
    return buyer;
  }

  it("takes an amount code once off its seller's items, never below zero", async () => {
    const items = await miaItems(2);
    const subtotal = items.reduce((sum, item) => sum + Number(item.price_cents), 0);
    const buyer = await buyerWith(items.map((item) => item.identifier));
    await newCode(mia, { code: 'MIAFLAT7', amountOffCents: 700 });
    const applied = await buyer.call('applyDiscountCode', { code: 'miaflat7' });
    expect(applied.status).toBe(200);
    expect(applied.body.summary).toMatchObject({
      subtotalCents: subtotal,
      discountCents: 700,
      totalCents: subtotal - 700,
      discountCode: { code: 'MIAFLAT7', percentOff: 0, amountOffCents: 700, sellerProfileName: 'mia' },
    });

    await newCode(mia, { code: 'MIABIG', amountOffCents: subtotal + 10_000 });
    const capped = (await buyer.call('applyDiscountCode', { code: 'MIABIG' })).body.summary;
    expect(capped).toMatchObject({ discountCents: subtotal, totalCents: 0 });
  });

  it('refuses a withdrawn code in the cart, at checkout and in a booking', async () => {
    const [item] = await miaItems(1);
    const buyer = await buyerWith([present(item, 'an item of mia').identifier]);
    const code = await newCode(mia, { code: 'MIAGONE', percentOff: 30 });
    expect((await buyer.call('applyDiscountCode', { code: 'MIAGONE' })).status).toBe(200);
    expect((await mia.call('withdrawDiscountCode', { id: code.id })).status).toBe(200);

    const summary = (await buyer.call('getCartSummary')).body.summary;
    expect(summary).toMatchObject({ discountCents: 0, codeProblem: 'The code MIAGONE is no longer active' });
    expect(refusal(await buyer.call('applyDiscountCode', { code: 'MIAGONE' }))).toEqual([
      400,
      'code',
      'The code MIAGONE is no longer active',
    ]);
    expect(refusal(await buyer.call('checkout'))).toEqual([
      409,
      'code',
      'The code MIAGONE is no longer active: remove it to check out',
    ]);

    const pkg = await newPackage(ivy, { name: 'Booth' });
    const ivyCode = await newCode(ivy, { code: 'IVYOFF', percentOff: 10 });
    await ivy.call('withdrawDiscountCode', { id: ivyCode.id });
    expect(refusal(await clara.call('bookPhotographer', booking(pkg.id, { discountCode: 'ivyoff' })))).toEqual([
      400,
      'discountCode',
      'The code IVYOFF is no longer active',
    ]);
  });

  it('takes an amount code off a booking, at most the package price', async () => {
    const pkg = await newPackage(ivy, { name: 'Mini', priceCents: 20000 });
    await newCode(ivy, { code: 'IVYFLAT', amountOffCents: 3000 });
    await newCode(ivy, { code: 'IVYFREE', amountOffCents: 50000 });
    for (const [code, total] of [
      ['IVYFLAT', 17000],
      ['IVYFREE', 0],
    ] as const) {
      const booked = await clara.call('bookPhotographer', booking(pkg.id, { discountCode: code }));
      expect(booked.status, booked.body.error).toBe(200);
      const orderId = present(booked.body.orderId, 'the order');
      const details = (await clara.call('getEventOrderDetails', { orderId })).body;
      expect([details.discountCode, details.payment?.totalCents]).toEqual([code, total]);
    }
  });
});
