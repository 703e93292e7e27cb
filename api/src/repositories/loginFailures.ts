import type { FailureLog } from '../auth/loginThrottle.js';
import type { Db } from '../db/database.js';

export type LoginFailuresRepository = ReturnType<typeof loginFailuresRepository>;

/** The login throttle's failure log, one row per failure and key, shared by every instance. */
export function loginFailuresRepository(db: Db) {
  const log: FailureLog = {
    async times(keys, since) {
      const rows = await db
        .selectFrom('login_failures')
        .select(['throttle_key', 'failed_at'])
        .where('throttle_key', 'in', keys)
        .where('failed_at', '>', new Date(since).toISOString())
        .orderBy('failed_at')
        .execute();
      const found = new Map<string, number[]>();
      for (const row of rows)
        found.set(row.throttle_key, [...(found.get(row.throttle_key) ?? []), Date.parse(row.failed_at)]);
      return found;
    },
    async add(keys, at) {
      const failed_at = new Date(at).toISOString();
      const rows = await db
        .insertInto('login_failures')
        .values(keys.map((throttle_key) => ({ throttle_key, failed_at })))
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    },
    async remove(ids) {
      if (ids.length > 0) await db.deleteFrom('login_failures').where('id', 'in', ids).execute();
    },
    async forget(key) {
      await db.deleteFrom('login_failures').where('throttle_key', '=', key).execute();
    },
  };
  return {
    ...log,
    /** Removes failures older than `before` (ISO): past the window they count for nothing. */
    async prune(before: string, batch = 1000): Promise<number> {
      const { numDeletedRows } = await db
        .deleteFrom('login_failures')
        .where('id', 'in', (eb) =>
          eb.selectFrom('login_failures').select('id').where('failed_at', '<', before).limit(batch),
        )
        .executeTakeFirst();
      return Number(numDeletedRows);
    },
  };
}
