import { messageOf } from '@marketplace/shared/errors';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import { DEFAULT_MIGRATION_TABLE, Migrator } from 'kysely/migration';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { type Engine, MIGRATIONS, migrationProvider } from './migrations.js';
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

/**
 * Where the data lives: a PostgreSQL URL (postgres://...) or, by default, one SQLite file.
 * `migrationUrl`: the same database reached directly, for the migrations, when `url` goes through
 * PgBouncer's transaction pooling (their session lock would not hold there).
 */
export type DatabaseTarget = { url: string; migrationUrl?: string } | { path: string };

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
 * Opens the database and brings its schema up to date (db/migrations.ts). PostgreSQL: a pool of
 * connections; several instances starting at once apply each migration once (see holdingLock).
 * SQLite: the one file, created if needed.
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
      if (target.migrationUrl) await migrateDirectly(target.migrationUrl, pool);
      else await migrate(db, 'postgres');
    } catch (error) {
      await db.destroy();
      throw error;
    }
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(dirname(target.path), { recursive: true });
  const file = new SQLite(target.path);
  // WAL lets the notify command and tests read while the server writes.
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: file }) });
  await migrate(db, 'sqlite');
  return { db, engine: 'sqlite', close: () => db.destroy() };
}

/** Migrates over a connection of its own to `url`, closed once done. */
async function migrateDirectly(url: string, pool: PoolOptions): Promise<void> {
  const direct = new Kysely<Schema>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({
        connectionString: url,
        max: 1,
        connectionTimeoutMillis: pool.connectTimeoutMs ?? 5000,
        statement_timeout: pool.statementTimeoutMs ?? 10_000,
        types,
      }),
    }),
  });
  try {
    await migrate(direct, 'postgres');
  } finally {
    await direct.destroy();
  }
}

/** The database a configuration names. */
export function databaseTarget(
  config: Pick<ApiConfig, 'databaseUrl' | 'databasePath'> & Partial<Pick<ApiConfig, 'databaseMigrationUrl'>>,
): DatabaseTarget {
  if (config.databaseUrl)
    return config.databaseMigrationUrl
      ? { url: config.databaseUrl, migrationUrl: config.databaseMigrationUrl }
      : { url: config.databaseUrl };
  return { path: config.databasePath };
}

/** PostgreSQL advisory locks of the work that instances starting together do once: any numbers that stay the same. */
export const MIGRATION_LOCK = 727_274_001;
export const SEED_LOCK = 727_274_002;
/** Held for its lifetime by an instance on PostgreSQL that embeds the live broker. */
export const EMBEDDED_BROKER_LOCK = 727_274_003;

/**
 * Claims the one place of an instance that embeds its broker on this PostgreSQL database (issue
 * 40, item 4): an embedded broker knows only its own instance's pages, so a second instance on
 * the same database would publish where half the pages never listen. Answers the release, or
 * throws when another instance holds it. A session advisory lock on a connection of its own
 * (direct, not through PgBouncer's transaction pooling): it goes when the instance does, killed too.
 */
export async function claimEmbeddedBroker(target: {
  url: string;
  migrationUrl?: string;
}): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: target.migrationUrl ?? target.url });
  client.on('error', () => undefined);
  await client.connect();
  const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [
    EMBEDDED_BROKER_LOCK,
  ]);
  if (!rows[0]?.held) {
    await client.end();
    throw new Error(
      'Another API instance on this PostgreSQL database embeds its own live broker: with several ' +
        'instances, pages and the API must meet on one external broker. Set MQTT_BROKER_URL, ' +
        'MQTT_MANAGEMENT_URL and MQTT_PASSWORD (api/README.md, "Live updates"), or run one instance.',
    );
  }
  return () => client.end();
}

/**
 * Runs `work` on one connection holding `lock`, so processes starting together on one database
 * take turns and the later ones find the work done.
 *
 * PostgreSQL: a session advisory lock, waited for without the statement timeout: an instance
 * starting beside one that migrates or seeds waits as long as that takes, where the pool's
 * timeout would end its start. The work itself runs under the timeout again, and opens its own
 * transaction (the Migrator does). SQLite: BEGIN IMMEDIATE takes the write lock first (a deferred
 * transaction that reads, then writes, fails at once when another did the same, instead of waiting
 * its turn), so the work is one transaction already.
 */
