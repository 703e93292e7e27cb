import { describe, expect, it } from 'vitest';
import { stripLocationFromBuffer } from '../src/files/stripLocation.js';
import { WEBHOOK_PATH } from '../src/payments/routes.js';
import { present, type TestApi, type TestClient, useTestApi } from './harness.js';
import { paidEvent, sendWebhook } from './webhooks.js';

const t = useTestApi();

/** A new account, signed in: each test buys as its own, so none shares a cart or what another bought. */
let buyers = 0;
async function newBuyer(api: TestApi): Promise<{ name: string; client: TestClient }> {
  const name = `buyer-${++buyers}`;
  const client = api.client();
  const res = await client.call('signup', {
    username: `Buyer ${buyers}`,
    profileName: name,
    email: `${name}@example.com`,
    password: 'buyer-pass-2026',
  });
  expect(res.status).toBe(201);
  return { name, client };
}

/**
 * Items for sale by `seller` at the seeded price. Each test buys as a new account, so tests may
 * buy the same items; one that changes an item (its price, its sale) takes it from the others.
 */
const taken = new Set<string>();
async function itemsOf(api: TestApi, seller: string, count: number): Promise<string[]> {
  const rows = await api.rows<{ identifier: string }>`
    SELECT ci.identifier FROM content_items ci JOIN users u ON u.id = ci.owner_id
    WHERE u.profile_name = ${seller} AND ci.for_sale = 1 ORDER BY ci.identifier`;
  const free = rows.map((row) => row.identifier).filter((id) => !taken.has(id));
  const picked = free.slice(0, count);
  if (picked.length < count) throw new Error(`not enough items of ${seller}`);
  return picked;
}

/** Keeps `identifiers` from other tests, as this one changes them. */
function claim(...identifiers: (string | undefined)[]) {
  for (const id of identifiers) if (id) taken.add(id);
}

async function fill(client: TestClient, identifiers: string[]) {
  for (const identifier of identifiers)
    expect((await client.call('addCartItem', { identifier, itemType: 'CONTENT' })).status).toBe(200);
}

async function purchaseRow(api: TestApi, purchaseNumber: string) {
  const [row] = await api.rows<{ status: string; total_cents: number }>`
    SELECT status, total_cents FROM purchases WHERE purchase_number = ${purchaseNumber}`;
  return row;
}

async function entitlementsOf(api: TestApi, profileName: string) {
  const rows = await api.rows<{ content_identifier: string }>`
    SELECT e.content_identifier FROM entitlements e JOIN users u ON u.id = e.user_id
    WHERE u.profile_name = ${profileName} ORDER BY e.content_identifier`;
  return rows.map((row) => row.content_identifier);
}

