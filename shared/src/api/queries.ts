import { queryOptions } from '@tanstack/react-query';
import type { ApiRequest, CallArgs, CallName } from '../contract/calls.js';
import { apiCall } from './client.js';

/**
 * The cache key of a call, from the contract's call table: its name, then its request. TanStack
 * Query compares keys structurally and matches prefixes, so `callKey('getEventOrderDetails',
 * { orderId })` also selects that order whatever its sharingId.
 */
export function callKey<K extends CallName>(
  name: K,
  request?: Partial<ApiRequest<K>>,
): readonly [K] | readonly [K, Partial<ApiRequest<K>>] {
  return request === undefined ? [name] : [name, request];
}

/**
 * The one way every remote queries the API: a `queryOptions` factory per call, keyed by
 * `callKey`. Spread it and add what a call needs: `useQuery({ ...callQuery('getEvent', { eventIdentifier }), retry: false })`.
 */
export function callQuery<K extends CallName>(name: K, ...args: CallArgs<K>) {
  return queryOptions({ queryKey: callKey(name, args[0]), queryFn: () => apiCall(name, ...args) });
}
