import type { Notification } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import { type Page, nowIso, pageOf, pageWindow } from './sql.js';

const NOTIFICATION_COLUMNS = ['id', 'status', 'content', 'link', 'timestamp'] as const;

export type NotificationsRepository = ReturnType<typeof notificationsRepository>;

/** A user's notifications (SPEC.md section 4): NEW, then UNREAD once the list is opened, READ once clicked. */
export function notificationsRepository(db: Db) {
  return {
    /** Newest first. */
    async page(userId: number, pageNo: number, limit: number): Promise<Page<Notification>> {
      const { limit: rows, offset } = pageWindow(pageNo, limit);
      const found = await db
        .selectFrom('notifications')
        .select(NOTIFICATION_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('timestamp', 'desc')
        .orderBy('id', 'desc')
        .limit(rows)
        .offset(offset)
        .execute();
      return pageOf(found, limit);
    },

    async add(userId: number, content: string, link: string | null): Promise<Notification> {
      const timestamp = nowIso();
      const { id } = await db
        .insertInto('notifications')
        .values({ user_id: userId, status: 'NEW', content, link, timestamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id, status: 'NEW', content, link, timestamp };
    },

    /** NEW becomes UNREAD; answers how many changed. */
    async clearNew(userId: number): Promise<number> {
      const { numUpdatedRows } = await db
        .updateTable('notifications')
        .set({ status: 'UNREAD' })
        .where('user_id', '=', userId)
        .where('status', '=', 'NEW')
        .executeTakeFirst();
      return Number(numUpdatedRows);
    },

    /** The notification after the change, or undefined when the user has no such notification. */
    async markRead(userId: number, notificationId: number): Promise<Notification | undefined> {
      return db
        .updateTable('notifications')
        .set({ status: 'READ' })
        .where('id', '=', notificationId)
        .where('user_id', '=', userId)
        .returning(NOTIFICATION_COLUMNS)
        .executeTakeFirst();
    },

    /** False when the user has no such notification. */
    async delete(userId: number, notificationId: number): Promise<boolean> {
      const { numDeletedRows } = await db
        .deleteFrom('notifications')
        .where('id', '=', notificationId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return numDeletedRows > 0n;
    },
  };
}
