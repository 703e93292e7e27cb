import { queryOptions, useQuery } from '@tanstack/react-query';
import { callQuery, DATA_CACHE_TIME_MS } from '@marketplace/shared';

/** How often the order is read again while one of its files is being processed (until each is ready or refused). */
export const PROCESSING_POLL_MS = 2000;

/**
 * SPEC.md section 7: sharingId as a query; no retry; no refetch on window focus; cached 5
 * minutes. While a file is processing (the media pipeline), read again every few seconds, so the
 * picture, or the reason it was refused, appears without a reload.
 */
export function orderDetailsQuery(orderId: string, sharingId: string | undefined) {
  return queryOptions({
    ...callQuery('getEventOrderDetails', { orderId, sharingId }),
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (query) =>
      query.state.data?.targets.some((target) => target.state === 'processing') ? PROCESSING_POLL_MS : false,
    gcTime: DATA_CACHE_TIME_MS,
    staleTime: DATA_CACHE_TIME_MS,
  });
}

export function useOrderDetails(orderId: string, sharingId: string | undefined) {
  return useQuery(orderDetailsQuery(orderId, sharingId));
}
