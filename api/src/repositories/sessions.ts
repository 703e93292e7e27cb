import type { Db } from '../db/database.js';
import { type LiveIdentity, newLiveId } from '../live/logins.js';
import type { SessionUser } from '../http/env.js';
import type { UsersRepository } from './users.js';

export type SessionsRepository = ReturnType<typeof sessionsRepository>;

/** Server-side sessions: a random token, its user, and when it expires. */
export function sessionsRepository(db: Db, users: UsersRepository) {
  /** The user of the session whose `column` is `value`, while it lasts. */
  async function userWhere(column: 'token' | 'live_id', value: string): Promise<SessionUser | null> {
    const row = await db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['u.id', 'u.profile_name', 'u.username', 'u.profile_picture', 's.token'])
      .where(`s.${column}`, '=', value)
      .where('s.expires_at', '>', new Date().toISOString())
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      profileName: row.profile_name,
      username: row.username,
      profilePicturePath: row.profile_picture,
      roles: await users.rolesOf(row.id),
      token: row.token,
    };
  }

  return {
    /** The user a live token belongs to, or null for none, unknown or expired. */
    async userFor(token: string | undefined): Promise<SessionUser | null> {
      if (!token) return null;
      return userWhere('token', token);
    },

    /** The user of the live session a broker login names (live/logins.ts), or null when it ended. */
    userForLiveId: (liveId: string): Promise<SessionUser | null> => userWhere('live_id', liveId),

    /** Whether the session a broker login names still lives. */
    async isLive(liveId: string): Promise<boolean> {
      const row = await db
        .selectFrom('sessions')
        .select('token')
        .where('live_id', '=', liveId)
        .where('expires_at', '>', new Date().toISOString())
        .executeTakeFirst();
      return row !== undefined;
    },

    /** What a session's broker logins name: its live id and its user's profile (null: no such session). */
    async liveIdentityOf(token: string): Promise<LiveIdentity | null> {
      const row = await db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.live_id', 'u.profile_name'])
        .where('s.token', '=', token)
        .executeTakeFirst();
      return row?.live_id ? { liveId: row.live_id, profileName: row.profile_name } : null;
    },

    async create(token: string, userId: number, createdAt: Date, expiresAt: Date): Promise<void> {
      await db
        .insertInto('sessions')
        .values({
          token,
          user_id: userId,
          created_at: createdAt.toISOString(),
          expires_at: expiresAt.toISOString(),
          live_id: newLiveId(),
        })
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
