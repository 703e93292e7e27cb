import type { Role } from '@marketplace/shared/contract';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../sql.js';

/** The roles a user chooses themselves; EVENT_ORGANIZER is granted by the business. */
export type ChosenRole = Extract<Role, 'DRIVER' | 'MEDIA'>;

/** A user's roles. */
export function rolesRepository(db: Db) {
  return {
    async rolesOf(userId: number): Promise<Role[]> {
      const rows = await db
        .selectFrom('user_roles')
        .select('role')
        .where('user_id', '=', userId)
        .orderBy('role')
        .execute();
      return rows.map((r) => r.role);
    },

    /** Replaces the roles a user chooses, keeping the ones the business grants. */
    async setChosenRoles(userId: number, chosen: ChosenRole[]): Promise<void> {
      await inTransaction(db, async (trx) => {
        // The user's row held first: concurrent changes of one user's roles take turns (the last
        // one wins) instead of both deleting nothing and then inserting the same key (a 500).
        await trx
          .updateTable('users')
          .set((eb) => ({ id: eb.ref('id') }))
          .where('id', '=', userId)
          .execute();
        await trx
          .deleteFrom('user_roles')
          .where('user_id', '=', userId)
          .where('role', 'in', ['DRIVER', 'MEDIA'])
          .execute();
        if (chosen.length > 0)
          await trx
            .insertInto('user_roles')
            .values(chosen.map((role) => ({ user_id: userId, role })))
            .execute();
      });
    },
  };
}
