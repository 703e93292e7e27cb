import type { Db } from '../db/database.js';
import type { SessionUser } from '../http/env.js';
import type { UsersRepository } from './users.js';

export type SessionsRepository = ReturnType<typeof sessionsRepository>;

/** Server-side sessions: a random token, its user, and when it expires. */
export function sessionsRepository(db: Db, users: UsersRepository) {
  return {
    /** The user a live token belongs to, or null for none, unknown or expired. */
    async userFor(token: string | undefined): Promise<SessionUser | null> {
      if (!token) return null;
      const row = await db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['u.id', 'u.profile_name', 'u.username', 'u.profile_picture'])
        .where('s.token', '=', token)
        .where('s.expires_at', '>', new Date().toISOString())
        .executeTakeFirst();
      if (!row) return null;
      return {
        id: row.id,
        profileName: row.profile_name,
        username: row.username,
        profilePicturePath: row.profile_picture,
        roles: await users.rolesOf(row.id),
        token,
      };
    },

    async create(token: string, userId: number, createdAt: Date, expiresAt: Date): Promise<void> {
      await db
        .insertInto('sessions')
        .values({ token, user_id: userId, created_at: createdAt.toISOString(), expires_at: expiresAt.toISOString() })
        .execute();
    },

    /** Sessions past their end, for the sweep that revokes what they were given. */
    async expiredTokens(limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('sessions')
        .select('token')
        .where('expires_at', '<=', new Date().toISOString())
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.token);
    },

    /** Idempotent: every instance's sweep may delete the same expired session at once. */
    async delete(token: string): Promise<void> {
      await db.deleteFrom('sessions').where('token', '=', token).execute();
    },
  };
}
