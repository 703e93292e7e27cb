import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { type Engine, forEngine, MIGRATIONS } from './migrations.js';
import type { ApiConfig } from '../config.js';
import type { Schema } from './schema.js';

export type { Engine };

/** The query builder over either engine; a transaction is one too, so repositories take both. */
export type Db = Kysely<Schema>;

export interface Database {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
}

/** Where the data lives: a PostgreSQL URL (postgres://...) or, by default, one SQLite file. */
export type DatabaseTarget = { url: string } | { path: string; nativeBinding?: string };

export interface PoolOptions {
  /** Connections one instance opens at most (PostgreSQL). */
  max?: number;
  /** How long a query waits for a connection, or a new connection for the server, before it fails. */
  connectTimeoutMs?: number;
  /** Statements running longer are cancelled by the server, so no request hangs on the database. */
  statementTimeoutMs?: number;
}

// PostgreSQL answers COUNT(*) and other 8-byte integers as text, since they can exceed a JS
// number; every such figure here (row counts, ids) is far below 2^53.
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Opens the database and brings its schema up to date. PostgreSQL: a pool of connections;
 * several instances starting at once apply each migration once (see migrate). SQLite: the one
 * file, created if needed.
 */
export async function openDatabase(target: DatabaseTarget, pool: PoolOptions = {}): Promise<Database> {
  if ('url' in target) {
    const pgPool = new pg.Pool({
      connectionString: target.url,
      max: pool.max ?? 10,
      connectionTimeoutMillis: pool.connectTimeoutMs ?? 5000,
      statement_timeout: pool.statementTimeoutMs ?? 10_000,
      types,
    });
    // A connection the server drops while idle (a restart) must not crash the process: the pool
    // discards it and the next query opens another.
    pgPool.on('error', (error) => console.error(`[db] idle connection lost: ${error.message}`));
    // One dropped while in use emits 'error' on its client too, where the pool listens only while
    // it is idle: unheard, that event would end the process. The query under way fails with the
    // same error (answered 503) and the pool discards the client when it is released.
    pgPool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: pgPool }) });
    try {
      await migrate(db, 'postgres');
    } catch (error) {
      await db.destroy();
      throw error;
    }
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(dirname(target.path), { recursive: true });
  // The addon built for another Node than the installed one (the test command's Node 24 run).
  const file = new SQLite(target.path, target.nativeBinding ? { nativeBinding: target.nativeBinding } : {});
  // WAL lets the notify command and tests read while the server writes.
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: file }) });
  await migrate(db, 'sqlite');
  return { db, engine: 'sqlite', close: () => db.destroy() };
}

/** The database a configuration names. */
export function databaseTarget(
  config: Pick<ApiConfig, 'databaseUrl' | 'databasePath' | 'sqliteNativeBinding'>,
): DatabaseTarget {
  if (config.databaseUrl) return { url: config.databaseUrl };
  return config.sqliteNativeBinding
    ? { path: config.databasePath, nativeBinding: config.sqliteNativeBinding }
    : { path: config.databasePath };
}

/** Any number that stays the same: the advisory lock every instance takes to migrate and seed. */
const MIGRATION_LOCK = 727_274_001;

/**
 * Runs `work` in one transaction holding the migration lock, so processes starting together on
 * one database take turns and the later ones find the work done. PostgreSQL: a transaction-scoped
 * advisory lock. SQLite: BEGIN IMMEDIATE takes the write lock first (a deferred transaction that
 * reads, then writes, fails at once when another did the same, instead of waiting its turn).
 */
export async function withMigrationLock<T>(db: Db, engine: Engine, work: (trx: Db) => Promise<T>): Promise<T> {
  if (engine === 'postgres')
    return db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
      return work(trx);
    });
  return db.connection().execute(async (connection) => {
    await sql`BEGIN IMMEDIATE`.execute(connection);
    try {
      const result = await work(connection);
      await sql`COMMIT`.execute(connection);
      return result;
    } catch (error) {
      await sql`ROLLBACK`.execute(connection);
      throw error;
    }
  });
}

async function migrate(db: Db, engine: Engine): Promise<void> {
  await withMigrationLock(db, engine, async (trx) => {
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`.execute(
      trx,
    );
    const current = await schemaVersion(trx);
    for (const [index, migration] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (version <= current) continue;
      for (const statement of forEngine(migration, engine)) await sql.raw(statement).execute(trx);
      await trx.insertInto('schema_migrations').values({ version, applied_at: new Date().toISOString() }).execute();
    }
  });
}

export async function schemaVersion(db: Db): Promise<number> {
  const row = await db
    .selectFrom('schema_migrations')
    .select((eb) => eb.fn.max('version').as('v'))
    .executeTakeFirst();
  return Number(row?.v ?? 0);
}
