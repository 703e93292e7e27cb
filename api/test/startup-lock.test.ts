/**
 * An instance starting while another migrates or seeds waits for it as long as that takes: the
 * lock wait is not one of the statements the pool's timeout cuts short. And an instance that
 * embeds the live broker is the only one on its database (issue 40, item 4). PostgreSQL only
 * (vitest.config.ts): its instances share a database; SQLite is one process's store.
 */
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'kysely';
import mqtt from 'mqtt';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { LIVE_WEBSOCKET_PATH } from '@marketplace/shared/contract';
import { MIGRATION_LOCK, openDatabase, SEED_LOCK } from '../src/db/database.js';
import { DEMO_USERS } from '../src/db/seed.js';
import { useFreshDatabase } from './databases.js';
import { DEMO_PASSWORD, SHELL_ORIGIN, startTestApi, type TestApi } from './harness.js';

const STATEMENT_TIMEOUT_MS = 300;

/**
 * Holds `lock` from a connection of its own while `start` runs; once `start` has waited for it
 * three times the statement timeout by PostgreSQL's own clock (the one the timeout runs on),
 * checks `start` is still waiting, then lets go.
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
    // Its wait for the lock, as PostgreSQL sees it: begun three statement timeouts ago.
    await vi.waitFor(
      async () => {
        expect(outcome).toBe('waiting');
        const { rows } = await holder.query<{ n: number }>(
          `SELECT COUNT(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
           WHERE l.locktype = 'advisory' AND l.objid = $1 AND NOT l.granted
             AND clock_timestamp() - a.query_start > $2::int * interval '1 millisecond'`,
          [lock, STATEMENT_TIMEOUT_MS * 3],
        );
        expect(rows[0]?.n).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 50 },
    );
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

// Issue 40, item 4: an embedded broker knows only its own instance's pages, so a second instance
// embedding one on the same database would publish where half the pages never listen.
describe('an instance on PostgreSQL without an external broker', () => {
  const fresh = useFreshDatabase();

  it('that cannot listen (its port taken) stops what it started, leaving no connection: the next one starts and serves', async () => {
    const { env, dir } = fresh();
    const taken = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    try {
      const port = String((taken.address() as AddressInfo).port);
      await expect(startTestApi({ ...env, API_PORT: port }, join(dir, 'refused'))).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } finally {
      taken.close();
    }
    // No connection of the refused one is left on the database (its media queue's pool among them).
    const watcher = new pg.Client({ connectionString: env.DATABASE_URL });
    await watcher.connect();
    try {
      await vi.waitFor(
        async () => {
          const { rows } = await watcher.query<{ n: number }>(
            'SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
          );
          expect(rows[0]?.n).toBe(0);
        },
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      await watcher.end();
    }
    // Had the refused one kept its broker's claim on the database, this one would refuse to start.
    const next = await startTestApi(env, join(dir, 'next'));
    try {
      expect((await next.client().call('getEvents', {})).status).toBe(200);
    } finally {
      await next.close();
    }
  });

  it('is the only one on its database: a second refuses to start naming MQTT_BROKER_URL, the first serves on, and once it stops another starts', async () => {
    const { env, dir } = fresh();
    const started: TestApi[] = [];
    try {
      const first = await startTestApi(env, join(dir, 'first'));
      started.push(first);
      const second = startTestApi(env, join(dir, 'second'));
      // Were it to start after all, it is stopped with the others.
      second.then(
        (api) => started.push(api),
        () => undefined,
      );
      await expect(second).rejects.toThrow(/MQTT_BROKER_URL/);
      // The refusal cost the first nothing: it answers, logs in, and its broker takes its pages.
      expect((await first.client().fetch('/health')).status).toBe(200);
      const clara = first.client();
      expect((await clara.call('login', { login: 'clara', password: DEMO_PASSWORD })).status).toBe(200);
      const { body: login } = await clara.call('getLiveCredentials');
      const page = await mqtt.connectAsync(`${first.url.replace('http', 'ws')}${LIVE_WEBSOCKET_PATH}`, {
        username: login.username,
        password: login.password,
        reconnectPeriod: 0,
        connectTimeout: 5000,
        wsOptions: { headers: { origin: SHELL_ORIGIN } },
      });
      await page.endAsync(true);
      // Stopped, it lets go of its place: the next instance starts and serves the same sessions.
      started.pop();
      await first.close();
      const next = await startTestApi(env, join(dir, 'next'));
      started.push(next);
      const again = next.client();
      for (const [k, v] of clara.cookies) again.cookies.set(k, v);
      expect((await again.call('checkAuthentication')).status).toBe(200);
    } finally {
      await Promise.all(started.map((api) => api.close()));
    }
  });
});
