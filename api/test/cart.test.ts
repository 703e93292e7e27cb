import { describe, expect, it } from 'vitest';
import { useTestApi } from './harness.js';

const t = useTestApi();

describe('cart', () => {
  it('adds an item from a form body and returns the cart with what /cart shows', async () => {
    const dave = await t().as('dave');
    expect((await dave.call('getCart')).body).toEqual({ cart: [] });
    const res = await dave.call('addCartItem', { identifier: 'ci-photo-001', itemType: 'CONTENT' });
    expect(res.status).toBe(200);
    expect(res.body.cart).toEqual([
      expect.objectContaining({
        identifier: 'ci-photo-001',
        itemType: 'CONTENT',
        name: 'Stage lights',
        eventName: 'Summer Jazz Night',
        priceCents: 1500,
      }),
    ]);
    expect((await dave.call('getCart')).body.cart).toHaveLength(1);
  });

  it('refuses an item already in the cart with 409 "Item already in cart"', async () => {
    const sam = await t().as('sam');
    await sam.call('addCartItem', { identifier: 'ci-photo-002', itemType: 'CONTENT' });
    const again = await sam.call('addCartItem', { identifier: 'ci-photo-002', itemType: 'CONTENT' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Item already in cart');
    expect((await sam.call('getCart')).body.cart).toHaveLength(1);
  });

  it('refuses unknown items, items not for sale, your own items and unknown item types', async () => {
    const tom = await t().as('tom');
    expect((await tom.call('addCartItem', { identifier: 'ci-nope', itemType: 'CONTENT' })).status).toBe(404);
    // Every fifth seeded photo is not for sale.
    expect((await tom.call('addCartItem', { identifier: 'ci-photo-005', itemType: 'CONTENT' })).status).toBe(400);
    expect((await tom.call('addCartItem', { identifier: 'ci-photo-001', itemType: 'TICKET' })).body.field).toBe(
      'itemType',
    );
    const mia = await t().as('mia');
    const own = await mia.call('addCartItem', { identifier: 'ci-photo-001', itemType: 'CONTENT' });
    expect(own.status).toBe(400);
    expect(own.body.error).toMatch(/own item/);
  });

  it('removes an item, and answers 404 for one that is not there', async () => {
    const ben = await t().as('ben');
    await ben.call('addCartItem', { identifier: 'ci-photo-003', itemType: 'CONTENT' });
    const res = await ben.call('removeCartItem', { identifier: 'ci-photo-003' });
    expect(res.status).toBe(200);
    expect(res.body.cart).toEqual([]);
    expect((await ben.call('removeCartItem', { identifier: 'ci-photo-003' })).status).toBe(404);
  });

  it('takes the form encoding only', async () => {
    const ana = await t().as('ana');
    const form = new FormData();
    form.append('identifier', 'ci-photo-001');
    form.append('itemType', 'CONTENT');
    const res = await ana.fetch('/v2/user/cart/addItem', { method: 'POST', body: form });
    expect(res.status).toBe(415);
    expect((await ana.call('getCart')).body.cart).toEqual([]);
  });

  it("keeps a visitor's cart under a guest cookie and moves it into the account at log in", async () => {
    const visitor = t().client();
    const added = await visitor.call('addCartItem', { identifier: 'ci-photo-004', itemType: 'CONTENT' });
    expect(added.status).toBe(200);
    expect(visitor.cookies.has('guestCart')).toBe(true);
    expect((await visitor.call('getCart')).body.cart.map((i: { identifier: string }) => i.identifier)).toEqual([
      'ci-photo-004',
    ]);
    await visitor.call('login', { login: 'leo', password: 'demo-pass-2026' });
    expect(visitor.cookies.has('guestCart')).toBe(false);
    expect((await visitor.call('getCart')).body.cart.map((i: { identifier: string }) => i.identifier)).toEqual([
      'ci-photo-004',
    ]);
  });
});
