import { useEffect, useRef } from 'react';
import {
  afterPaint,
  apiCall,
  live,
  PAGE_SIZE,
  type MessageNotification,
  type Notification,
  type NotificationStatus,
} from '@marketplace/shared';
import { useQueryClient } from '@tanstack/react-query';
import { chatStore } from '../chat/chatStore.js';
import { chatKey } from '../chat/useChat.js';
import { useFeed, type FeedPage } from '../feed/useFeed.js';
import {
  clearNewInCentre,
  markAllRead,
  prependToCentre,
  removeFromCentre,
  updateInCentre,
} from './notificationCaches.js';
import { seenIds } from './seenIds.js';

const notificationId = (n: Notification) => n.id;
const messageId = (m: MessageNotification) => m.profileName;

/** SPEC.md section 8: a failed first load is an empty list with no more pages. */
const emptyAfterFailure = <T>(): FeedPage<T> => ({ items: [], more: false, failed: true });

/** SPEC.md section 7: the first load sends no paging, further pages `pageNo` and `limit=10`. */
function notificationsPage(pageNo: number): Promise<FeedPage<Notification>> {
  const request = apiCall('getNotifications', pageNo === 0 ? {} : { pageNo, limit: PAGE_SIZE }).then((r) => ({
    items: r.notifications,
    more: r.more,
  }));
  return pageNo === 0 ? request.catch(emptyAfterFailure<Notification>) : request;
}

/** SPEC.md section 7: message notifications page from `pageNo=0`, `limit=10`. */
function messagesPage(pageNo: number): Promise<FeedPage<MessageNotification>> {
  const request = apiCall('getMessageNotifications', { pageNo, limit: PAGE_SIZE }).then((r) => ({
    items: r.messageNotifications,
    more: r.more,
  }));
  return pageNo === 0 ? request.catch(emptyAfterFailure<MessageNotification>) : request;
}

/**
 * What both feeds share (SPEC.md section 4): the NEW count for the badge, and on opening the
 * dropdown NEW becoming UNREAD here while `clearOnServer` tells the server. The server is told
 * whenever it may hold NEW entries: one among those loaded, or any on a page not loaded yet (or
 * behind a failed load). Only a list known whole with nothing NEW in it spares the call.
 *
 * The badge clears in the press that opens the dropdown; the call starts once the open dropdown
 * has painted, so the press does not wait for the request to be made. A load overlapping the
 * change is judged from the press on.
 */
function newStatus<T extends { status: NotificationStatus }>(
  feed: {
    items: T[];
    complete: boolean;
    update: (match: (item: T) => boolean, change: (item: T) => T) => void;
    afterServerChange: (change: Promise<unknown>) => void;
  },
  clearOnServer: () => Promise<unknown>,
) {
  const newCount = feed.items.filter((i) => i.status === 'NEW').length;
  return {
    newCount,
    clearNew() {
      if (newCount === 0 && feed.complete) return;
      if (newCount > 0)
        feed.update(
          (i) => i.status === 'NEW',
          (i) => ({ ...i, status: 'UNREAD' }),
        );
      // A reload under way (the live subscription's) may answer from before the clear.
      feed.afterServerChange(new Promise((done) => afterPaint(() => done(clearOnServer()))));
    },
  };
}

/**
 * The user's notifications (SPEC.md section 4): NEW until the dropdown opens, then UNREAD until
 * clicked or marked read; a live one goes on top, once.
 */
export function useNotifications(profileName: string) {
  const queryClient = useQueryClient();
  // Its key is notificationCaches' dropdownKey: the notifications page edits this list too.
  const feed = useFeed({
    call: 'getNotifications',
    scope: profileName,
    fetchPage: notificationsPage,
    idOf: notificationId,
  });
  const { items, prepend, update, remove, reload } = feed;
  // What the list holds now, for the live handler, which outlives renders.
  const listed = useRef(items);
  useEffect(() => {
    listed.current = items;
  }, [items]);
  // Once subscribed (again), reload: anything published before then was not delivered live.
  useEffect(() => {
    const seen = seenIds();
    return live.subscribe(
      'notifications',
      profileName,
      (n) => {
        // Delivered again (at least once), or loaded already: the copy here is as new or newer, and
        // putting the live one on top would make it NEW again after the dropdown was opened.
        if (!seen.first(n.id) || listed.current.some((known) => known.id === n.id)) return;
        prepend(n);
        // The notifications page, when loaded, shows it on top too.
        prependToCentre(queryClient, profileName, n);
      },
      reload,
    );
  }, [profileName, prepend, reload, queryClient]);
  return {
    ...feed,
    ...newStatus(feed, () => {
      clearNewInCentre(queryClient, profileName);
      return apiCall('clearNewNotifications');
    }),
    markRead(id: number) {
      const match = (n: Notification) => n.id === id;
      const read = (n: Notification): Notification => ({ ...n, status: 'READ' });
      update(match, read);
      updateInCentre(queryClient, profileName, match, read);
      void apiCall('updateNotificationStatus', { status: 'READ', notificationId: id }).catch(() => undefined);
    },
    async remove(id: number) {
      await apiCall('deleteNotification', { notificationId: id });
      remove(id);
      removeFromCentre(queryClient, profileName, id);
    },
    /** NEW and UNREAD become READ here, on the notifications page and then on the server. */
    markAllRead: () => markAllRead(queryClient, profileName, () => apiCall('markAllNotificationsRead')),
  };
}

/**
 * Message notifications, one per conversation partner (SPEC.md section 4): a live one replaces
 * the partner's older entry, once per chat message; opening the conversation makes it READ.
 */
export function useMessageNotifications(profileName: string) {
  const queryClient = useQueryClient();
  const feed = useFeed({
    call: 'getMessageNotifications',
    scope: profileName,
    fetchPage: messagesPage,
    idOf: messageId,
  });
  const { prepend, update, reload } = feed;
  useEffect(() => {
    const seen = seenIds();
    return live.subscribe(
      'chatNotifications',
      profileName,
      (m) => {
        // A chat message delivered again (at least once) would make the conversation NEW again.
        if (m.messageId !== undefined && !seen.first(m.messageId)) return;
        // With the partner's window open the message is read there: the window reads the
        // conversation again and tells the server it is read (openChat).
        const open = chatStore.getState().chats.some((c) => c.profileName === m.profileName);
        prepend(open ? { ...m, status: 'READ' } : m);
        if (open) void queryClient.invalidateQueries({ queryKey: chatKey(m.profileName) });
      },
      reload,
    );
  }, [profileName, prepend, reload, queryClient]);
  return {
    ...feed,
    ...newStatus(feed, () => apiCall('clearNewMessageNotifications')),
    /** The server marks the conversation READ when its window opens (openChat). */
    openConversation(m: MessageNotification) {
      update(
        (x) => x.profileName === m.profileName,
        (x) => ({ ...x, status: 'READ' }),
      );
      chatStore.getState().open({ profileName: m.profileName, username: m.name, profilePicture: m.profilePicture });
    },
  };
}
