import { describe, expect, it, vi } from 'vitest';
import { databaseTarget, openDatabase } from '../src/db/database.js';
import { MIGRATIONS } from '../src/db/migrations.js';
import { present, startTestApi, useTestApi } from './harness.js';

const countOf = (rows: { n: number }[]) => rows[0]?.n;

const t = useTestApi();

describe('persistence', () => {
  it('keeps what users changed across a restart, without seeding again', async () => {
    const users = async () => countOf(await t().rows<{ n: number }>`SELECT COUNT(*) AS n FROM users`);
    const signup = await t().client().call('signup', {
      username: 'Rita Restart',
      profileName: 'rita',
      email: 'rita@example.com',
      password: 'long-enough',
    });
    expect(signup.status).toBe(201);
    const clara = await t().as('clara');
    await clara.call('addCartItem', { identifier: 'ci-photo-006', itemType: 'CONTENT' });
    const first = present((await clara.call('getNotifications')).body.notifications[0], 'a notification');
    await clara.call('updateNotificationStatus', { status: 'READ', notificationId: first.id });
    await clara.call('updateEventOrderStatus', { orderId: 'ord-1003', status: 'CANCELLED' });
    const countBefore = await users();

    await t().restart();

    expect(await users()).toBe(countBefore);
    // The session survives too: the same cookie still works.
    expect((await clara.call('checkAuthentication')).status).toBe(200);
    expect((await clara.call('getCart')).body.cart.map((i: { identifier: string }) => i.identifier)).toEqual([
      'ci-photo-006',
    ]);
    const after = present(
      (await clara.call('getNotifications')).body.notifications.find((n) => n.id === first.id),
      'the same notification',
    );
    expect(after.status).toBe('READ');
    expect((await clara.call('getEventOrderDetails', { orderId: 'ord-1003' })).body.eventOrderInfo.status).toBe(
      'CANCELLED',
    );
    expect((await t().client().call('login', { login: 'rita', password: 'long-enough' })).status).toBe(200);
  });

  it('records every migration once, and reopening applies none again', async () => {
    const applied = async () =>
      (await t().rows<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`).map((row) => row.name);
    expect(await applied()).toEqual(MIGRATIONS.map(([name]) => name));
    const again = await openDatabase(databaseTarget(t().config));
    try {
      expect(await applied()).toEqual(MIGRATIONS.map(([name]) => name));
    } finally {
      await again.close();
    }
  });

  it('finishes the requests under way when it stops, and takes no new ones', async () => {
    // A failed login past the free ones is held back: 4 x 400 ms here, a request under way.
    const api = await startTestApi({ LOGIN_FAILURE_DELAY_MS: '400' });
    const client = api.client();
    for (let i = 0; i < 3; i++) await client.call('login', { login: 'mia', password: `guess-${i}` });
    const slow = client.call('login', { login: 'mia', password: 'guess-3' });
    // Under way: its attempt is written (one row for the account, one for the client) before it is held back.
    await vi.waitFor(async () => {
      const [written] = await api.rows<{ n: number | string }>`SELECT count(*) AS n FROM login_failures`;
      expect(Number(written?.n)).toBe(8);
    });
    const stopped = api.close();
    expect((await slow).status).toBe(401);
    await stopped;
    await expect(api.client().call('getEvents')).rejects.toThrow();
  });
});
