import { queryOptions, useQuery } from '@tanstack/react-query';
import { callQuery, DATA_CACHE_TIME_MS } from '@marketplace/shared';

/** SPEC.md section 7: sharingId as a query; no retry; no refetch on window focus; cached 5 minutes. */
export function orderDetailsQuery(orderId: string, sharingId: string | undefined) {
  return queryOptions({
    ...callQuery('getEventOrderDetails', { orderId, sharingId }),
    retry: false,
    refetchOnWindowFocus: false,
    gcTime: DATA_CACHE_TIME_MS,
    staleTime: DATA_CACHE_TIME_MS,
  });
}

export function useOrderDetails(orderId: string, sharingId: string | undefined) {
  return useQuery(orderDetailsQuery(orderId, sharingId));
}