async function holdingLock<T>(db: Db, engine: Engine, lock: number, work: (connection: Db) => Promise<T>): Promise<T> {
  if (engine === 'postgres')
    return db.connection().execute(async (connection) => {
      await sql`SET statement_timeout = 0`.execute(connection);
      try {
        await sql`SELECT pg_advisory_lock(${lock})`.execute(connection);
      } finally {
        // Back to the value the pool opened the connection with.
        await sql`RESET statement_timeout`.execute(connection);
      }
      try {
        return await work(connection);
      } finally {
        await sql`SELECT pg_advisory_unlock(${lock})`.execute(connection);
      }
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

/** Runs `work` in one transaction holding `lock` (see holdingLock): done once of instances starting together. */
export async function inLockedTransaction<T>(
  { db, engine }: Pick<Database, 'db' | 'engine'>,
  lock: number,
  work: (trx: Db) => Promise<T>,
): Promise<T> {
  return holdingLock(db, engine, lock, (connection) =>
    engine === 'sqlite' ? work(connection) : connection.transaction().execute(work),
  );
}

/**
 * Kysely's Migrator on the connection holding MIGRATION_LOCK. It locks too, but its PostgreSQL
 * lock is waited for under the statement timeout: holding ours first, no instance of this API
 * waits on it. On PostgreSQL it runs the pending migrations in one transaction; on SQLite in none
 * (Kysely's SQLite adapter claims no transactional DDL), so there BEGIN IMMEDIATE is the one.
 */
async function migrate(db: Db, engine: Engine): Promise<void> {
  await holdingLock(db, engine, MIGRATION_LOCK, async (connection) => {
    await adoptLegacyMigrations(connection);
    const migrator = new Migrator({ db: connection, provider: migrationProvider(engine) });
    const { error, results } = await migrator.migrateToLatest();
    if (error === undefined) return;
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'setup';
    const reason = messageOf(error);
    throw new Error(`migration ${failed} failed: ${reason}`, { cause: error });
  });
}

/** The tables of migrations themselves: the Migrator's, and the one this API kept before it. */
type MigrationTables = Record<typeof DEFAULT_MIGRATION_TABLE, { name: string; timestamp: string }> & {
  schema_migrations: { version: number; applied_at: string };
};

/**
 * Databases migrated before the Migrator recorded versions 1..n in schema_migrations, version n
 * being the nth of MIGRATIONS. Those are recorded once in the Migrator's table with their times,
 * so an upgraded deployment runs only the migrations it lacks. schema_migrations stays: the
 * release before, if rolled back to, reads it.
 */
async function adoptLegacyMigrations(connection: Db): Promise<void> {
  const tables = await connection.introspection.getTables({ withInternalKyselyTables: true });
  const has = (name: string) => tables.some((table) => table.name === name);
  if (!has('schema_migrations')) return;
  const db = connection.withTables<MigrationTables>();
  if (has(DEFAULT_MIGRATION_TABLE) && (await db.selectFrom(DEFAULT_MIGRATION_TABLE).select('name').executeTakeFirst()))
    return;
  const applied = await db
    .selectFrom('schema_migrations')
    .select(['version', 'applied_at'])
    .orderBy('version')
    .execute();
  if (applied.length === 0) return;
  const rows = applied.map(({ version, applied_at }, index) => {
    const migration = MIGRATIONS[version - 1];
    if (version !== index + 1 || !migration)
      throw new Error(
        `schema_migrations holds version ${version}: not one of this API's ${MIGRATIONS.length}, in order`,
      );
    return { name: migration[0], timestamp: applied_at };
  });
  // As the Migrator makes it, which then finds it there.
  await db.schema
    .createTable(DEFAULT_MIGRATION_TABLE)
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (col) => col.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (col) => col.notNull())
    .execute();
  await db.insertInto(DEFAULT_MIGRATION_TABLE).values(rows).execute();
}
