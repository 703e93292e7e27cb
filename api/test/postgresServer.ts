/**
 * The tests' PostgreSQL: the runner's server (api/postgres/postgres.mjs) in a temporary folder on
 * a free port, removed afterwards, and a fresh database per test API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureDatabase, startPostgres as startServer } from 'api/postgres';
import { freePort } from '@marketplace/shared/node/ports';

export interface PostgresServer {
  /** The superuser's URL of the `postgres` database, for creating test databases. */
  url: string;
  stop(): void;
}

export async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  const server = startServer({ dir, port: await freePort() });
  return {
    url: server.url,
    stop() {
      try {
        server.stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A new, empty database on the server, and its URL. */
export const createDatabase = (serverUrl: string, name: string): Promise<string> => ensureDatabase(serverUrl, name);

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
