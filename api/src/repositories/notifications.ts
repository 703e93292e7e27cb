import type { Notification } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import { type Page, nowIso, pageOf, pageWindow } from './sql.js';

const NOTIFICATION_COLUMNS = 'id, status, content, link, timestamp';

export type NotificationsRepository = ReturnType<typeof notificationsRepository>;

/** A user's notifications (SPEC.md section 4): NEW, then UNREAD once the list is opened, READ once clicked. */
export function notificationsRepository(db: Db) {
  return {
    /** Newest first. */
    page(userId: number, pageNo: number, limit: number): Page<Notification> {
      const rows = db
        .prepare(
          `SELECT ${NOTIFICATION_COLUMNS} FROM notifications WHERE user_id = ? ORDER BY timestamp DESC, id DESC LIMIT ? OFFSET ?`,
        )
        .all(userId, ...pageWindow(pageNo, limit)) as Notification[];
      return pageOf(rows, limit);
    },

    add(userId: number, content: string, link: string | null): Notification {
      const timestamp = nowIso();
      const id = Number(
        db
          .prepare("INSERT INTO notifications (user_id, status, content, link, timestamp) VALUES (?, 'NEW', ?, ?, ?)")
          .run(userId, content, link, timestamp).lastInsertRowid,
      );
      return { id, status: 'NEW', content, link, timestamp };
    },

    /** NEW becomes UNREAD; answers how many changed. */
    clearNew(userId: number): number {
      return db.prepare("UPDATE notifications SET status = 'UNREAD' WHERE user_id = ? AND status = 'NEW'").run(userId)
        .changes;
    },

    /** The notification after the change, or undefined when the user has no such notification. */
    markRead(userId: number, notificationId: number): Notification | undefined {
      const changed = db
        .prepare("UPDATE notifications SET status = 'READ' WHERE id = ? AND user_id = ?")
        .run(notificationId, userId).changes;
      if (changed === 0) return undefined;
      return db
        .prepare(`SELECT ${NOTIFICATION_COLUMNS} FROM notifications WHERE id = ?`)
        .get(notificationId) as Notification;
    },

    /** False when the user has no such notification. */
    delete(userId: number, notificationId: number): boolean {
      return (
        db.prepare('DELETE FROM notifications WHERE id = ? AND user_id = ?').run(notificationId, userId).changes > 0
      );
    },
  };
}
