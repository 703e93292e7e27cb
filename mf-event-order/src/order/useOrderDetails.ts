import { useEffect } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { PAGE_DATA, pageQuery, DATA_CACHE_TIME_MS, live, useSession } from '@marketplace/shared';
import { PAGES } from '@marketplace/shared/platform';

/** How often the order is read again while one of its files is being processed (until each is ready or refused). */
export const PROCESSING_POLL_MS = 2000;
/**
 * How often in the first seconds of a file's processing, while FIRST_POLLS_FOR_MS last: a photo
 * is shown about a second after its upload (docs/performance.md, "Upload to picture"), so a 2 s
 * poll would be most of its wait. A read is one small query.
 */
export const FIRST_POLL_MS = 500;
export const FIRST_POLLS_FOR_MS = 10_000;
/** Reads of one order at most while polling: 10 minutes' worth (a video's transcoding), with a file's first seconds' faster reads. */
const PROCESSING_POLLS = 320;

/**
 * When this page first saw each of an order's files processing (by the query of the order's
 * details), for the interval: one seen for less than FIRST_POLLS_FOR_MS is read for at
 * FIRST_POLL_MS. Forgotten with the query, and a file once it is no longer processing.
 */
const processingSeen = new WeakMap<object, Map<string, number>>();

function pollInterval(query: object, processing: readonly string[], now: number): number {
  const seen = processingSeen.get(query) ?? new Map<string, number>();
  processingSeen.set(query, seen);
  for (const identifier of seen.keys()) if (!processing.includes(identifier)) seen.delete(identifier);
  for (const identifier of processing) if (!seen.has(identifier)) seen.set(identifier, now);
  const newest = Math.max(...seen.values());
  return now - newest < FIRST_POLLS_FOR_MS ? FIRST_POLL_MS : PROCESSING_POLL_MS;
}

/**
 * SPEC.md section 7: sharingId as a query; no retry (the contract's `noRetry`, which every query of
 * the call and the shell's prefetch follow); no refetch on window focus; cached 5
 * minutes. While a file is processing (the media pipeline), read again, every 500 ms in its first
 * seconds and every 2 s after, so the picture, or the reason it was refused, appears without a reload.
 */
export function orderDetailsQuery(orderId: string, sharingId: string | undefined) {
  return queryOptions({
    ...pageQuery(PAGE_DATA.eventOrder(orderId, sharingId)),
    refetchOnWindowFocus: false,
    // Not after an error, and not for ever: past PROCESSING_POLLS the live notice (or a reload) tells.
    refetchInterval: (query) => {
      const processing = (query.state.data?.targets ?? [])
        .filter((target) => target.state === 'processing')
        .map((target) => target.targetIdentifier);
      if (query.state.status === 'error' || query.state.dataUpdateCount >= PROCESSING_POLLS || processing.length === 0)
        return false;
      return pollInterval(query, processing, Date.now());
    },
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
