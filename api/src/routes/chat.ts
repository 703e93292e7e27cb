import { z } from 'zod';
import { PAGE_SIZE } from '@marketplace/shared/constants';
import type { SessionUser } from '../http/env.js';
import { HttpError, notFound } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import type { UserRef } from '../repositories/users/ref.js';
import { sendLive, type Services } from '../services.js';
import { userViews } from '../views/users.js';

/**
 * Message notifications (one entry per conversation partner, SPEC.md section 4 "Message
 * notifications"), chat windows and chat messages.
 */
export function registerChatRoutes(r: Router, { repos }: Services): void {
  const users = userViews(repos.urls);
  const partner = async (profileName: string, self: SessionUser): Promise<UserRef> => {
    const other = await repos.users.byProfileName(profileName);
    if (!other) throw notFound('Profile');
    if (other.id === self.id) throw new HttpError(400, 'You cannot chat with yourself', 'profileName');
    return other;
  };

  r.user(
    'getMessageNotifications',
    z.object({ pageNo: fields.pageNo(), limit: fields.limit() }),
    async ({ pageNo = 0, limit = PAGE_SIZE }, { user }) => {
      const { items, more } = await repos.chat.notifications(user.id, pageNo, limit);
      return { messageNotifications: items, more };
    },
  );

  r.user('clearNewMessageNotifications', noFields, async (_input, { user }) => ({
    updated: await repos.chat.clearNew(user.id),
  }));

  r.user('getOpenChats', noFields, async (_input, { user }) => ({ chats: await repos.chat.openChats(user.id) }));

  r.user('closeChat', z.object({ profileName: fields.text(30) }), async ({ profileName }, { user }) => {
    const other = await partner(profileName, user);
    await repos.chat.close(user.id, other.id);
    return { closed: other.profileName };
  });

  // Opening a window is its own call (a POST): a page that shows a conversation it read earlier
  // still marks it read, and reading one (a GET) changes nothing.
  r.user('openChat', z.object({ profileName: fields.text(30) }), async ({ profileName }, { user }) => {
    const other = await partner(profileName, user);
    await repos.chat.open(user, other);
    return { opened: other.profileName };
  });

  r.user('getChatMessages', z.object({ profileName: fields.text(30) }), async ({ profileName }, { user }) => {
    const other = await partner(profileName, user);
    return { contact: users.chatEntry(other), messages: await repos.chat.messages(user, other) };
  });

  // A sent message becomes the recipient's NEW message notification, and its live message is
  // queued in the same transaction (published once committed), carrying the message's id.
  r.user(
    'sendChatMessage',
    z.object({ profileName: fields.text(30), content: fields.text(2000) }),
    async ({ profileName, content }, { user }) => {
      const other = await partner(profileName, user);
      const message = await repos.transaction(async (tx) => {
        const sent = await tx.chat.send(user, other, content);
        await sendLive(tx, 'chatNotifications', other.profileName, {
          messageId: sent.id,
          profileName: user.profileName,
          name: user.username,
          profilePicture: tx.urls.media(user.profilePicturePath),
          content,
          status: 'NEW',
          timestamp: sent.timestamp,
        });
        return sent;
      });
      return { message };
    },
  );
}
