/** How many ids a subscription remembers: far more than arrive live between two loads of a list. */
const REMEMBERED = 500;

/**
 * The ids of the live messages one subscription has had. The API's outbox delivers at least once
 * (a message whose acknowledgement it did not get, it publishes again), so a page drops a message
 * whose id it has had. The oldest ids are forgotten past `limit`.
 */
export function seenIds(limit = REMEMBERED) {
  const seen = new Set<number>();
  return {
    /** True the first time `id` is given, false for a copy. */
    first(id: number): boolean {
      if (seen.has(id)) return false;
      seen.add(id);
      const oldest = seen.values().next();
      if (seen.size > limit && !oldest.done) seen.delete(oldest.value);
      return true;
    },
  };
}
