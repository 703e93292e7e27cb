// Runs Debian's PostgreSQL 15 on loopback from a data folder of its own (initdb once, then
// pg_ctl), for the API's PostgreSQL tests, the e2e suite's production project and
// `npm run start:prod`. Run as root, the server runs as the `postgres` user, as initdb requires.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { stopOnSignal } from '@marketplace/shared/node/ports';

export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

/**
 * Starts PostgreSQL with its data in `dir` (a new cluster the first time, kept after), on
 * 127.0.0.1:`port`, trusting loopback connections: a server for this machine's own processes.
 *
 * @param {{ dir: string, port: number }} options
 * @returns {{ url: string, port: number, stop(): void, start(): void }} `url`: the superuser's, on the `postgres` database
 */
export function startPostgres({ dir, port }) {
  if (!existsSync(join(POSTGRES_BIN, 'initdb')))
    throw new Error(`PostgreSQL 15 is not installed (${POSTGRES_BIN}): apt-get install postgresql-15`);
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    /** @param {string} flag */
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  chmodSync(dir, 0o700);
  /** @param {string} tool @param {string[]} args */
  const run = (tool, args) =>
    execFileSync(
      asRoot ? 'runuser' : join(POSTGRES_BIN, tool),
      asRoot ? ['-u', 'postgres', '--', join(POSTGRES_BIN, tool), ...args] : args,
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  // The C locale sorts text byte-wise, as SQLite does.
  if (!existsSync(join(data, 'PG_VERSION')))
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-locale', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']);
  const stop = () => {
    if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  start();
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, start, stop };
}

/**
 * Creates a database on the server when it does not exist; answers its URL.
 * @param {string} serverUrl @param {string} name
 */
export async function ensureDatabase(serverUrl, name) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

// `node api/postgres/postgres.mjs`: the server in the foreground until SIGINT or SIGTERM, with
// the database PG_DATABASE made (PG_DATA_DIR, PG_PORT; 54320 and `platform` by default).
if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.env.PG_DATA_DIR;
  if (!dir) {
    console.error('postgres.mjs: set PG_DATA_DIR (and PG_PORT, PG_DATABASE)');
    process.exit(2);
  }
  const server = startPostgres({ dir, port: Number(process.env.PG_PORT || 54320) });
  const url = await ensureDatabase(server.url, process.env.PG_DATABASE || 'platform');
  console.log(`[postgres] ${url}`);
  stopOnSignal(async () => server.stop());
  // Stay in the foreground: the server is pg_ctl's child, stopped by the signal handler.
  setInterval(() => {}, 1 << 30);
}
