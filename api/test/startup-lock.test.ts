/**
 * An instance starting while another migrates or seeds waits for it as long as that takes: the
 * lock wait is not one of the statements the pool's timeout cuts short. PostgreSQL only
 * (vitest.config.ts): its instances share a database; SQLite is one process's store.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATION_LOCK, openDatabase, SEED_LOCK } from '../src/db/database.js';
import { DEMO_USERS } from '../src/db/seed.js';
import { useFreshDatabase } from './databases.js';
import { startTestApi } from './harness.js';

const STATEMENT_TIMEOUT_MS = 300;

/**
 * Holds `lock` from a connection of its own while `start` runs; once `start` waits for it, keeps
 * it for three times the statement timeout, checks `start` is still waiting, then lets go.
 */
async function heldWhile<T>(url: string, lock: number, start: () => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query('SELECT pg_advisory_lock($1)', [lock]);
    let outcome = 'waiting';
    const started = start();
    started.then(
      () => (outcome = 'started'),
      (error: unknown) => (outcome = `failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    for (let waiters = 0; waiters === 0 && outcome === 'waiting'; await sleep(50)) {
      const { rows } = await holder.query<{ n: number }>(
        `SELECT COUNT(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`,
        [lock],
      );
      waiters = rows[0]?.n ?? 0;
    }
    await sleep(STATEMENT_TIMEOUT_MS * 3);
    expect(outcome).toBe('waiting');
    await holder.query('SELECT pg_advisory_unlock($1)', [lock]);
    return await started;
  } finally {
    await holder.end();
  }
}

describe('an instance starting while another holds the lock', () => {
  const fresh = useFreshDatabase();

  it('of the migrations waits past the statement timeout, then migrates, with the timeout in force again', async () => {
    const { target, env } = fresh();
    const database = await heldWhile(env.DATABASE_URL ?? '', MIGRATION_LOCK, () =>
      openDatabase(target, { max: 1, statementTimeoutMs: STATEMENT_TIMEOUT_MS }),
    );
    try {
      expect((await database.db.selectFrom('users').select('id').execute()).length).toBe(0);
      // The one connection that waited is back under the timeout.
      await expect(sql`SELECT pg_sleep(1)`.execute(database.db)).rejects.toThrow(/statement timeout/);
    } finally {
      await database.close();
    }
  });

  it('of the demo seed waits past the statement timeout, then finds or writes the demo data', async () => {
    const { env } = fresh();
    const api = await heldWhile(env.DATABASE_URL ?? '', SEED_LOCK, () =>
      startTestApi({ ...env, SEED_DEMO: '1', DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) }),
    );
    try {
      const [users] = await api.rows<{ n: number }>`SELECT COUNT(*) AS n FROM users`;
      expect(users?.n).toBe(DEMO_USERS.length);
    } finally {
      await api.close();
    }
  });
});
