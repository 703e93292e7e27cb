import { describe, expect, it } from 'vitest';
import type { Notification, NotificationCounts } from '@marketplace/shared/contract';
import { pageAt } from '@marketplace/shared/platform';
import { ADMIN_TOKEN, present, useTestApi, type TestClient } from './harness.js';

const t = useTestApi();

/** Every page of `client`'s notification centre, `limit` at a time, and `between` run after each page. */
async function allPages(
  client: TestClient,
  limit: number,
  between: (pageNo: number) => Promise<void> = async () => {},
) {
  const pages: Notification[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await client.call('listNotifications', cursor === undefined ? { limit } : { cursor, limit });
    expect(res.status).toBe(200);
    pages.push(res.body.notifications);
    await between(pages.length - 1);
    if (res.body.nextCursor === null) return pages;
    cursor = res.body.nextCursor;
  }
}

const counts = async (client: TestClient): Promise<NotificationCounts> =>
  (await client.call('listNotifications', { limit: 1 })).body.counts;

/** Creates a notification as the operator's `notify` command does (stored, then published live). */
async function notify(profileName: string, content: string): Promise<Notification> {
  const res = await t()
    .client()
    .fetch<Notification>('/internal/notify', {
      method: 'POST',
      body: JSON.stringify({ profileName, content, link: null }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    });
  expect(res.status).toBe(201);
  return res.body;
}

const ids = (list: Notification[]) => list.map((n) => n.id);

describe('the demo notifications', () => {
  it('read as sentences and link to the page of the thing they name, which opens for their user', async () => {
    const rows = await t().rows<{ profile_name: string; content: string; link: string | null }>`
      SELECT u.profile_name, n.content, n.link FROM notifications n JOIN users u ON u.id = n.user_id
      ORDER BY n.id`;
    // Clara's 14, and two for each of four others; this runs before the tests below change any.
    expect(rows).toHaveLength(14 + 4 * 2);
    const clients = new Map<string, TestClient>();
    for (const { profile_name: who, content, link } of rows) {
      expect(content, content).not.toMatch(/^Update \d+:/);
      expect(content, content).toMatch(/^[A-Z].*[.!]$/);
      const href = present(link, `a link on "${content}"`);
      // An order named in the text opens that order, not the list of orders.
      const orderId = /\bord-\d+\b/.exec(content)?.[0];
      expect(orderId && href, content).toBe(orderId && `/eventorder/${orderId}`);
      const page = present(pageAt(href), `a page at ${href}`);
      expect(['orders', 'home', 'events'], `${content} -> ${href}`).not.toContain(page.key);
      const client = clients.get(who) ?? (await t().as(who));
      clients.set(who, client);
      for (const call of page.calls({ pathname: href, search: '' })) {
        const res = await client.call(call.name, (call.request ?? {}) as Record<string, unknown>);
        expect(res.status, `${who}: ${content} -> ${href} (${call.name})`).toBe(200);
      }
    }
  });
});

describe('the notification centre', () => {
  it('pages through every notification newest first by cursor, with the counts of each state', async () => {
    const clara = await t().as('clara');
    const pages = await allPages(clara, 5);
    expect(pages.map((p) => p.length)).toEqual([5, 5, 4]);
    const all = pages.flat();
    const order = all.map((n) => `${n.timestamp} ${String(n.id).padStart(9, '0')}`);
    expect([...order].sort().reverse()).toEqual(order);
    expect(new Set(ids(all)).size).toBe(14);
    // The dropdown's own call lists the same notifications in the same order.
    const dropdown = [
      ...(await clara.call('getNotifications')).body.notifications,
      ...(await clara.call('getNotifications', { pageNo: 1, limit: 10 })).body.notifications,
    ];
    expect(ids(all)).toEqual(ids(dropdown));
    expect(await counts(clara)).toEqual({ total: 14, new: 12, unread: 13 });
  });

  it('neither repeats nor skips an entry when a notification arrives, or one is removed, between pages', async () => {
    const clara = await t().as('clara');
    const before = ids((await allPages(clara, 20))[0] ?? []);
    const removed = present(before[1], "clara's second notification");
    let arrived: Notification | undefined;
    let removal = 0;
    const pages = await allPages(clara, 4, async (pageNo) => {
      if (pageNo === 0) arrived = await notify('clara', 'Arrived while paging');
      if (pageNo === 1) removal = (await clara.call('deleteNotification', { notificationId: removed })).status;
    });
    expect(removal).toBe(200);
    expect(ids(pages.flat())).toEqual(before);
    // Paging again from the top shows the new one first.
    const top = (await clara.call('listNotifications', { limit: 4 })).body.notifications;
    expect(top[0]).toMatchObject({ id: present(arrived, 'the new notification').id, status: 'NEW' });
    expect(ids(top)).not.toContain(removed);
  });

  it('marks all as read: NEW and UNREAD become READ, only the caller’s, and a second time changes nothing', async () => {
    const [clara, dave] = [await t().as('clara'), await t().as('dave')];
    const claraBefore = await counts(clara);
    const daveBefore = await counts(dave);
    expect(claraBefore.unread).toBeGreaterThan(0);
    expect(daveBefore.unread).toBeGreaterThan(0);
    const res = await clara.call('markAllNotificationsRead');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated: claraBefore.unread });
    expect(await counts(clara)).toEqual({ total: claraBefore.total, new: 0, unread: 0 });
    // The dropdown's call and badge agree: nothing NEW, nothing bold.
    const dropdown = (await clara.call('getNotifications', { pageNo: 0, limit: 50 })).body.notifications;
    expect(new Set(dropdown.map((n) => n.status))).toEqual(new Set(['READ']));
    expect(await counts(dave)).toEqual(daveBefore);
    expect((await clara.call('markAllNotificationsRead')).body).toEqual({ updated: 0 });
  });

  it("lets another user neither read nor mark one's notifications, even with one's cursor", async () => {
    const [max, olga] = [await t().as('max'), await t().as('olga')];
    const maxFirst = await max.call('listNotifications', { limit: 1 });
    const maxIds = ids((await allPages(max, 50)).flat());
    const maxCounts = await counts(max);
    expect(maxCounts.new).toBeGreaterThan(0);

    const olgaList = (await allPages(olga, 50)).flat();
    expect(olgaList.length).toBeGreaterThan(0);
    expect(ids(olgaList).filter((id) => maxIds.includes(id))).toEqual([]);
    // A cursor says where a list ended, not whose list: with max's, olga still gets her own.
    const cursor = present(maxFirst.body.nextCursor, "max's next cursor");
    const viaCursor = (await olga.call('listNotifications', { cursor, limit: 50 })).body.notifications;
    expect(ids(viaCursor).filter((id) => maxIds.includes(id))).toEqual([]);

    expect((await olga.call('markAllNotificationsRead')).status).toBe(200);
    const target = present(maxIds[0], "max's notification");
    expect((await olga.call('updateNotificationStatus', { status: 'READ', notificationId: target })).status).toBe(404);
    expect((await olga.call('deleteNotification', { notificationId: target })).status).toBe(404);
    expect(await counts(max)).toEqual(maxCounts);
  });

  it('refuses a cursor it did not make and a limit out of range', async () => {
    const mia = await t().as('mia');
    for (const cursor of ['abc', Buffer.from('["yesterday",1]').toString('base64url'), 'x'.repeat(201)])
      expect((await mia.call('listNotifications', { cursor })).body.field).toBe('cursor');
    expect((await mia.call('listNotifications', { limit: 0 })).body.field).toBe('limit');
    expect((await mia.call('listNotifications', { limit: 51 })).body.field).toBe('limit');
  });

  it('needs a session', async () => {
    expect((await t().client().call('listNotifications')).status).toBe(401);
    expect((await t().client().call('markAllNotificationsRead')).status).toBe(401);
  });
});
