import type { Db } from '../db/database.js';

/**
 * Password reset links (0017): a row per link, keyed by the sha256 of its token (the token itself
 * is only in the mail). Using one is a conditional update, so of two uses at once one wins.
 */
export function passwordResetsRepository(db: Db) {
  return {
    /** Adds a link that lasts `lifetimeMs` from `now` (one clock reading for both ends). */
    async add(tokenHash: string, userId: number, lifetimeMs: number, now = new Date()): Promise<void> {
      const expiresAt = new Date(now.getTime() + lifetimeMs);
      await db
        .insertInto('password_resets')
        .values({
          token_hash: tokenHash,
          user_id: userId,
          created_at: now.toISOString(),
          expires_at: expiresAt.toISOString(),
        })
        .execute();
    },

    /**
     * Uses the link whose token hashes to `tokenHash`, once, while it lasts: answers its user, or
     * null for a link unknown, used or expired.
     */
    async use(tokenHash: string, now = new Date()): Promise<number | null> {
      const row = await db
        .updateTable('password_resets')
        .set({ used_at: now.toISOString() })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id ?? null;
    },

    /** Ends every link of the user not used yet (their password changed: older links are void). */
    async voidAll(userId: number, now = new Date()): Promise<void> {
      await db
        .updateTable('password_resets')
        .set({ used_at: now.toISOString() })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    },

    /** Removes up to `batch` links that expired before `before` (ISO); answers how many went. */
    async prune(before: string, batch: number): Promise<number> {
      const { numDeletedRows } = await db
        .deleteFrom('password_resets')
        .where('token_hash', 'in', (eb) =>
          eb
            .selectFrom('password_resets')
            .select('token_hash')
            .where('expires_at', '<', before)
            .orderBy('expires_at')
            .limit(batch),
        )
        .executeTakeFirst();
      return Number(numDeletedRows);
    },
  };
}
