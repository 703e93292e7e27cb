import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';
import { nowIso } from './sql.js';

/** Logins are random 32-byte secrets: a plain hash suffices (nothing to guess), scrypt would only cost time. */
const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

export type LiveClientsRepository = ReturnType<typeof liveClientsRepository>;

/** The broker logins given to browser pages, each tied to the session it was issued to. */
export function liveClientsRepository(db: Db) {
  return {
    add(username: string, sessionToken: string, password: string): void {
      db.prepare('INSERT INTO live_clients (username, session_token, secret_hash, created_at) VALUES (?, ?, ?, ?)').run(
        username,
        sessionToken,
        hashOf(password),
        nowIso(),
      );
    },

    /** The session a login belongs to, when the password is right. */
    sessionOf(username: string, password: string): string | undefined {
      const row = db.prepare('SELECT session_token, secret_hash FROM live_clients WHERE username = ?').get(username) as
        { session_token: string; secret_hash: string } | undefined;
      if (!row) return undefined;
      const given = Buffer.from(hashOf(password));
      const expected = Buffer.from(row.secret_hash);
      return given.length === expected.length && timingSafeEqual(given, expected) ? row.session_token : undefined;
    },

    ofSession(sessionToken: string): string[] {
      return (
        db.prepare('SELECT username FROM live_clients WHERE session_token = ?').all(sessionToken) as {
          username: string;
        }[]
      ).map((r) => r.username);
    },
  };
}
