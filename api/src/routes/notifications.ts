import { z } from 'zod';
import { PAGE_SIZE } from '@marketplace/shared/constants';
import type { Notification } from '@marketplace/shared/contract';
import { notFound } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { page } from '../model.js';
import type { Services } from '../services.js';

type NotificationRow = Omit<Notification, 'link'> & { link: string | null };

/** SPEC.md section 4 "Notifications": NEW -> UNREAD on opening the dropdown, -> READ on click, or deleted. */
export function registerNotificationRoutes(r: Router, { db }: Services): void {
  r.user('getNotifications', z.object({ pageNo: fields.pageNo(), limit: fields.limit() }), ({ pageNo = 0, limit = PAGE_SIZE }, { user }) => {
    const rows = db
      .prepare('SELECT id, status, content, link, timestamp FROM notifications WHERE user_id = ? ORDER BY timestamp DESC, id DESC LIMIT ? OFFSET ?')
      .all(user.id, limit + 1, pageNo * limit) as NotificationRow[];
    const { items, more } = page(rows, limit);
    return { notifications: items, more };
  });

  r.user('clearNewNotifications', noFields, (_input, { user }) => ({
    updated: db.prepare("UPDATE notifications SET status = 'UNREAD' WHERE user_id = ? AND status = 'NEW'").run(user.id).changes,
  }));

  r.user(
    'updateNotificationStatus',
    z.object({ status: z.literal('READ', { message: "must be 'READ'" }), notificationId: fields.id() }),
    ({ status, notificationId }, { user }) => {
      const changed = db.prepare('UPDATE notifications SET status = ? WHERE id = ? AND user_id = ?').run(status, notificationId, user.id).changes;
      if (changed === 0) throw notFound('Notification');
      const notification = db.prepare('SELECT id, status, content, link, timestamp FROM notifications WHERE id = ?').get(notificationId) as NotificationRow;
      return { notification };
    },
  );

  r.user('deleteNotification', z.object({ notificationId: fields.id() }), ({ notificationId }, { user }) => {
    const deleted = db.prepare('DELETE FROM notifications WHERE id = ? AND user_id = ?').run(notificationId, user.id).changes;
    if (deleted === 0) throw notFound('Notification');
    return { deleted: notificationId };
  });
}
