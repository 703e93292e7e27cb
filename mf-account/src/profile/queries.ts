import { useQuery } from '@tanstack/react-query';
import { apiCall, type ApiResponse } from '@marketplace/shared';

/** The account calls that take no fields. */
type NoInputCall = 'getOwnProfile' | 'getEventOrders' | 'getMyEvents' | 'getMediaPackages' | 'getDiscountCodes';

// apiCall's parameter list depends on K, which TypeScript cannot resolve for a generic K; every
// NoInputCall takes no fields, so this narrower signature is exact for them.
const callWithoutFields = apiCall as <K extends NoInputCall>(name: K) => Promise<ApiResponse<K>>;

/** One query per account page; the key is the call's name, so pages share the cache. */
export function useAccountQuery<K extends NoInputCall>(name: K) {
  return useQuery({ queryKey: ['account', name], queryFn: () => callWithoutFields(name), retry: false });
}
