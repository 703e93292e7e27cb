/** What every repository's queries need: paging, the stored timestamps' format, and what differs by engine. */
import { type Expression, PostgresAdapter, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.js';

/** One page of a list, and whether more exist. */
export interface Page<T> {
  items: T[];
  more: boolean;
}

/** The LIMIT and OFFSET that read one page plus one row, to tell whether more exist without a COUNT. */
export const pageWindow = (pageNo: number, limit: number) => ({ limit: limit + 1, offset: pageNo * limit });

/** Cuts rows read with pageWindow down to the page. */
export function pageOf<T>(rows: T[], limit: number): Page<T> {
  return { items: rows.slice(0, limit), more: rows.length > limit };
}

/** Timestamps are stored as ISO 8601 UTC text, which sorts as time does. */
export const nowIso = () => new Date().toISOString();

/**
 * `column LIKE pattern`, ignoring case on both engines (SQLite's LIKE ignores ASCII case,
 * PostgreSQL's does not), with backslash escaping the pattern's own % and _.
 */
export const likeIgnoringCase = (column: Expression<string>, pattern: string) =>
  sql<SqlBool>`lower(${column}) LIKE lower(${pattern}) ESCAPE '\\'`;

/**
 * The database cannot be reached or is shutting down (PostgreSQL restarting, the network gone):
 * the request cannot be served now, but nothing is wrong with it, so it is answered 503.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? String(error.code) : '';
  // Class 08 is "connection exception"; 57P01-57P03 are the server shutting down or starting.
  if (/^08|^57P0[123]$/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    error.message,
  );
}

/** A write refused by a unique or primary key constraint (another request got there first). */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error) || !('code' in error)) return false;
  // PostgreSQL's unique_violation; better-sqlite3's codes for a UNIQUE or PRIMARY KEY conflict.
  return (
    error.code === '23505' || error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** What runs once each open transaction commits (afterCommit), by the transaction's builder. */
const committed = new WeakMap<Db, Array<() => void>>();

/**
 * Runs `work` in a transaction, or in the one `db` already is (a change spanning repositories,
 * Repositories.transaction, makes them all on one transaction; the builder cannot nest them).
 * Once it commits, runs what `afterCommit` was given in it, in order; after a rollback, nothing.
 */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  const hooks: Array<() => void> = [];
  const result = await db.transaction().execute((trx) => {
    committed.set(trx, hooks);
    return work(trx);
  });
  for (const hook of hooks) hook();
  return result;
}

/**
 * Runs `hook` once what was written on `db` is committed: at once on a connection (each statement
 * commits), after the commit of the transaction `db` is, and never if that rolls back. A
 * transaction not opened by inTransaction is refused: its commit could not be seen.
 */
export function afterCommit(db: Db, hook: () => void): void {
  if (!db.isTransaction) {
    hook();
    return;
  }
  const hooks = committed.get(db);
  if (!hooks) throw new Error('afterCommit: a transaction not opened by inTransaction');
  hooks.push(hook);
}

/** Whether `db` (a connection or a transaction) is PostgreSQL's: for what only it has (row locks). */
export const onPostgres = (db: Db): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
