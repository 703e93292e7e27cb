import type { LivePayloads } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import type { Schema } from '../db/schema.js';
import type { OutboxWake } from '../outbox/wake.js';
import { afterCommit, nowIso, onPostgres } from './sql.js';

/** The live messages that go through the outbox: those announcing a row (the rollbacks do not). */
export type OutboxKind = Schema['live_outbox']['kind'];

/** An unsent message: its payload is the JSON published as it is. */
export interface OutboxMessage {
  id: number;
  kind: OutboxKind;
  profileName: string;
  payload: string;
  attempts: number;
  nextAttemptAt: string;
}

/** What the relay records of the messages it was given, on the connection that holds them. */
export interface OutboxMarks {
  sent(id: number): Promise<void>;
  /** A publish failed: the message's `attempts`, and not before `retryAt` (ISO) again. */
  failed(id: number, attempts: number, retryAt: string): Promise<void>;
}

const COLUMNS = ['id', 'kind', 'profile_name', 'payload', 'attempts', 'next_attempt_at'] as const;

/**
 * The live outbox (issue 40, item 3): a live message is a row written with what it announces, on
 * the same connection or transaction, and published by the relay (live/relay.ts) once committed:
 * `wake` tells this process's relay of each row when it commits.
 */
export function liveOutboxRepository(db: Db, wake: OutboxWake) {
  const marks = (on: Db): OutboxMarks => ({
    async sent(id) {
      await on.updateTable('live_outbox').set({ sent_at: nowIso() }).where('id', '=', id).execute();
    },
    async failed(id, attempts, retryAt) {
      await on.updateTable('live_outbox').set({ attempts, next_attempt_at: retryAt }).where('id', '=', id).execute();
    },
  });

  const oldestUnsent = (on: Db, limit: number) =>
    on.selectFrom('live_outbox').select(COLUMNS).where('sent_at', 'is', null).orderBy('id').limit(limit);

  const toMessage = (row: {
    id: number;
    kind: OutboxKind;
    profile_name: string;
    payload: string;
    attempts: number;
    next_attempt_at: string;
  }): OutboxMessage => ({
    id: row.id,
    kind: row.kind,
    profileName: row.profile_name,
    payload: row.payload,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
  });

  return {
    /** Queues a message for `profileName`'s topic of `kind`; answers its id. */
    async add<K extends OutboxKind>(kind: K, profileName: string, payload: LivePayloads[K]): Promise<number> {
      const now = nowIso();
      const { id } = await db
        .insertInto('live_outbox')
        .values({
          kind,
          profile_name: profileName,
          payload: JSON.stringify(payload),
          created_at: now,
          next_attempt_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      afterCommit(db, wake.notify);
      return id;
    },

    /**
     * Gives `relay` the `limit` oldest unsent messages, oldest first, when this caller is the only
     * relay of them, and the marks to record what became of each. Answers false when another relay
     * holds the oldest (or there is nothing to send).
     *
     * PostgreSQL, several instances: in one transaction, the rows are locked (FOR UPDATE SKIP
     * LOCKED) and kept so while `relay` publishes them; its marks commit with the locks' release. A
     * relay whose first row is not the oldest unsent one (another holds the oldest, locked, so
     * skipped) gives its rows back untouched: one relay at a time, so messages go out in order and
     * none twice. A relay that dies mid-way rolls back; the next publishes those rows again (at
     * least once: pages drop an id they have). SQLite: one process, whose relay never overlaps
     * itself; no transaction, which there would hold the one connection every request waits for
     * while the broker answers.
     */
    async withOldest(
      limit: number,
      relay: (messages: OutboxMessage[], marks: OutboxMarks) => Promise<void>,
    ): Promise<boolean> {
      // Idle most of the time: one plain read, no transaction, when nothing waits.
      if (!(await db.selectFrom('live_outbox').select('id').where('sent_at', 'is', null).limit(1).executeTakeFirst()))
        return false;
      if (!onPostgres(db)) {
        await relay((await oldestUnsent(db, limit).execute()).map(toMessage), marks(db));
        return true;
      }
      return db.transaction().execute(async (trx) => {
        const rows = await oldestUnsent(trx, limit).forUpdate().skipLocked().execute();
        const oldest = await trx
          .selectFrom('live_outbox')
          .select((eb) => eb.fn.min('id').as('id'))
          .where('sent_at', 'is', null)
          .executeTakeFirst();
        if (rows.length === 0 || rows[0]?.id !== oldest?.id) return false;
        await relay(rows.map(toMessage), marks(trx));
        return true;
      });
    },

    /** Removes up to `batch` messages sent before `before` (ISO); answers how many went. */
    async prune(before: string, batch: number): Promise<number> {
      const { numDeletedRows } = await db
        .deleteFrom('live_outbox')
        .where('id', 'in', (eb) =>
          eb.selectFrom('live_outbox').select('id').where('sent_at', '<', before).orderBy('id').limit(batch),
        )
        .executeTakeFirst();
      return Number(numDeletedRows);
    },
  };
}
