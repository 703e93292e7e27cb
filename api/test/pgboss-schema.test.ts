// pg-boss's job schema across a pg-boss upgrade: PostgreSQL only (SQLite deployments queue media
// jobs in a table of their own), so the sqlite project leaves this file out.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pgBossQueue } from '../src/media/pgBossQueue.js';
import { DEFAULT_QUEUE_OPTIONS } from '../src/media/queueOptions.js';
import { OLDEST_MIGRATED_SCHEMA } from '../src/media/pgBossSchema.js';
import { useFreshDatabase } from './databases.js';

const database = useFreshDatabase();

async function query<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: database().env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** The job schema as a pg-boss too old to migrate from left it, with one job in it. */
async function oldSchema() {
  await query(`
    CREATE SCHEMA pgboss;
    CREATE TABLE pgboss.version (version int PRIMARY KEY, maintained_on timestamptz, cron_on timestamptz);
    INSERT INTO pgboss.version (version) VALUES (${OLDEST_MIGRATED_SCHEMA - 1});
    CREATE TABLE pgboss.job (id uuid PRIMARY KEY, name text, data jsonb);
    INSERT INTO pgboss.job VALUES ('00000000-0000-4000-8000-000000000001', 'media', '{"kind":"content","id":"c1"}');`);
}

const schemas = async () =>
  (await query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'pgboss%'`))
    .map(({ name }) => name)
    .sort();

describe("pg-boss's job schema", () => {
  it('is set aside when too old to migrate, kept with its jobs, and a new one made; by one of two instances starting at once', async () => {
    await oldSchema();
    const url = database().env.DATABASE_URL ?? '';
    const queues = await Promise.all([
      pgBossQueue(url, DEFAULT_QUEUE_OPTIONS),
      pgBossQueue(url, DEFAULT_QUEUE_OPTIONS),
    ]);
    try {
      const names = await schemas();
      const aside = names.filter((name) => name !== 'pgboss');
      expect(names).toContain('pgboss');
      expect(aside).toHaveLength(1);
      expect(aside[0]).toMatch(new RegExp(`^pgboss_v${OLDEST_MIGRATED_SCHEMA - 1}_\\d+$`));
      expect(await query(`SELECT data FROM ${aside[0]}.job`)).toEqual([{ data: { kind: 'content', id: 'c1' } }]);
      const [current] = await query<{ version: number }>('SELECT version FROM pgboss.version');
      expect(current?.version).toBeGreaterThanOrEqual(OLDEST_MIGRATED_SCHEMA);
      // The new schema takes work.
      await queues[0]?.send({ kind: 'content', id: 'c2' });
      expect(await queues[1]?.pending({ kind: 'content', id: 'c2' })).toBe(true);
      expect(await queues[1]?.pending({ kind: 'content', id: 'c3' })).toBe(false);
    } finally {
      await Promise.all(queues.map((queue) => queue.stop()));
    }
  });

  it('is left as it is when current: a restart keeps its jobs', async () => {
    const url = database().env.DATABASE_URL ?? '';
    const before = await schemas();
    const queue = await pgBossQueue(url, DEFAULT_QUEUE_OPTIONS);
    await queue.stop();
    expect(await schemas()).toEqual(before);
    const again = await pgBossQueue(url, DEFAULT_QUEUE_OPTIONS);
    try {
      expect(await again.pending({ kind: 'content', id: 'c2' })).toBe(true);
    } finally {
      await again.stop();
    }
  });
});
