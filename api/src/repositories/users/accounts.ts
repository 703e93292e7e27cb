import type { Db } from '../../db/database.js';
import { nowIso, onPostgres } from '../sql.js';
import { toRef, USER_COLUMNS, type UserRef } from './ref.js';

/** Accounts as log in, sign up and password changes read and write them. */
export function accountsRepository(db: Db) {
  return {
    /** The account with this email (compared lower-cased, as stored), for a password reset. */
    async idByEmail(email: string): Promise<number | undefined> {
      const row = await db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
      return row?.id;
    },

    async passwordHashOf(userId: number): Promise<string | undefined> {
      const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
      return row?.password_hash;
    },

    async setPasswordHash(userId: number, passwordHash: string): Promise<void> {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    },

    /**
     * The user's password hash, read in `db`'s transaction so that no change to it commits before
     * that transaction does: on PostgreSQL the row is locked (FOR SHARE), so a reset or change under
     * way is waited for and its new hash read; SQLite's transactions run one at a time already.
     */
    async passwordHashHeld(userId: number): Promise<string | undefined> {
      const query = db.selectFrom('users').select('password_hash').where('id', '=', userId);
      const row = await (onPostgres(db) ? query.forShare() : query).executeTakeFirst();
      return row?.password_hash;
    },

    /** An account by email or profile name (either logs in), with its password hash. */
    async forLogin(login: string): Promise<(UserRef & { passwordHash: string }) | undefined> {
      const lower = login.toLowerCase();
      const row = await db
        .selectFrom('users')
        .select([...USER_COLUMNS, 'password_hash'])
        .where((eb) => eb.or([eb('email', '=', lower), eb('profile_name', '=', lower)]))
        .executeTakeFirst();
      return row && { ...toRef(row), passwordHash: row.password_hash };
    },

    /** Which of a new account's unique fields another account already has, if any. */
    async takenField(profileName: string, email: string): Promise<'profileName' | 'email' | null> {
      const taken = await db
        .selectFrom('users')
        .select('profile_name')
        .where((eb) => eb.or([eb('profile_name', '=', profileName), eb('email', '=', email.toLowerCase())]))
        .executeTakeFirst();
      if (!taken) return null;
      return taken.profile_name === profileName ? 'profileName' : 'email';
    },

    /** The new account's id; throws a unique violation (sql.ts) when another took its name or email first. */
    async create(user: {
      profileName: string;
      username: string;
      email: string;
      passwordHash: string;
    }): Promise<number> {
      const { id } = await db
        .insertInto('users')
        .values({
          profile_name: user.profileName,
          username: user.username,
          email: user.email.toLowerCase(),
          password_hash: user.passwordHash,
          profile_picture: null,
          bio: '',
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },
  };
}
