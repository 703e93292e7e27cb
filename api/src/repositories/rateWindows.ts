import type { HitCounter } from '../rum/rateWindow.js';
import type { Db } from '../db/database.js';

/** Per-client hit counts per time window (rum/rateWindow.ts), shared by every instance. */
export function rateWindowsRepository(db: Db) {
  const counter: HitCounter = {
    // One statement: the row is created or incremented and read back atomically, so hits that
    // arrive at once on several instances are all counted.
    async hit(key, windowStart) {
      const { hits } = await db
        .insertInto('rate_windows')
        .values({ rate_key: key, window_start: new Date(windowStart).toISOString(), hits: 1 })
        .onConflict((oc) =>
          oc.columns(['rate_key', 'window_start']).doUpdateSet((eb) => ({ hits: eb('rate_windows.hits', '+', 1) })),
        )
        .returning('hits')
        .executeTakeFirstOrThrow();
      return hits;
    },
  };
  return {
    ...counter,
    /** Removes windows that started before `before` (ISO), at most `batch` of them; answers how many went. */
    async prune(before: string, batch: number): Promise<number> {
      const { numDeletedRows } = await db
        .deleteFrom('rate_windows')
        .where((eb) =>
          eb(
            eb.refTuple('rate_key', 'window_start'),
            'in',
            eb
              .selectFrom('rate_windows')
              .select(['rate_key', 'window_start'])
              .where('window_start', '<', before)
              .limit(batch)
              .$asTuple('rate_key', 'window_start'),
          ),
        )
        .executeTakeFirst();
      return Number(numDeletedRows);
    },
  };
}
