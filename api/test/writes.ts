/**
 * For the fault tests (an instance killed, the database restarted): users who write under a
 * load, and the check that every write the API acknowledged is there afterwards.
 */
import { expect } from 'vitest';
import type { TestClient } from './harness.js';

/** Users who own no photo, so every photo is theirs to buy. */
export const BUYERS = ['clara', 'dave', 'sam', 'tom', 'nora', 'zoe'];

/** Per user: the cart items whose add was answered 200, and the notifications answered 201. */
export interface Acknowledged {
  cart: Map<string, string[]>;
  notifications: Map<string, number[]>;
}

/** Every session still holds and every acknowledged cart add and notification is read back. */
export async function expectWritesKept(browsers: Map<string, TestClient>, acknowledged: Acknowledged): Promise<void> {
  for (const [name, browser] of browsers) {
    expect((await browser.call('checkAuthentication')).status).toBe(200);
    const cart = (await browser.call('getCart')).body.cart.map((item) => item.identifier);
    expect(cart).toEqual(expect.arrayContaining(acknowledged.cart.get(name) ?? []));
    const listed = new Set<number>();
    for (let pageNo = 0, more = true; more; pageNo++) {
      const page = await browser.call('getNotifications', { pageNo: String(pageNo), limit: '50' });
      for (const n of page.body.notifications) listed.add(n.id);
      more = page.body.more;
    }
    for (const id of acknowledged.notifications.get(name) ?? []) expect(listed.has(id)).toBe(true);
  }
  expect([...acknowledged.cart.values()].flat().length).toBeGreaterThan(0);
}
