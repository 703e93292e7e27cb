import { z } from 'zod';
import { PAGE_SIZE } from '@marketplace/shared/constants';
import type { ChatMessage, MessageNotification, NotificationStatus } from '@marketplace/shared/contract';
import { HttpError, notFound } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { findUserByProfileName, mediaUrl, nowIso, page, toChatEntry, type UserRow } from '../model.js';
import type { Services } from '../services.js';

const CHAT_HISTORY_LIMIT = 100;

/**
 * Message notifications (one entry per conversation partner, SPEC.md section 4 "Message
 * notifications"), chat windows and chat messages.
 */
export function registerChatRoutes(r: Router, services: Services): void {
  const { db, config, live } = services;

  const partner = (profileName: string, selfId: number): UserRow => {
    const other = findUserByProfileName(db, profileName);
    if (!other) throw notFound('Profile');
    if (other.id === selfId) throw new HttpError(400, 'You cannot chat with yourself', 'profileName');
    return other;
  };

  r.user('getMessageNotifications', z.object({ pageNo: fields.pageNo(), limit: fields.limit() }), ({ pageNo = 0, limit = PAGE_SIZE }, { user }) => {
    const rows = db
      .prepare(
        `SELECT u.profile_name, u.username, u.profile_picture, m.content, m.status, m.timestamp
         FROM message_notifications m JOIN users u ON u.id = m.from_id
         WHERE m.user_id = ? ORDER BY m.timestamp DESC, u.profile_name LIMIT ? OFFSET ?`,
      )
      .all(user.id, limit + 1, pageNo * limit) as {
      profile_name: string;
      username: string;
      profile_picture: string | null;
      content: string;
      status: NotificationStatus;
      timestamp: string;
    }[];
    const { items, more } = page(rows, limit);
    const messageNotifications: MessageNotification[] = items.map((row) => ({
      profileName: row.profile_name,
      name: row.username,
      profilePicture: mediaUrl(config, row.profile_picture),
      content: row.content,
      status: row.status,
      timestamp: row.timestamp,
    }));
    return { messageNotifications, more };
  });

  r.user('clearNewMessageNotifications', noFields, (_input, { user }) => ({
    updated: db.prepare("UPDATE message_notifications SET status = 'UNREAD' WHERE user_id = ? AND status = 'NEW'").run(user.id).changes,
  }));

  r.user('getOpenChats', noFields, (_input, { user }) => {
    const rows = db
      .prepare('SELECT u.id, u.profile_name, u.username, u.profile_picture FROM open_chats o JOIN users u ON u.id = o.other_id WHERE o.user_id = ? ORDER BY o.opened_at')
      .all(user.id) as UserRow[];
    return { chats: rows.map((row) => toChatEntry(config, row)) };
  });

  r.user('closeChat', z.object({ profileName: fields.text(30) }), ({ profileName }, { user }) => {
    const other = partner(profileName, user.id);
    db.prepare('DELETE FROM open_chats WHERE user_id = ? AND other_id = ?').run(user.id, other.id);
    return { closed: other.profile_name };
  });

  // Opening a conversation marks its message notification READ and remembers the open window.
  r.user('getChatMessages', z.object({ profileName: fields.text(30) }), ({ profileName }, { user }) => {
    const other = partner(profileName, user.id);
    const rows = db.transaction(() => {
      db.prepare("UPDATE message_notifications SET status = 'READ' WHERE user_id = ? AND from_id = ?").run(user.id, other.id);
      db.prepare('INSERT OR IGNORE INTO open_chats (user_id, other_id, opened_at) VALUES (?, ?, ?)').run(user.id, other.id, nowIso());
      return db
        .prepare(
          `SELECT * FROM (SELECT id, from_id, content, timestamp FROM chat_messages
             WHERE (from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?) ORDER BY id DESC LIMIT ?) ORDER BY id`,
        )
        .all(user.id, other.id, other.id, user.id, CHAT_HISTORY_LIMIT) as { id: number; from_id: number; content: string; timestamp: string }[];
    })();
    const messages: ChatMessage[] = rows.map((row) => ({
      id: row.id,
      fromProfileName: row.from_id === user.id ? user.profileName : other.profile_name,
      toProfileName: row.from_id === user.id ? other.profile_name : user.profileName,
      content: row.content,
      timestamp: row.timestamp,
    }));
    return { contact: toChatEntry(config, other), messages };
  });

  // A sent message becomes the recipient's NEW message notification and is pushed live.
  r.user('sendChatMessage', z.object({ profileName: fields.text(30), content: fields.text(2000) }), ({ profileName, content }, { user }) => {
    const other = partner(profileName, user.id);
    const timestamp = nowIso();
    const id = db.transaction(() => {
      const messageId = Number(
        db.prepare('INSERT INTO chat_messages (from_id, to_id, content, timestamp) VALUES (?, ?, ?, ?)').run(user.id, other.id, content, timestamp).lastInsertRowid,
      );
      db.prepare(
        `INSERT INTO message_notifications (user_id, from_id, content, status, timestamp) VALUES (?, ?, ?, 'NEW', ?)
         ON CONFLICT (user_id, from_id) DO UPDATE SET content = excluded.content, status = 'NEW', timestamp = excluded.timestamp`,
      ).run(other.id, user.id, content, timestamp);
      return messageId;
    })();
    live.publish('chatNotifications', other.profile_name, {
      profileName: user.profileName,
      name: user.username,
      profilePicture: mediaUrl(config, user.profilePicturePath),
      content,
      status: 'NEW',
      timestamp,
    });
    return { message: { id, fromProfileName: user.profileName, toProfileName: other.profile_name, content, timestamp } };
  });
}
