import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { apiCall, live, type Notification } from '@marketplace/shared';
import {
  centreKey,
  markAllRead,
  prependToCentre,
  removeFromCentre,
  removeFromDropdown,
  updateInCentre,
  updateInDropdown,
} from './notificationCaches.js';
import { seenIds } from './seenIds.js';

const read = (n: Notification): Notification => ({ ...n, status: 'READ' });

/**
 * The notifications page's list: every notification, newest first, a page at a time by the
 * API's cursor (a notification arriving meanwhile neither repeats nor hides one). Every change
 * is made in the dropdown's list too, so the badge and the bold entries agree with the page.
 */
export function useNotificationCentre(profileName: string) {
  const queryClient = useQueryClient();
  const queryKey = useMemo(() => centreKey(profileName), [profileName]);
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => apiCall('listNotifications', pageParam === null ? {} : { cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    retry: false,
    refetchOnWindowFocus: false,
  });

  // A live one goes on top (the header's subscription puts it here too; it shows once).
  useEffect(() => {
    const seen = seenIds();
    return live.subscribe(
      'notifications',
      profileName,
      (n) => {
        if (seen.first(n.id)) prependToCentre(queryClient, profileName, n);
      },
      () => void queryClient.invalidateQueries({ queryKey }),
    );
  }, [profileName, queryClient, queryKey]);

  const items = useMemo(() => {
    const shown = new Set<number>();
    return (query.data?.pages ?? []).flatMap((p) => p.notifications).filter((n) => !shown.has(n.id) && shown.add(n.id));
  }, [query.data]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return {
    items,
    counts: query.data?.pages[0]?.counts,
    isLoading: query.isPending,
    error: query.error,
    hasMore: hasNextPage,
    isLoadingMore: isFetchingNextPage,
    loadMore,
    markRead(id: number) {
      const match = (n: Notification) => n.id === id;
      updateInCentre(queryClient, profileName, match, read);
      updateInDropdown(queryClient, profileName, match, read);
      void apiCall('updateNotificationStatus', { status: 'READ', notificationId: id }).catch(() => undefined);
    },
    async remove(id: number) {
      await apiCall('deleteNotification', { notificationId: id });
      removeFromCentre(queryClient, profileName, id);
      removeFromDropdown(queryClient, profileName, id);
    },
    markAllRead: () => markAllRead(queryClient, profileName, () => apiCall('markAllNotificationsRead')),
  };
}
