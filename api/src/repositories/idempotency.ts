import type { Db } from '../db/database.js';

/**
 * An answer kept for replay: its status and body. Never its cookies (a session's token): only
 * whether it set any, in which case its body is not kept either and a replay is refused.
 */
export interface StoredAnswer {
  status: number;
  body: string;
  contentType: string | null;
  cookies: boolean;
}

/** What a claim on a key found: it is ours to run, its answer to replay, another request running it, or another request's key. */
export type Claim = { claimed: true } | { replay: StoredAnswer } | { busy: true } | { mismatch: true };

/**
 * Idempotency keys and their answers, shared by every instance. The database decides who runs a
 * key: the first insert of (scope, key) wins; a key whose runner died (its lease passed with no
 * answer) may be taken over by a conditional update, once.
 */
export function idempotencyRepository(db: Db) {
  return {
    async claim(
      scope: string,
      key: string,
      fingerprint: string,
      now: Date,
      leaseMs: number,
      keepMs: number,
    ): Promise<Claim> {
      const lockedUntil = new Date(now.getTime() + leaseMs).toISOString();
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({
          scope,
          idempotency_key: key,
          fingerprint,
          status: null,
          response: null,
          locked_until: lockedUntil,
          created_at: now.toISOString(),
        })
        .onConflict((oc) => oc.columns(['scope', 'idempotency_key']).doNothing())
        .returning('scope')
        .executeTakeFirst();
      if (inserted) return { claimed: true };
      const row = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('scope', '=', scope)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
      // Gone since the insert (swept, or released by a failed run): a retry may try again.
      if (!row) return { busy: true };
      const expired = Date.parse(row.created_at) + keepMs < now.getTime();
      if (!expired && row.fingerprint !== fingerprint) return { mismatch: true };
      if (!expired && row.status !== null && row.response !== null)
        return { replay: JSON.parse(row.response) as StoredAnswer };
      if (!expired && Date.parse(row.locked_until) > now.getTime()) return { busy: true };
      // Abandoned (its runner died before answering) or past its keeping time: taken over by
      // exactly one request, the one whose update still finds the row as it was read.
      const taken = await db
        .updateTable('idempotency_keys')
        .set({
          fingerprint,
          status: null,
          response: null,
          locked_until: lockedUntil,
          created_at: now.toISOString(),
        })
        .where('scope', '=', scope)
        .where('idempotency_key', '=', key)
        .where('locked_until', '=', row.locked_until)
        .where('created_at', '=', row.created_at)
        .executeTakeFirst();
      return taken.numUpdatedRows > 0n ? { claimed: true } : { busy: true };
    },

    async complete(scope: string, key: string, answer: StoredAnswer): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({ status: answer.status, response: JSON.stringify(answer) })
        .where('scope', '=', scope)
        .where('idempotency_key', '=', key)
        .execute();
    },

    /** A run that failed without an answer worth keeping (5xx): the key is free for a retry. */
    async release(scope: string, key: string): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('scope', '=', scope)
        .where('idempotency_key', '=', key)
        .where('status', 'is', null)
        .execute();
    },

    /** Removes keys created before `before` (ISO), at most `batch`; answers how many went. */
    async prune(before: string, batch: number): Promise<number> {
      const { numDeletedRows } = await db
        .deleteFrom('idempotency_keys')
        .where((eb) =>
          eb(
            eb.refTuple('scope', 'idempotency_key'),
            'in',
            eb
              .selectFrom('idempotency_keys')
              .select(['scope', 'idempotency_key'])
              .where('created_at', '<', before)
              .limit(batch)
              .$asTuple('scope', 'idempotency_key'),
          ),
        )
        .executeTakeFirst();
      return Number(numDeletedRows);
    },
  };
}
