import { useEffect } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { callQuery, DATA_CACHE_TIME_MS, live, useSession } from '@marketplace/shared';
import { PAGES } from '@marketplace/shared/platform';

/** How often the order is read again while one of its files is being processed (until each is ready or refused). */
export const PROCESSING_POLL_MS = 2000;
/** Reads of one order at most while polling: 10 minutes' worth (a video's transcoding). */
const PROCESSING_POLLS = 300;

/**
 * SPEC.md section 7: sharingId as a query; no retry (the contract's `noRetry`, which every query of
 * the call and the shell's prefetch follow); no refetch on window focus; cached 5
 * minutes. While a file is processing (the media pipeline), read again every few seconds, so the
 * picture, or the reason it was refused, appears without a reload.
 */
export function orderDetailsQuery(orderId: string, sharingId: string | undefined) {
  return queryOptions({
    ...callQuery('getEventOrderDetails', { orderId, sharingId }),
    refetchOnWindowFocus: false,
    // Not after an error, and not for ever: past PROCESSING_POLLS the live notice (or a reload) tells.
    refetchInterval: (query) =>
      query.state.status !== 'error' &&
      query.state.dataUpdateCount < PROCESSING_POLLS &&
      query.state.data?.targets.some((target) => target.state === 'processing')
        ? PROCESSING_POLL_MS
        : false,
    gcTime: DATA_CACHE_TIME_MS,
    staleTime: DATA_CACHE_TIME_MS,
  });
}

/**
 * The order, read again when a notification about it arrives on the live channel (an upload
 * ready for the other party, a refusal for the uploader, a cancel): what changed shows without a
 * reload, and without waiting for the next poll.
 */
export function useOrderDetails(orderId: string, sharingId: string | undefined) {
  const queryClient = useQueryClient();
  const profileName = useSession((s) => s.user?.profileName);
  useEffect(() => {
    if (!profileName) return;
    const page = PAGES.eventOrder.href({ orderId });
    return live.subscribe('notifications', profileName, (notification) => {
      if (notification.link === page)
        void queryClient.invalidateQueries({ queryKey: orderDetailsQuery(orderId, sharingId).queryKey });
    });
  }, [profileName, orderId, sharingId, queryClient]);
  return useQuery(orderDetailsQuery(orderId, sharingId));
}
