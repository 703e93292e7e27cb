/**
 * A real PostgreSQL server for tests: Debian's postgresql-15 binaries, a new cluster in a
 * temporary folder (initdb), listening on loopback on a free port (pg_ctl), stopped and removed
 * afterwards. Run as root (CI), the server runs as the `postgres` user, which initdb requires.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '@marketplace/shared/node/ports';

export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

export interface PostgresServer {
  /** The superuser's URL of the `postgres` database, for creating test databases. */
  url: string;
  port: number;
  stop(): void;
  /** Stops the server without removing its data (a restart under load), then starts it again with start(). */
  halt(): void;
  start(): void;
}

export async function startPostgres(): Promise<PostgresServer> {
  if (!existsSync(join(POSTGRES_BIN, 'initdb')))
    throw new Error(`PostgreSQL 15 is not installed (${POSTGRES_BIN}): apt-get install postgresql-15`);
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (tool: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : join(POSTGRES_BIN, tool),
      asRoot ? ['-u', 'postgres', '--', join(POSTGRES_BIN, tool), ...args] : args,
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
  // Trust on loopback only: a throwaway cluster nobody else reaches. The C locale sorts as SQLite does.
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-locale', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const halt = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    halt,
    stop() {
      try {
        halt();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A new, empty database on the server, and its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
