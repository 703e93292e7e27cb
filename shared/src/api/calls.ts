// Keys and page calls as data: the platform table (`@marketplace/shared/platform`, which the
// shell's first chunk reads before any shared module is negotiated) names its pages' calls with
// these, so nothing here may import a shared singleton, nor the API client (the first chunk's size).
import type { ApiRequest, CallArgs, CallName } from '../contract/calls.js';

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
 * One API call a page renders from (its loader's, in the platform table), with the cache key its
 * components read it under (`callQuery`'s). `sendPageCall` sends it; `pageQuery` is its query.
 */
export interface PageCall<K extends CallName = CallName> {
  readonly name: K;
  readonly request: object | undefined;
  readonly queryKey: readonly unknown[];
}

/** A page call, typed by the contract: its request is the one `name` takes. */
export function pageCall<K extends CallName>(name: K, ...args: CallArgs<K>): PageCall<K> {
  return { name, request: args[0], queryKey: callKey(name, args[0]) };
}
