import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';
import { nowIso } from './sql.js';

/** Logins are random 32-byte secrets: a plain hash suffices (nothing to guess), scrypt would only cost time. */
const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

export type LiveClientsRepository = ReturnType<typeof liveClientsRepository>;

/** The broker logins given to browser pages, each tied to the session it was issued to. */
export function liveClientsRepository(db: Db) {
  return {
    async add(username: string, sessionToken: string, password: string): Promise<void> {
      await db
        .insertInto('live_clients')
        .values({ username, session_token: sessionToken, secret_hash: hashOf(password), created_at: nowIso() })
        .execute();
    },

    /** The session a login belongs to, when the password is right. */
    async sessionOf(username: string, password: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('live_clients')
        .select(['session_token', 'secret_hash'])
        .where('username', '=', username)
        .executeTakeFirst();
      if (!row) return undefined;
      const given = Buffer.from(hashOf(password));
      const expected = Buffer.from(row.secret_hash);
      return given.length === expected.length && timingSafeEqual(given, expected) ? row.session_token : undefined;
    },

    async ofSession(sessionToken: string): Promise<string[]> {
      const rows = await db
        .selectFrom('live_clients')
        .select('username')
        .where('session_token', '=', sessionToken)
        .execute();
      return rows.map((r) => r.username);
    },
  };
}
