import type {
  ChatMessage,
  ChatWindowEntry,
  MessageNotification,
  NotificationStatus,
} from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import { type Page, inTransaction, nowIso, pageOf, pageWindow } from './sql.js';
import type { FileUrls } from './urls.js';
import { userViews } from '../views/users.js';
import type { UserRef } from './users/ref.js';

/** The newest messages of a conversation that opening it shows. */
const CHAT_HISTORY_LIMIT = 100;

type Party = Pick<UserRef, 'id' | 'profileName'>;

export type ChatRepository = ReturnType<typeof chatRepository>;

/**
 * Conversations: the messages, one message notification per conversation partner (SPEC.md
 * section 4 "Message notifications"), and which chat windows a user has open.
 */
export function chatRepository(db: Db, urls: FileUrls) {
  const users = userViews(urls);
  return {
    /** Newest conversation first. */
    async notifications(userId: number, pageNo: number, limit: number): Promise<Page<MessageNotification>> {
      const { limit: rows, offset } = pageWindow(pageNo, limit);
      const found = await db
        .selectFrom('message_notifications as m')
        .innerJoin('users as u', 'u.id', 'm.from_id')
        .select(['u.profile_name', 'u.username', 'u.profile_picture', 'm.content', 'm.status', 'm.timestamp'])
        .where('m.user_id', '=', userId)
        .orderBy('m.timestamp', 'desc')
        .orderBy('u.profile_name')
        .limit(rows)
        .offset(offset)
        .execute();
      const { items, more } = pageOf(found, limit);
      return {
        items: items.map((row) => ({
          profileName: row.profile_name,
          name: row.username,
          profilePicture: urls.media(row.profile_picture),
          content: row.content,
          status: row.status satisfies NotificationStatus,
          timestamp: row.timestamp,
        })),
        more,
      };
    },

    /** NEW becomes UNREAD; answers how many changed. */
    async clearNew(userId: number): Promise<number> {
      const { numUpdatedRows } = await db
        .updateTable('message_notifications')
        .set({ status: 'UNREAD' })
        .where('user_id', '=', userId)
        .where('status', '=', 'NEW')
        .executeTakeFirst();
      return Number(numUpdatedRows);
    },

    /** The partners of the user's open chat windows, in the order they were opened. */
    async openChats(userId: number): Promise<ChatWindowEntry[]> {
      const rows = await db
        .selectFrom('open_chats as o')
        .innerJoin('users as u', 'u.id', 'o.other_id')
        .select(['u.id', 'u.profile_name', 'u.username', 'u.profile_picture'])
        .where('o.user_id', '=', userId)
        .orderBy('o.opened_at')
        .orderBy('u.id')
        .execute();
      return rows.map((row) =>
        users.chatEntry({
          id: row.id,
          profileName: row.profile_name,
          username: row.username,
          profilePicturePath: row.profile_picture,
        }),
      );
    },

    async close(userId: number, otherId: number): Promise<void> {
      await db.deleteFrom('open_chats').where('user_id', '=', userId).where('other_id', '=', otherId).execute();
    },

    /**
     * Opens a conversation: its message notification becomes READ (SPEC.md section 4 "Message
     * notifications") and the window is remembered as open.
     */
    async open(self: Party, other: Party): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable('message_notifications')
          .set({ status: 'READ' })
          .where('user_id', '=', self.id)
          .where('from_id', '=', other.id)
          .execute();
        await trx
          .insertInto('open_chats')
          .values({ user_id: self.id, other_id: other.id, opened_at: nowIso() })
          .onConflict((oc) => oc.columns(['user_id', 'other_id']).doNothing())
          .execute();
      });
    },

    /** The newest messages of a conversation, oldest first; reading them changes nothing. */
    async messages(self: Party, other: Party): Promise<ChatMessage[]> {
      const rows = await db
        .selectFrom('chat_messages')
        .select(['id', 'from_id', 'content', 'timestamp'])
        .where((eb) =>
          eb.or([
            eb.and([eb('from_id', '=', self.id), eb('to_id', '=', other.id)]),
            eb.and([eb('from_id', '=', other.id), eb('to_id', '=', self.id)]),
          ]),
        )
        .orderBy('id', 'desc')
        .limit(CHAT_HISTORY_LIMIT)
        .execute();
      return rows.reverse().map((row) => {
        const [from, to] = row.from_id === self.id ? [self, other] : [other, self];
        return {
          id: row.id,
          fromProfileName: from.profileName,
          toProfileName: to.profileName,
          content: row.content,
          timestamp: row.timestamp,
        };
      });
    },

    /** Stores a message and makes it the recipient's NEW message notification from the sender. */
    async send(from: Party, to: Party, content: string): Promise<ChatMessage> {
      const timestamp = nowIso();
      const id = await inTransaction(db, async (trx) => {
        const message = await trx
          .insertInto('chat_messages')
          .values({ from_id: from.id, to_id: to.id, content, timestamp })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('message_notifications')
          .values({ user_id: to.id, from_id: from.id, content, status: 'NEW', timestamp })
          .onConflict((oc) =>
            oc.columns(['user_id', 'from_id']).doUpdateSet((eb) => ({
              content: eb.ref('excluded.content'),
              status: 'NEW',
              timestamp: eb.ref('excluded.timestamp'),
            })),
          )
          .execute();
        return message.id;
      });
      return { id, fromProfileName: from.profileName, toProfileName: to.profileName, content, timestamp };
    },
  };
}
