import { describe, expect, it } from 'vitest';
import { present, useTestApi } from './harness.js';

const t = useTestApi();

describe('notifications', () => {
  it('pages newest first: the first load (no paging) has 10 and more, page 1 the rest', async () => {
    const clara = await t().as('clara');
    const first = await clara.call('getNotifications');
    expect(first.status).toBe(200);
    expect(first.body.notifications).toHaveLength(10);
    expect(first.body.more).toBe(true);
    const stamps = first.body.notifications.map((n: { timestamp: string }) => n.timestamp);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const second = await clara.call('getNotifications', { pageNo: 1, limit: 10 });
    expect(second.body.notifications).toHaveLength(4);
    expect(second.body.more).toBe(false);
    const ids = new Set([...first.body.notifications, ...second.body.notifications].map((n: { id: number }) => n.id));
    expect(ids.size).toBe(14);
  });

  it('validates paging', async () => {
    const clara = await t().as('clara');
    expect((await clara.call('getNotifications', { pageNo: -1 })).body.field).toBe('pageNo');
    expect((await clara.call('getNotifications', { limit: 0 })).body.field).toBe('limit');
    expect((await clara.call('getNotifications', { limit: 'ten' })).status).toBe(400);
  });

  it('clearNewNotifications turns every NEW into UNREAD', async () => {
    const mia = await t().as('mia');
    const before = (await mia.call('getNotifications')).body.notifications.filter(
      (n: { status: string }) => n.status === 'NEW',
    );
    expect(before.length).toBeGreaterThan(0);
    const res = await mia.call('clearNewNotifications');
    expect(res.body).toEqual({ updated: before.length });
    const after = (await mia.call('getNotifications')).body.notifications;
    expect(after.some((n: { status: string }) => n.status === 'NEW')).toBe(false);
  });

  it('updateNotificationStatus marks one READ; another user cannot touch it', async () => {
    const max = await t().as('max');
    const first = present((await max.call('getNotifications')).body.notifications[0], 'a notification');
    const res = await max.call('updateNotificationStatus', { status: 'READ', notificationId: first.id });
    expect(res.status).toBe(200);
    expect(res.body.notification).toMatchObject({ id: first.id, status: 'READ' });
    const olga = await t().as('olga');
    expect((await olga.call('updateNotificationStatus', { status: 'READ', notificationId: first.id })).status).toBe(
      404,
    );
    expect((await max.call('updateNotificationStatus', { status: 'NEW', notificationId: first.id })).body.field).toBe(
      'status',
    );
    expect((await max.call('updateNotificationStatus', { status: 'READ', notificationId: 'abc' })).body.field).toBe(
      'notificationId',
    );
  });

  it('deleteNotification removes it for good', async () => {
    const dave = await t().as('dave');
    const list = (await dave.call('getNotifications')).body.notifications;
    const head = present(list[0], 'a notification');
    const res = await dave.call('deleteNotification', { notificationId: head.id });
    expect(res.body).toEqual({ deleted: head.id });
    const after = (await dave.call('getNotifications')).body.notifications;
    expect(after).toHaveLength(list.length - 1);
    expect((await dave.call('deleteNotification', { notificationId: head.id })).status).toBe(404);
  });

  it('needs a session', async () => {
    expect((await t().client().call('getNotifications')).status).toBe(401);
    expect((await t().client().call('clearNewNotifications')).status).toBe(401);
  });
});
