import type { Db } from '../db/database.js';
import type { SessionUser } from '../http/env.js';
import type { UsersRepository } from './users.js';

export type SessionsRepository = ReturnType<typeof sessionsRepository>;

/** Server-side sessions: a random token, its user, and when it expires. */
export function sessionsRepository(db: Db, users: UsersRepository) {
  return {
    /** The user a live token belongs to, or null for none, unknown or expired. */
    userFor(token: string | undefined): SessionUser | null {
      if (!token) return null;
      const row = db
        .prepare(
          `SELECT u.id, u.profile_name, u.username, u.profile_picture FROM sessions s JOIN users u ON u.id = s.user_id
           WHERE s.token = ? AND s.expires_at > ?`,
        )
        .get(token, new Date().toISOString()) as
        { id: number; profile_name: string; username: string; profile_picture: string | null } | undefined;
      if (!row) return null;
      return {
        id: row.id,
        profileName: row.profile_name,
        username: row.username,
        profilePicturePath: row.profile_picture,
        roles: users.rolesOf(row.id),
        token,
      };
    },

    create(token: string, userId: number, createdAt: Date, expiresAt: Date): void {
      db.prepare('INSERT INTO sessions (token, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
        token,
        userId,
        createdAt.toISOString(),
        expiresAt.toISOString(),
      );
    },

    /** Sessions past their end, for the sweep that revokes what they were given. */
    expiredTokens(): string[] {
      return (
        db.prepare('SELECT token FROM sessions WHERE expires_at <= ?').all(new Date().toISOString()) as {
          token: string;
        }[]
      ).map((r) => r.token);
    },

    delete(token: string): void {
      db.prepare('DELETE FROM sessions WHERE token = ?').run(token);
    },
  };
}
