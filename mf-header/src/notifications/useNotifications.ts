import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiCall, live, type MessageNotification, type Notification } from '@marketplace/shared';

const notificationsKey = (profileName: string) => ['notifications', profileName] as const;
const messagesKey = (profileName: string) => ['messageNotifications', profileName] as const;

/**
 * The user's notifications in the query cache, kept current by the live channel: a new one goes
 * on top (SPEC.md section 4). A failed first load is an empty list (SPEC.md section 8).
 */
export function useNotifications(profileName: string) {
  const queryClient = useQueryClient();
  const key = notificationsKey(profileName);
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiCall('getNotifications').then((r) => r.notifications, () => [] as Notification[]),
  });
  useEffect(
    () =>
      live.subscribe('notifications', profileName, (n) =>
        queryClient.setQueryData<Notification[]>(notificationsKey(profileName), (list = []) => [n, ...list.filter((x) => x.id !== n.id)]),
      ),
    [profileName, queryClient],
  );
  const items = query.data ?? [];
  return {
    items,
    newCount: items.filter((n) => n.status === 'NEW').length,
    /** Opening the dropdown: the server clears NEW, and NEW becomes UNREAD here. */
    async clearNew() {
      if (!items.some((n) => n.status === 'NEW')) return;
      queryClient.setQueryData<Notification[]>(key, (list = []) => list.map((n) => (n.status === 'NEW' ? { ...n, status: 'UNREAD' } : n)));
      await apiCall('clearNewNotifications').catch(() => undefined);
    },
    async markRead(id: number) {
      queryClient.setQueryData<Notification[]>(key, (list = []) => list.map((n) => (n.id === id ? { ...n, status: 'READ' } : n)));
      await apiCall('updateNotificationStatus', { status: 'READ', notificationId: id }).catch(() => undefined);
    },
  };
}

/** Message notifications: a live one replaces the older entry from the same profile (SPEC.md section 4). */
export function useMessageNotifications(profileName: string) {
  const queryClient = useQueryClient();
  const key = messagesKey(profileName);
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiCall('getMessageNotifications', { pageNo: 0 }).then((r) => r.messageNotifications, () => [] as MessageNotification[]),
  });
  useEffect(
    () =>
      live.subscribe('chatNotifications', profileName, (m) =>
        queryClient.setQueryData<MessageNotification[]>(messagesKey(profileName), (list = []) => [m, ...list.filter((x) => x.profileName !== m.profileName)]),
      ),
    [profileName, queryClient],
  );
  const items = query.data ?? [];
  return {
    items,
    newCount: items.filter((m) => m.status === 'NEW').length,
    async clearNew() {
      if (!items.some((m) => m.status === 'NEW')) return;
      queryClient.setQueryData<MessageNotification[]>(key, (list = []) => list.map((m) => (m.status === 'NEW' ? { ...m, status: 'UNREAD' } : m)));
      await apiCall('clearNewMessageNotifications').catch(() => undefined);
    },
  };
}
