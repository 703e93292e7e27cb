import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { API_CALLS, type CallArgs, type CallName, type CallSpec } from '../contract/calls.js';
import { isNotFoundQuery } from '../app/serverState.js';
import { apiCall, apiCallWith, statusOf, type CallOptions } from './client.js';
import { callKey, type PageCall } from './calls.js';

export { callKey, pageCall, type PageCall } from './calls.js';

/**
 * The one way every remote queries the API: a `queryOptions` factory per call, keyed by
 * `callKey`. Spread it and add what a call needs: `useQuery({ ...callQuery('getEvent', { eventIdentifier }), retry: false })`.
 */
export function callQuery<K extends CallName>(name: K, ...args: CallArgs<K>) {
  return queryOptions({
    queryKey: callKey(name, args[0]),
    queryFn: () => apiCall(name, ...args),
    ...(isNoRetry(name) && { retry: false }),
  });
}

/** A call the contract says is asked once (`noRetry`): no query of it, page or prefetch, asks again on failure. */
function isNoRetry(name: CallName): boolean {
  return (API_CALLS[name] as CallSpec).noRetry === true;
}

/**
 * The query of a page's call (platform/pageData.ts): what its component reads is what its loader
 * asked, under the same key.
 */
export function pageQuery<K extends CallName>(call: PageCall<K>) {
  return callQuery(call.name, ...([call.request] as CallArgs<K>));
}

/**
 * Sends a page call, with a server's signal, cookie and address of the API when given. Its
 * request was typed against its name where it was made (`pageCall`), so the pair is the
 * contract's, as TypeScript cannot see through the union here.
 */
export function sendPageCall(call: PageCall, options: CallOptions = {}): Promise<unknown> {
  return apiCallWith(options, call.name, ...([call.request] as CallArgs<CallName>));
}

/**
 * The browser's half of a page's loader: on a client navigation, its calls start beside its
 * remote's code, not after it. What the cache holds fresh (the server's answers, a recent visit)
 * or as "does not exist" is not asked again; a call the page's component asks too joins this one.
 */
export function prefetchPageCalls(client: QueryClient, calls: readonly PageCall[]): void {
  for (const call of calls) {
    const known = client.getQueryCache().find({ queryKey: call.queryKey, exact: true });
    if (known && isNotFoundQuery(known)) continue;
    // The page's query joins this one while it runs, so it retries as a page's query does (once;
    // never a call the contract says is asked once), except for answers that asking again will
    // not change (not logged in, not yours, not found).
    void client.prefetchQuery({
      queryKey: call.queryKey,
      queryFn: () => sendPageCall(call),
      retry: (failures, error) => !isNoRetry(call.name) && failures < 1 && ![401, 403, 404].includes(statusOf(error)),
    });
  }
}
