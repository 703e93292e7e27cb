import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';

/** An account page's query (a `callQuery` of shared): account pages do not retry, so an error shows at once. */
export function useAccountQuery<T, K extends QueryKey>(options: UseQueryOptions<T, Error, T, K>) {
  return useQuery({ ...options, retry: false });
}
