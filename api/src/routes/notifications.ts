import { z } from 'zod';
import { PAGE_SIZE } from '@marketplace/shared/constants';
import { notFound } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { decodeNotificationCursor, encodeNotificationCursor } from '../repositories/notifications.js';
import type { Services } from '../services.js';

/** SPEC.md section 4 "Notifications": NEW -> UNREAD on opening the dropdown, -> READ on click, or deleted. */
export function registerNotificationRoutes(r: Router, { repos }: Services): void {
  r.user(
    'getNotifications',
    z.object({ pageNo: fields.pageNo(), limit: fields.limit() }),
    async ({ pageNo = 0, limit = PAGE_SIZE }, { user }) => {
      const { items, more } = await repos.notifications.page(user.id, pageNo, limit);
      return { notifications: items, more };
    },
  );

  // The notification centre: pages by cursor, with the counts the page and the header's badge agree on.
  r.user(
    'listNotifications',
    z.object({
      cursor: z
        .string()
        .max(200)
        .refine((text) => decodeNotificationCursor(text) !== null, 'must be a nextCursor this list answered')
        .optional(),
      limit: fields.limit(),
    }),
    async ({ cursor, limit = PAGE_SIZE }, { user }) => {
      const { items, next } = await repos.notifications.after(
        user.id,
        cursor === undefined ? null : decodeNotificationCursor(cursor),
        limit,
      );
      return {
        notifications: items,
        nextCursor: next && encodeNotificationCursor(next),
        counts: await repos.notifications.counts(user.id),
      };
    },
  );

  r.user('markAllNotificationsRead', noFields, async (_input, { user }) => ({
    updated: await repos.notifications.markAllRead(user.id),
  }));

  r.user('clearNewNotifications', noFields, async (_input, { user }) => ({
    updated: await repos.notifications.clearNew(user.id),
  }));

  r.user(
    'updateNotificationStatus',
    // READ is the only status a user sets; the store's markRead is that change.
    z.object({ status: z.literal('READ', { message: "must be 'READ'" }), notificationId: fields.id() }),
    async ({ notificationId }, { user }) => {
      const notification = await repos.notifications.markRead(user.id, notificationId);
      if (!notification) throw notFound('Notification');
      return { notification };
    },
  );

  r.user('deleteNotification', z.object({ notificationId: fields.id() }), async ({ notificationId }, { user }) => {
    if (!(await repos.notifications.delete(user.id, notificationId))) throw notFound('Notification');
    return { deleted: notificationId };
  });
}
