/**
 * A buyer's originals, one by one and as the ZIP of everything bought, come without where the
 * picture was taken: the creator's location stays with the creator. The coded pixels are the
 * file's own, byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { cameraPhoto, hasDemoLocation, jpegScan } from '../src/media/clips.js';
import { present, useTestApi } from './harness.js';
import { paidEvent, sendWebhook } from './webhooks.js';

const t = useTestApi();

describe("a buyer's download of a photo's original", () => {
  it('has no location, in the single download and in the ZIP, and the pixels are unchanged', async () => {
    const api = t();
    const buyer = api.client();
    expect(
      (
        await buyer.call('signup', {
          username: 'Located Buyer',
          profileName: 'located-buyer',
          email: 'located-buyer@example.com',
          password: 'buyer-pass-2026',
        })
      ).status,
    ).toBe(201);
    const [item] = await api.rows<{ identifier: string; file_path: string }>`
      SELECT identifier, file_path FROM content_items
      WHERE for_sale = 1 AND content_type LIKE 'image/%' ORDER BY identifier LIMIT 1`;
    if (!item) throw new Error('no picture for sale in the seed');
    // The creator's original, as a phone writes one: a JPEG with where it was taken.
    const photo = await cameraPhoto({ width: 800, height: 600, seed: 5 });
    expect(hasDemoLocation(photo)).toBe(true);
    await api.api.services.files.put(item.file_path, photo, 'image/jpeg');
    await api.rows`UPDATE content_items SET content_type = 'image/jpeg' WHERE identifier = ${item.identifier}`;

    expect((await buyer.call('addCartItem', { identifier: item.identifier, itemType: 'CONTENT' })).status).toBe(200);
    const { purchase } = (await buyer.call('checkout')).body;
    expect((await sendWebhook(api, paidEvent(purchase.purchaseNumber, purchase.totalCents).payload)).status).toBe(200);
    const owned = (await buyer.call('getPurchases')).body;
    const bought = present(
      owned.items.find((x) => x.identifier === item.identifier),
      'the bought item',
    );

    const single = await fetch(present(bought.downloadUrl, 'its download'), {
      headers: { cookie: buyer.cookieHeader },
    });
    expect([single.status, single.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const bytes = Buffer.from(await single.arrayBuffer());
    expect(hasDemoLocation(bytes)).toBe(false);
    expect(bytes.includes('Seed Camera')).toBe(false);
    expect(jpegScan(bytes).equals(jpegScan(photo))).toBe(true);

    const zip = await fetch(present(owned.downloadAllUrl, 'the ZIP'), { headers: { cookie: buyer.cookieHeader } });
    expect(zip.status).toBe(200);
    const zipped = Buffer.from(await zip.arrayBuffer());
    // Stored, not compressed: the entry's bytes are in the ZIP as they are.
    expect(zipped.includes(jpegScan(photo))).toBe(true);
    expect(hasDemoLocation(zipped)).toBe(false);
  });
});
