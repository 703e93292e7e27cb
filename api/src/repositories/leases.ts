import type { Db } from '../db/database.js';

/**
 * Named leases: which instance holds a piece of periodic work, until when. A row rather than a
 * PostgreSQL session advisory lock, so it works alike on SQLite, and behind PgBouncer's
 * transaction pooling, where a session lock would stay with whichever client the pooler lent.
 */
export function leasesRepository(db: Db) {
  return {
    /**
     * Takes or renews the lease for `holder` until `until`, if it is free, past its end, or already
     * this holder's: one statement, so of instances asking at once exactly one gets it.
     */
    async acquire(name: string, holder: string, now: Date, until: Date): Promise<boolean> {
      const row = await db
        .insertInto('leases')
        .values({ name, holder, until: until.toISOString() })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({ holder, until: until.toISOString() })
            .where((eb) => eb.or([eb('leases.until', '<', now.toISOString()), eb('leases.holder', '=', holder)])),
        )
        .returning('name')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Lets the lease go at once (an instance shutting down), if this holder has it. */
    async release(name: string, holder: string): Promise<void> {
      await db
        .updateTable('leases')
        .set({ until: new Date(0).toISOString() })
        .where('name', '=', name)
        .where('holder', '=', holder)
        .execute();
    },
  };
}
