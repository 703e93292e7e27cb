import type {
  ChatMessage,
  ChatWindowEntry,
  MessageNotification,
  NotificationStatus,
} from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import { type Page, nowIso, pageOf, pageWindow } from './sql.js';
import type { FileUrls } from './urls.js';
import type { UserRef, UsersRepository } from './users.js';

/** The newest messages of a conversation that opening it shows. */
const CHAT_HISTORY_LIMIT = 100;

type Party = Pick<UserRef, 'id' | 'profileName'>;

export type ChatRepository = ReturnType<typeof chatRepository>;

/**
 * Conversations: the messages, one message notification per conversation partner (SPEC.md
 * section 4 "Message notifications"), and which chat windows a user has open.
 */
export function chatRepository(db: Db, urls: FileUrls, users: UsersRepository) {
  return {
    /** Newest conversation first. */
    notifications(userId: number, pageNo: number, limit: number): Page<MessageNotification> {
      const rows = db
        .prepare(
          `SELECT u.profile_name, u.username, u.profile_picture, m.content, m.status, m.timestamp
           FROM message_notifications m JOIN users u ON u.id = m.from_id
           WHERE m.user_id = ? ORDER BY m.timestamp DESC, u.profile_name LIMIT ? OFFSET ?`,
        )
        .all(userId, ...pageWindow(pageNo, limit)) as {
        profile_name: string;
        username: string;
        profile_picture: string | null;
        content: string;
        status: NotificationStatus;
        timestamp: string;
      }[];
      const { items, more } = pageOf(rows, limit);
      return {
        items: items.map((row) => ({
          profileName: row.profile_name,
          name: row.username,
          profilePicture: urls.media(row.profile_picture),
          content: row.content,
          status: row.status,
          timestamp: row.timestamp,
        })),
        more,
      };
    },

    /** NEW becomes UNREAD; answers how many changed. */
    clearNew(userId: number): number {
      return db
        .prepare("UPDATE message_notifications SET status = 'UNREAD' WHERE user_id = ? AND status = 'NEW'")
        .run(userId).changes;
    },

    /** The partners of the user's open chat windows, in the order they were opened. */
    openChats(userId: number): ChatWindowEntry[] {
      const rows = db
        .prepare(
          'SELECT u.id, u.profile_name, u.username, u.profile_picture FROM open_chats o JOIN users u ON u.id = o.other_id WHERE o.user_id = ? ORDER BY o.opened_at',
        )
        .all(userId) as { id: number; profile_name: string; username: string; profile_picture: string | null }[];
      return rows.map((row) =>
        users.chatEntry({
          id: row.id,
          profileName: row.profile_name,
          username: row.username,
          profilePicturePath: row.profile_picture,
        }),
      );
    },

    close(userId: number, otherId: number): void {
      db.prepare('DELETE FROM open_chats WHERE user_id = ? AND other_id = ?').run(userId, otherId);
    },

    /**
     * Opens a conversation: its message notification becomes READ, the window is remembered as
     * open, and the newest messages are answered, oldest first.
     */
    open(self: Party, other: Party): ChatMessage[] {
      const rows = db.transaction(() => {
        db.prepare("UPDATE message_notifications SET status = 'READ' WHERE user_id = ? AND from_id = ?").run(
          self.id,
          other.id,
        );
        db.prepare('INSERT OR IGNORE INTO open_chats (user_id, other_id, opened_at) VALUES (?, ?, ?)').run(
          self.id,
          other.id,
          nowIso(),
        );
        return db
          .prepare(
            `SELECT * FROM (SELECT id, from_id, content, timestamp FROM chat_messages
               WHERE (from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?) ORDER BY id DESC LIMIT ?) ORDER BY id`,
          )
          .all(self.id, other.id, other.id, self.id, CHAT_HISTORY_LIMIT) as {
          id: number;
          from_id: number;
          content: string;
          timestamp: string;
        }[];
      })();
      return rows.map((row) => {
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
    send(from: Party, to: Party, content: string): ChatMessage {
      const timestamp = nowIso();
      const id = db.transaction(() => {
        const messageId = Number(
          db
            .prepare('INSERT INTO chat_messages (from_id, to_id, content, timestamp) VALUES (?, ?, ?, ?)')
            .run(from.id, to.id, content, timestamp).lastInsertRowid,
        );
        db.prepare(
          `INSERT INTO message_notifications (user_id, from_id, content, status, timestamp) VALUES (?, ?, ?, 'NEW', ?)
           ON CONFLICT (user_id, from_id) DO UPDATE SET content = excluded.content, status = 'NEW', timestamp = excluded.timestamp`,
        ).run(to.id, from.id, content, timestamp);
        return messageId;
      })();
      return { id, fromProfileName: from.profileName, toProfileName: to.profileName, content, timestamp };
    },
  };
}
