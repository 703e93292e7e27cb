/** A fresh database for tests that open it themselves (migrations, schema, locks) rather than through an API. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type DatabaseTarget, databaseTarget } from '../src/db/database.js';
import { freshDatabase } from './harness.js';

export interface FreshDatabase {
  /** The environment an API started on it takes (DATABASE_URL or DATABASE_PATH). */
  env: Record<string, string>;
  target: DatabaseTarget;
  /** A folder of the test's own, removed after it. */
  dir: string;
}

/** A new, empty database for the test file (the run's engine), removed after it. */
export function useFreshDatabase(): () => FreshDatabase {
  let fresh: (FreshDatabase & { drop(): Promise<void> }) | undefined;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-db-test-'));
    const { env, drop } = await freshDatabase(dir);
    const target = databaseTarget({
      databaseUrl: env.DATABASE_URL ?? null,
      databasePath: env.DATABASE_PATH ?? join(dir, 'db.sqlite'),
    });
    fresh = { env, target, dir, drop };
  });
  afterAll(async () => {
    await fresh?.drop();
    if (fresh) rmSync(fresh.dir, { recursive: true, force: true });
  });
  return () => {
    if (!fresh) throw new Error('useFreshDatabase: the database is made in beforeAll; call the getter inside a test');
    return fresh;
  };
}

/** The query builder on the database as it is, without migrating it (openDatabase would). */
export function unmigrated<T>(target: DatabaseTarget): Kysely<T> {
  if ('url' in target)
    return new Kysely<T>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target.url, max: 2 }) }),
    });
  const file = new SQLite(target.path);
  return new Kysely<T>({ dialect: new SqliteDialect({ database: file }) });
}
