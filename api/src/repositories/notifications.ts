import { sql } from 'kysely';
import type { Notification, NotificationCounts } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import { type Page, nowIso, pageOf, pageWindow } from './sql.js';

const NOTIFICATION_COLUMNS = ['id', 'status', 'content', 'link', 'timestamp'] as const;

export type NotificationsRepository = ReturnType<typeof notificationsRepository>;

/** Where a page of the list ended: its last entry's place in the order (timestamp, then id, both descending). */
export interface NotificationCursor {
  timestamp: string;
  id: number;
}

/** A cursor as the client holds it: opaque, URL-safe. */
export const encodeNotificationCursor = ({ timestamp, id }: NotificationCursor) =>
  Buffer.from(JSON.stringify([timestamp, id])).toString('base64url');

/** The cursor `text` names, or null when it is not one this list made. */
export function decodeNotificationCursor(text: string): NotificationCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [timestamp, id] = value as unknown[];
    if (typeof timestamp !== 'string' || Number.isNaN(Date.parse(timestamp))) return null;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return null;
    return { timestamp, id };
  } catch {
    return null;
  }
}

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

    /**
     * The notification centre's page after `cursor` (from the top without one), newest first. Keyset
     * paging: one arriving on top, or one removed, between two pages moves no other entry across
     * the boundary, so nothing repeats or goes missing (offset paging would shift by one).
     */
    async after(
      userId: number,
      cursor: NotificationCursor | null,
      limit: number,
    ): Promise<{ items: Notification[]; next: NotificationCursor | null }> {
      let query = db.selectFrom('notifications').select(NOTIFICATION_COLUMNS).where('user_id', '=', userId);
      if (cursor)
        query = query.where((eb) =>
          eb.or([
            eb('timestamp', '<', cursor.timestamp),
            eb.and([eb('timestamp', '=', cursor.timestamp), eb('id', '<', cursor.id)]),
          ]),
        );
      const found = await query
        .orderBy('timestamp', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      const items = found.slice(0, limit);
      const last = items.at(-1);
      return { items, next: found.length > limit && last ? { timestamp: last.timestamp, id: last.id } : null };
    },

    /** All of the user's notifications counted by state (SPEC.md section 4). */
    async counts(userId: number): Promise<NotificationCounts> {
      const row = await db
        .selectFrom('notifications')
        .select((eb) => [
          eb.fn.countAll<number | string | bigint>().as('total'),
          sql<number | string | null>`sum(case when status = 'NEW' then 1 else 0 end)`.as('new'),
          sql<number | string | null>`sum(case when status <> 'READ' then 1 else 0 end)`.as('unread'),
        ])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      // PostgreSQL answers counts and sums as text (bigint, numeric); a sum over no rows is null.
      return { total: Number(row.total), new: Number(row.new ?? 0), unread: Number(row.unread ?? 0) };
    },

    /** NEW and UNREAD become READ, for this user only; answers how many changed. */
    async markAllRead(userId: number): Promise<number> {
      const { numUpdatedRows } = await db
        .updateTable('notifications')
        .set({ status: 'READ' })
        .where('user_id', '=', userId)
        .where('status', 'in', ['NEW', 'UNREAD'])
        .executeTakeFirst();
      return Number(numUpdatedRows);
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