describe('prices and the cart summary', () => {
  it('gives every item its price and currency, and sums the cart on the server', async () => {
    const api = t();
    const { client } = await newBuyer(api);
    const event = await client.call('getEvent', { eventIdentifier: 'summer-jazz-night-2026' });
    const item = event.body.contentItems.find((candidate) => candidate.canAddToCart);
    expect(item).toMatchObject({ priceCents: expect.any(Number), currency: 'USD' });

    const [a, b] = await itemsOf(api, 'mia', 2);
    claim(a);
    await fill(client, [a as string, b as string]);
    await api.rows`UPDATE content_items SET price_cents = 1999 WHERE identifier = ${a}`;
    const { body } = await client.call('getCartSummary');
    expect(body.summary).toMatchObject({
      currency: 'USD',
      itemCount: 2,
      subtotalCents: 1999 + 1500,
      discountCents: 0,
      totalCents: 1999 + 1500,
      discountCode: null,
    });
  });

  it("applies a photographer's code to that photographer's items only, once however often it is applied", async () => {
    const api = t();
    const { client } = await newBuyer(api);
    const [mias] = await itemsOf(api, 'mia', 1);
    const [maxs] = await itemsOf(api, 'max', 1);
    await fill(client, [mias as string, maxs as string]);
    const first = await client.call('applyDiscountCode', { code: 'mia10' });
    expect(first.status).toBe(200);
    expect(first.body.summary).toMatchObject({
      subtotalCents: 3000,
      discountCents: 150,
      totalCents: 2850,
      discountCode: { code: 'MIA10', percentOff: 10, sellerProfileName: 'mia' },
    });
    const again = await client.call('applyDiscountCode', { code: 'MIA10' });
    expect(again.body.summary).toEqual(first.body.summary);
    const removed = await client.call('removeDiscountCode');
    expect(removed.body.summary).toMatchObject({ discountCents: 0, totalCents: 3000, discountCode: null });
  });

  it('refuses unknown, expired, used-up, inactive codes and codes for none of the cart, each with its reason', async () => {
    const api = t();
    const { client } = await newBuyer(api);
    const [maxs] = await itemsOf(api, 'max', 1);
    await fill(client, [maxs as string]);
    const reasonOf = async (code: string) => {
      const res = await client.call('applyDiscountCode', { code });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('code');
      return res.body.error;
    };
    expect(await reasonOf('NOPE')).toBe('There is no discount code NOPE');
    expect(await reasonOf('MIA10')).toMatch(/applies to its photographer's items only/);
    await api.rows`UPDATE discount_codes SET expires_at = ${new Date(Date.now() - 1000).toISOString()} WHERE code = 'LEO10'`;
    await api.rows`UPDATE discount_codes SET max_uses = 2, times_used = 2 WHERE code = 'MAXWINTER25'`;
    await api.rows`UPDATE discount_codes SET active = 0 WHERE code = 'BEN10'`;
    expect(await reasonOf('MAXWINTER25')).toBe('The code MAXWINTER25 has been used up');
    await api.rows`UPDATE discount_codes SET max_uses = NULL, times_used = 0 WHERE code = 'MAXWINTER25'`;
    // Expired and inactive codes of max's, reusing his code row for each state.
    await api.rows`UPDATE discount_codes SET expires_at = ${new Date(Date.now() - 1000).toISOString()} WHERE code = 'MAX10'`;
    expect(await reasonOf('MAX10')).toBe('The code MAX10 has expired');
    await api.rows`UPDATE discount_codes SET expires_at = NULL, active = 0 WHERE code = 'MAX10'`;
    expect(await reasonOf('MAX10')).toBe('The code MAX10 is no longer active');
    expect((await client.call('getCartSummary')).body.summary.discountCode).toBeNull();
  });
});

describe('checkout', () => {
  it('asks a visitor to log in', async () => {
    const visitor = t().client();
    expect((await visitor.call('checkout')).status).toBe(401);
  });

  it('snapshots prices and discount, ignoring any price or total in the request', async () => {
    const api = t();
    const { client } = await newBuyer(api);
    const [a] = await itemsOf(api, 'mia', 1);
    claim(a);
    await fill(client, [a as string]);
    await client.call('applyDiscountCode', { code: 'MIAWINTER25' });
    const res = await client.fetch('/v2/checkout', {
      method: 'POST',
      body: new URLSearchParams({ totalCents: '1', priceCents: '1' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    const { purchase } = res.body as { purchase: { purchaseNumber: string; totalCents: number; payUrl: string } };
    expect(purchase).toMatchObject({ status: 'open', subtotalCents: 1500, discountCents: 375, totalCents: 1125 });
    expect(purchase.payUrl).toContain(`/payments/pay/${purchase.purchaseNumber}`);
    await api.rows`UPDATE content_items SET price_cents = 9900 WHERE identifier = ${a}`;
    const receipt = await client.call('getPurchase', { purchaseNumber: purchase.purchaseNumber });
    expect(receipt.body.purchase.items).toEqual([
      expect.objectContaining({ identifier: a, priceCents: 1500, discountCents: 375, amountCents: 1125 }),
    ]);
  });

  it('makes one purchase of 50 checkouts of one cart at once, and the same again on a retry', async () => {
    const api = t();
    const { client } = await newBuyer(api);
    await fill(client, await itemsOf(api, 'mia', 2));
    const answers = await Promise.all(Array.from({ length: 50 }, () => client.call('checkout')));
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(200));
    const numbers = new Set(answers.map((res) => res.body.purchase.purchaseNumber));
    expect(numbers.size).toBe(1);
    const again = await client.call('checkout');
    expect(numbers.has(again.body.purchase.purchaseNumber)).toBe(true);
    const [count] = await api.rows<{ n: number | string }>`
      SELECT count(*) AS n FROM purchases WHERE purchase_number = ${again.body.purchase.purchaseNumber} OR status = 'open'
      AND buyer_id = (SELECT buyer_id FROM purchases WHERE purchase_number = ${again.body.purchase.purchaseNumber})`;
    expect(Number(count?.n)).toBe(1);
  });

  it('refuses items withdrawn or already owned with a plain reason, and buys the rest', async () => {
    const api = t();
    const { name, client } = await newBuyer(api);
    const [owned, withdrawn, fine] = await itemsOf(api, 'max', 3);
    claim(withdrawn);
    await fill(client, [owned as string]);
    const first = await client.call('checkout');
    expect((await sendWebhook(api, paidEvent(first.body.purchase.purchaseNumber, 1500).payload)).body.outcome).toBe(
      'paid',
    );
    // Owned now; put back into the cart the way a stale tab would.
    await api.rows`INSERT INTO cart_items (owner_key, identifier, item_type, added_at)
      SELECT 'u:' || id, ${owned}, 'CONTENT', ${new Date().toISOString()} FROM users WHERE profile_name = ${name}`;
    await fill(client, [withdrawn as string, fine as string]);
    await api.rows`UPDATE content_items SET for_sale = 0 WHERE identifier = ${withdrawn}`;
    const res = await client.call('checkout');
    expect(res.status).toBe(200);
    expect(res.body.refused).toEqual(
      expect.arrayContaining([
        { identifier: owned, name: expect.any(String), reason: 'You already own this item' },
        { identifier: withdrawn, name: expect.any(String), reason: 'This item is no longer for sale' },
      ]),
    );
    expect(res.body.purchase.items.map((line) => line.identifier)).toEqual([fine]);
    expect((await client.call('getCart')).body.cart.map((item) => item.identifier)).toEqual([fine]);
  });
});

describe('the payment webhook', () => {
  async function openPurchase(api: TestApi, seller: string) {
    const { name, client } = await newBuyer(api);
    const items = await itemsOf(api, seller, 1);
    await fill(client, items);
    const { body } = await client.call('checkout');
    return { name, client, items, purchase: body.purchase };
  }

  it('refuses a bad signature, another secret and a stale timestamp with 400, changing nothing', async () => {
    const api = t();
    const { name, purchase } = await openPurchase(api, 'mia');
    const event = paidEvent(purchase.purchaseNumber, purchase.totalCents);
    const forged = await sendWebhook(api, event.payload, { secret: 'whsec_not_the_secret' });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toMatch(/signature/i);
    const stale = await sendWebhook(api, event.payload, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(400);
    const unsigned = await fetch(`${api.url}${WEBHOOK_PATH}`, { method: 'POST', body: event.payload });
    expect(unsigned.status).toBe(400);
    expect((await purchaseRow(api, purchase.purchaseNumber))?.status).toBe('open');
    expect(await entitlementsOf(api, name)).toEqual([]);
    // The same event, signed and on time, is still taken: nothing was recorded of the refused ones.
    expect((await sendWebhook(api, event.payload)).body.outcome).toBe('paid');
  });

  it('acts once on an event delivered twice, and twice at once', async () => {
    const api = t();
    const { name, purchase, items } = await openPurchase(api, 'max');
    const event = paidEvent(purchase.purchaseNumber, purchase.totalCents);
    const outcomes = await Promise.all([sendWebhook(api, event.payload), sendWebhook(api, event.payload)]);
    expect(outcomes.map((o) => o.body.outcome).sort()).toEqual(['paid', 'replayed']);
    expect((await sendWebhook(api, event.payload)).body.outcome).toBe('replayed');
    // A second, different event for the same payment (Stripe sends several) grants nothing more.
    expect((await sendWebhook(api, paidEvent(purchase.purchaseNumber, purchase.totalCents).payload)).body.outcome).toBe(
      'already settled',
    );
    expect(await entitlementsOf(api, name)).toEqual(items);
    const notices = await api.rows<{ content: string }>`
      SELECT n.content FROM notifications n JOIN users u ON u.id = n.user_id
      WHERE u.profile_name = ${name} AND n.content LIKE 'Payment received%'`;
    expect(notices).toHaveLength(1);
  });

  it('flags a payment whose amount or currency does not match, granting nothing', async () => {
    const api = t();
    const { name, purchase } = await openPurchase(api, 'max');
    const short = await sendWebhook(api, paidEvent(purchase.purchaseNumber, purchase.totalCents - 1).payload);
    expect(short.body.outcome).toBe('flagged');
    expect((await purchaseRow(api, purchase.purchaseNumber))?.status).toBe('flagged');
    expect(await entitlementsOf(api, name)).toEqual([]);
    const other = await openPurchase(api, 'max');
    const euros = await sendWebhook(
      api,
      paidEvent(other.purchase.purchaseNumber, other.purchase.totalCents, 'EUR').payload,
    );
    expect(euros.body.outcome).toBe('flagged');
  });

  it('does not undo a payment when the expiry arrives after it', async () => {
    const api = t();
    const { purchase } = await openPurchase(api, 'mia');
    await sendWebhook(api, paidEvent(purchase.purchaseNumber, purchase.totalCents).payload);
    const expired = JSON.stringify({
      id: 'evt_test_expired_after_paid',
      object: 'event',
      type: 'checkout.session.expired',
      data: {
        object: { id: 'cs_x', object: 'checkout.session', metadata: { purchaseNumber: purchase.purchaseNumber } },
      },
    });
    expect((await sendWebhook(api, expired)).body.outcome).toBe('ignored');
    expect((await purchaseRow(api, purchase.purchaseNumber))?.status).toBe('paid');
  });

  it('pays in one transaction: entitlements, the cart emptied of them, the code counted, buyer and seller told', async () => {
    const api = t();
    const { name, client } = await newBuyer(api);
    const items = await itemsOf(api, 'mia', 2);
    await fill(client, items);
    await client.call('applyDiscountCode', { code: 'MIA10' });
    const [before] = await api.rows<{ times_used: number }>`SELECT times_used FROM discount_codes WHERE code = 'MIA10'`;
    const { purchase } = (await client.call('checkout')).body;
    expect((await sendWebhook(api, paidEvent(purchase.purchaseNumber, purchase.totalCents).payload)).body.outcome).toBe(
      'paid',
    );
    expect(await entitlementsOf(api, name)).toEqual([...items].sort());
    expect((await client.call('getCart')).body.cart).toEqual([]);
    const [after] = await api.rows<{ times_used: number }>`SELECT times_used FROM discount_codes WHERE code = 'MIA10'`;
    expect(Number(after?.times_used)).toBe(Number(before?.times_used) + 1);
    const mia = await api.as('mia');
    const notices = (await mia.call('getNotifications')).body.notifications.map((n) => n.content);
    expect(notices.some((content) => content.startsWith(`${name} bought`))).toBe(true);
    const receipt = (await client.call('getPurchase', { purchaseNumber: purchase.purchaseNumber })).body.purchase;
    expect(receipt).toMatchObject({
      status: 'paid',
      payUrl: null,
      paymentReference: expect.stringMatching(/^pi_test_/),
    });
    const sales = (await mia.call('getSales')).body;
    const sale = sales.sales.find((s) => s.purchaseNumber === purchase.purchaseNumber);
    expect(sale).toMatchObject({ buyerProfileName: name, amountCents: 1350, feeCents: 203, payoutCents: 1147 });
    expect(sales.months[0]).toMatchObject({ month: new Date().toISOString().slice(0, 7) });
    // Another buyer's receipt is not found.
    expect((await mia.call('getPurchase', { purchaseNumber: purchase.purchaseNumber })).status).toBe(404);
  });
});

describe('the test payment page and downloads', () => {
  it('declines the declined card leaving the cart, pays the good one, and lets the buyer alone download', async () => {
    const api = t();
    const { client } = await newBuyer(api);
    const items = await itemsOf(api, 'max', 2);
    await fill(client, items);
    const { purchase } = (await client.call('checkout')).body;
    const pay = await fetch(purchase.payUrl as string, {
      headers: { cookie: client.cookieHeader },
      redirect: 'manual',
    });
    expect(pay.status).toBe(303);
    const pageUrl = pay.headers.get('location') as string;
    const page = await client.fetch(pageUrl);
    expect(page.body.text).toContain('Test payment: no money moves');

    const post = (card: string) =>
      fetch(pageUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: client.cookieHeader, 'Content-Type': 'application/x-www-form-urlencoded', origin: api.url },
        body: new URLSearchParams({ card }),
      });
    const declined = await post('4000 0000 0000 0002');
    expect(declined.status).toBe(200);
    expect(await declined.text()).toContain('Your card was declined');
    expect((await purchaseRow(api, purchase.purchaseNumber))?.status).toBe('open');
    expect((await client.call('getCart')).body.cart).toHaveLength(2);

    const paid = await post('4242 4242 4242 4242');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://localhost:3000/receipt/${purchase.purchaseNumber}`);
    expect((await purchaseRow(api, purchase.purchaseNumber))?.status).toBe('paid');

    const owned = (await client.call('getPurchases')).body;
    expect(owned.items.map((item) => item.identifier).sort()).toEqual([...items].sort());
    const link = owned.items[0]?.downloadUrl as string;
    const mine = await fetch(link, { headers: { cookie: client.cookieHeader } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-disposition')).toMatch(/^attachment/);
    expect((await mine.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const other = await api.as('clara');
    expect((await fetch(link, { headers: { cookie: other.cookieHeader } })).status).toBe(403);
    const forged = new URL(link);
    forged.searchParams.set('u', String(Number(forged.searchParams.get('u')) + 1));
    expect((await fetch(forged)).status).toBe(403);
    const expired = new URL(link);
    expired.searchParams.set('exp', '1000');
    // A changed expiry breaks the signature: a link signed with a past expiry is what expires.
    expect((await fetch(expired)).status).toBe(403);

    const zip = await fetch(owned.downloadAllUrl as string, { headers: { cookie: client.cookieHeader } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304');
  });

  it('asks to confirm with the card that needs it: refused leaves it open, confirmed pays it', async () => {
    const api = t();
    const { client } = await newBuyer(api);
    await fill(client, await itemsOf(api, 'mia', 1));
    const { purchase } = (await client.call('checkout')).body;
    const pay = await fetch(purchase.payUrl as string, {
      headers: { cookie: client.cookieHeader },
      redirect: 'manual',
    });
    const pageUrl = pay.headers.get('location') as string;
    const post = (fields: Record<string, string>) =>
      fetch(pageUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: client.cookieHeader, 'Content-Type': 'application/x-www-form-urlencoded', origin: api.url },
        body: new URLSearchParams(fields),
      });
    const asked = await post({ card: '4000002500003155' });
    expect(await asked.text()).toContain('Confirm this payment');
    expect((await purchaseRow(api, purchase.purchaseNumber))?.status).toBe('open');
    const refused = await post({ card: '4000002500003155', confirm: 'no' });
    expect(await refused.text()).toContain('The payment was not confirmed');
    expect((await purchaseRow(api, purchase.purchaseNumber))?.status).toBe('open');
    expect((await post({ card: '4000002500003155', confirm: 'yes' })).status).toBe(303);
    expect((await purchaseRow(api, purchase.purchaseNumber))?.status).toBe('paid');
    // Another account cannot open or post to this purchase's page.
    const other = await newBuyer(api);
    expect((await fetch(pageUrl, { headers: { cookie: other.client.cookieHeader } })).status).toBe(404);
  });

  it('answers 410 for a download link past its time', async () => {
    const { purchaseDownloadLinks } = await import('../src/files/purchaseLinks.js');
    const api = t();
    const { name, client } = await newBuyer(api);
    const items = await itemsOf(api, 'mia', 1);
    await fill(client, items);
    const { purchase } = (await client.call('checkout')).body;
    await sendWebhook(api, paidEvent(purchase.purchaseNumber, purchase.totalCents).payload);
    const [user] = await api.rows<{ id: number }>`SELECT id FROM users WHERE profile_name = ${name}`;
    const old = purchaseDownloadLinks(api.config.fileLinkKey).url(
      api.config.filesOrigin,
      Number(user?.id),
      items[0] as string,
      Date.now() - 3 * 3600_000,
    );
    const res = await fetch(old, { headers: { cookie: client.cookieHeader } });
    expect(res.status).toBe(410);
  });

  it("gives a video's buyer its original, the file its creator uploaded without its user data, and nobody else", async () => {
    const api = t();
    const { name, client } = await newBuyer(api);
    const [video] = await api.rows<{ identifier: string; file_path: string; content_type: string; owner: string }>`
      SELECT ci.identifier, ci.file_path, ci.content_type, u.profile_name AS owner FROM content_items ci JOIN users u ON u.id = ci.owner_id
      WHERE ci.content_type LIKE 'video/%' AND ci.for_sale = 1 ORDER BY ci.identifier LIMIT 1`;
    if (!video) throw new Error('no video for sale in the seed');
    const viewOf = async (viewer: TestClient) =>
      (await viewer.call('getProfile', { profileName: video.owner })).body.contentItems.find(
        (item) => item.contentIdentifier === video.identifier,
      );
    expect((await viewOf(client))?.originalUrl).toBeNull();

    await fill(client, [video.identifier]);
    const { purchase } = (await client.call('checkout')).body;
    expect((await sendWebhook(api, paidEvent(purchase.purchaseNumber, purchase.totalCents).payload)).status).toBe(200);
    expect(await entitlementsOf(api, name)).toEqual([video.identifier]);

    const source = await api.api.services.files.open(video.file_path);
    if (!source) throw new Error(`${video.file_path} is not in the store`);
    const uploaded = Buffer.from(await new Response(source.body).arrayBuffer());
    const bought = (await client.call('getPurchases')).body.items.find((item) => item.identifier === video.identifier);
    const original = present((await viewOf(client))?.originalUrl, "the buyer's original link");
    for (const link of [present(bought?.downloadUrl, 'the purchase download'), original]) {
      const answer = await fetch(link, { headers: { cookie: client.cookieHeader } });
      expect([answer.status, answer.headers.get('content-disposition')?.startsWith('attachment')], link).toEqual([
        200,
        true,
      ]);
      // Where it was filmed (its user data, e.g. a phone's location) blanked in place: same length,
      // every other byte as uploaded (files/stripLocation.ts).
      const got = Buffer.from(await answer.arrayBuffer());
      expect(got.length, link).toBe(uploaded.length);
      expect(got.equals(stripLocationFromBuffer(uploaded, video.content_type)), link).toBe(true);
    }
    // The buyer's link is the buyer's: another account's session is refused it.
    const clara = await api.as('clara');
    expect((await fetch(original, { headers: { cookie: clara.cookieHeader } })).status).toBe(403);
    // Another member is shown no original of it; its owner is, by a link to the item's file.
    expect((await viewOf(clara))?.originalUrl).toBeNull();
    const owners = present((await viewOf(await api.as(video.owner)))?.originalUrl, "the owner's original link");
    expect(owners).toMatch(new RegExp(`/files/content/${video.identifier}\\?f=original&`));
    const own = await fetch(owners);
    expect([own.status, own.headers.get('cache-control')]).toEqual([200, 'private, no-store']);
    expect(Buffer.from(await own.arrayBuffer()).equals(uploaded)).toBe(true);
  });
});
