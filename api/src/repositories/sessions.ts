import { createHash } from 'node:crypto';
import type { Db } from '../db/database.js';
import { type LiveIdentity, newLiveId } from '../live/logins.js';
import type { SessionUser } from '../http/env.js';
import type { UsersRepository } from './users.js';

export type SessionsRepository = ReturnType<typeof sessionsRepository>;

/** How stale a session's last_seen_at may get: a request writes it at most this often. */
export const SEEN_EVERY_MS = 5 * 60_000;

/**
 * A session as its owner's settings list it: `key` stays in the API, only `id` leaves it.
 */
export interface StoredSession {
  id: string;
  key: string;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
}

/**
 * What is stored of a session's token, and what names the session inside the API: the sha256 of
 * the token (which is 256 random bits, so no slow hash is needed). A copy of the table holds no
 * cookie that logs anyone in.
 */
export const sessionKeyOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A session's public name: a prefix of its key, which tells nothing of the token. */
export const sessionIdOf = (key: string) => key.slice(0, 22);

/**
 * Server-side sessions: a random token's key (sessionKeyOf: the token itself is only in the
 * browser's cookie), its user, and when it expires. Only `userFor` and `create` take the token;
 * everything else names a session by its key.
 */
export function sessionsRepository(db: Db, users: UsersRepository) {
  /** The user of the session whose `column` is `value`, while it lasts. */
  async function userWhere(column: 'token' | 'live_id', value: string): Promise<SessionUser | null> {
    const row = await db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['u.id', 'u.profile_name', 'u.username', 'u.profile_picture', 's.token', 's.last_seen_at'])
      .where(`s.${column}`, '=', value)
      .where('s.expires_at', '>', new Date().toISOString())
      .executeTakeFirst();
    if (!row) return null;
    // Last seen for the settings' list of sessions: written only when stale, so most requests write nothing.
    const now = new Date();
    if (!row.last_seen_at || Date.parse(row.last_seen_at) < now.getTime() - SEEN_EVERY_MS) await touch(row.token, now);
    return {
      id: row.id,
      profileName: row.profile_name,
      username: row.username,
      profilePicturePath: row.profile_picture,
      roles: await users.rolesOf(row.id),
      token: row.token,
    };
  }

  const touch = async (key: string, now: Date) => {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now.toISOString() })
      .where('token', '=', key)
      .where((eb) =>
        eb.or([
          eb('last_seen_at', 'is', null),
          eb('last_seen_at', '<', new Date(now.getTime() - SEEN_EVERY_MS).toISOString()),
        ]),
      )
      .execute();
  };

  return {
    /** The user a live token (a session cookie's value) belongs to, or null for none, unknown or expired. */
    async userFor(token: string | undefined): Promise<SessionUser | null> {
      if (!token) return null;
      return userWhere('token', sessionKeyOf(token));
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

    /** What broker logins of the session `key` name: its live id and its user's profile (null: no such session). */
    async liveIdentityOf(key: string): Promise<LiveIdentity | null> {
      const row = await db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.live_id', 'u.profile_name'])
        .where('s.token', '=', key)
        .executeTakeFirst();
      return row?.live_id ? { liveId: row.live_id, profileName: row.profile_name } : null;
    },

    async create(
      token: string,
      userId: number,
      createdAt: Date,
      expiresAt: Date,
      userAgent: string | null = null,
    ): Promise<void> {
      await db
        .insertInto('sessions')
        .values({
          token: sessionKeyOf(token),
          user_id: userId,
          created_at: createdAt.toISOString(),
          expires_at: expiresAt.toISOString(),
          live_id: newLiveId(),
          user_agent: userAgent?.slice(0, 500) ?? null,
          last_seen_at: createdAt.toISOString(),
        })
        .execute();
    },

    /** The user's live sessions, the most recently seen first; `id` names one without its secret. */
    async ofUser(userId: number): Promise<StoredSession[]> {
      const rows = await db
        .selectFrom('sessions')
        .select(['token', 'user_agent', 'created_at', 'last_seen_at'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', new Date().toISOString())
        .execute();
      return rows
        .map((row) => ({
          id: sessionIdOf(row.token),
          key: row.token,
          userAgent: row.user_agent,
          createdAt: row.created_at,
          lastSeenAt: row.last_seen_at ?? row.created_at,
        }))
        .sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt));
    },

    /** Every session key of the user (but `except`), to end them; expired ones too. */
    async keysOf(userId: number, except?: string): Promise<string[]> {
      let query = db.selectFrom('sessions').select('token').where('user_id', '=', userId);
      if (except) query = query.where('token', '!=', except);
      return (await query.execute()).map((row) => row.token);
    },

    /** The keys of sessions past their end, for the sweep that revokes what they were given. */
    async expiredKeys(limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('sessions')
        .select('token')
        .where('expires_at', '<=', new Date().toISOString())
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.token);
    },

    /** Ends the session `key`. Idempotent: every instance's sweep may delete the same expired session at once. */
    async delete(key: string): Promise<void> {
      await db.deleteFrom('sessions').where('token', '=', key).execute();
    },
  };
}
