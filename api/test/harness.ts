import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, inject, vi } from 'vitest';
import { freePort } from '@marketplace/shared/node/ports';
import { signRumToken } from '@marketplace/shared/node/rum-token';
import {
  encodeCall,
  type ApiErrorBody,
  type ApiRequest,
  type ApiResponse,
  type CallName,
} from '@marketplace/shared/contract';
import { loadConfigWithSecrets, type ApiConfig } from '../src/config.js';
import { startApi, type RunningApi } from '../src/server.js';
import { createDatabase, dropDatabase } from './postgresServer.js';
import { startStandInBroker } from './standInBroker.js';

export const SHELL_ORIGIN = 'http://localhost:3000';
export const FOREIGN_ORIGIN = 'http://evil.example';
export const ADMIN_TOKEN = 'test-admin-token';
/** The key the tests' page server would sign beacon tokens with (RUM_TOKEN_KEY). */
export const RUM_TOKEN_KEY = 'test-rum-token-key-0123456789abcdef';
export { DEMO_PASSWORD } from '../src/db/seed.js';
export { freePort };

export interface TestApi {
  url: string;
  config: ApiConfig;
  api: RunningApi;
  dir: string;
  /** A browser-like client with its own cookie jar. */
  client(): TestClient;
  /** Logs a demo user in and returns their client. */
  as(profileName: string): Promise<TestClient>;
  /** Runs one SQL statement on the API's database, whichever engine, and answers its rows. */
  rows<T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
  restart(): Promise<void>;
  /** Stops the instance (its memory gone, its database kept); `start` runs it again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The engine this run tests on: the `postgres` project of vitest.config.ts sets API_TEST_ENGINE. */
export const ENGINE = process.env.API_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * The environment that gives an API a fresh database: a new database on the run's PostgreSQL
 * server, or a SQLite file in `dir`. `drop` removes it again.
 */
export async function freshDatabase(dir: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (ENGINE === 'sqlite') return { env: { DATABASE_PATH: join(dir, 'db.sqlite') }, drop: async () => undefined };
  const server = inject('postgresUrl');
  const name = `api_test_${randomBytes(6).toString('hex')}`;
  const url = await createDatabase(server, name);
  return { env: { DATABASE_URL: url, DATABASE_PATH: join(dir, 'db.sqlite') }, drop: () => dropDatabase(server, name) };
}

/**
 * One real API for the test file: started before its tests on a fresh database, stopped after.
 * Returns a getter, since the server exists only once the file's tests begin.
 */
export function useTestApi(env: Record<string, string> = {}): () => TestApi {
  let api: TestApi | undefined;
  beforeAll(async () => {
    api = await startTestApi(env);
  });
  afterAll(() => api?.close());
  return () => {
    if (!api) throw new Error('useTestApi: the API starts in beforeAll; call the getter inside a test');
    return api;
  };
}

/** Starts the real API on 127.0.0.1 with a fresh temporary database (or `dir`, to reuse one). */
export async function startTestApi(
  env: Record<string, string> = {},
  dir = mkdtempSync(join(tmpdir(), 'api-test-')),
): Promise<TestApi> {
  // A database given (replicas sharing one) is the caller's to remove.
  const database = env.DATABASE_URL || env.DATABASE_PATH ? null : await freshDatabase(dir);
  // As `npm start` does: replicas sharing `dir` share the secrets kept there (the file link key).
  const configAt = (port: number) =>
    loadConfigWithSecrets({
      API_PORT: String(port),
      API_PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      API_ALLOWED_ORIGINS: SHELL_ORIGIN,
      MEDIA_DIR: join(dir, 'media'),
      ADMIN_TOKEN,
      RUM_TOKEN_KEY,
      // The tests log in as the demo accounts; the demo's pictures are made only where a test asks.
      SEED_DEMO: '1',
      SEED_DEMO_MEDIA: '0',
      // Every test sends its beacons from 127.0.0.1, as one client: the per-version share of one
      // client is rum.test.ts's subject, which sets it.
      RUM_BROWSERS_PER_VERSION_PER_DAY: '100000',
      ...database?.env,
      ...env,
    });
  // A free port is free only until someone binds it: the files running beside this one (and their
  // brokers) take ports too, so a port taken meanwhile is given up for another.
  let config = configAt(await freePort());
  let api: RunningApi;
  for (let attempt = 1; ; attempt++) {
    try {
      api = await startApi(config);
      break;
    } catch (error) {
      if (attempt === 5 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      config = configAt(await freePort());
    }
  }
  const harness: TestApi = {
    url: api.url,
    config,
    get api() {
      return api;
    },
    dir,
    client: () => new TestClient(api.url),
    async rows<T>(strings: TemplateStringsArray, ...values: unknown[]) {
      return (await sql<T>(strings, ...values).execute(api.database.db)).rows;
    },
    async as(profileName) {
      const client = new TestClient(api.url);
      const res = await client.call('login', { login: profileName, password: 'demo-pass-2026' });
      if (res.status !== 200) throw new Error(`login ${profileName}: ${res.status} ${JSON.stringify(res.body)}`);
      return client;
    },
    async restart() {
      await harness.stop();
      await harness.start();
    },
    async stop() {
      await api.close();
      // Let fetch's pool see its kept-alive sockets close, as a browser would before reusing them.
      // Real time: the pool tells nobody when it drops a socket the server closed.
      await new Promise((resolve) => setTimeout(resolve, 100));
    },
    async start() {
      api = await startApi(config);
    },
    async close() {
      await api.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/**
 * A page load's beacon token as the page server signs it (page-server/rum-token.ts): for `load`,
 * each remote at the versions given (one each by default: those the beacon names), and the
 * browser's id when given.
 */
export function rumToken(
  load: string,
  versions: Partial<Record<string, string | string[]>>,
  {
    key = RUM_TOKEN_KEY,
    cohort = null as number | null,
    browser = undefined as string | undefined,
    now = Date.now(),
    ttlS = 24 * 3600,
  } = {},
): string {
  const signed = Object.fromEntries(
    Object.entries(versions).map(([remote, v]) => [remote, Array.isArray(v) ? v : v === undefined ? [] : [v]]),
  );
  return signRumToken(key, { load, versions: signed, cohort, browser }, { now, ttlS });
}

/** A new page load's beacon body, signed as its page server would: for tests of limits rather than of the beacon. */
export function signedBeaconBody(versions: Record<string, string> = { header: 'aaaaaaaaaaaa' }): string {
  const load = randomUUID();
  return JSON.stringify({ load, token: rumToken(load, versions), versions, vitals: {}, errors: [] });
}

/**
 * Waits, if needed, until the current clock-aligned window of `windowMs` has at least `marginMs`
 * left, so a test's hits against a fixed-window limit all fall in one window.
 */
export async function awayFromWindowEnd(windowMs = 60_000, marginMs = 5000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  // Real time: the limit's windows follow the API's own clock, which the test does not control.
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * Two or more instances on one fresh database, started together as replicas would be. Replicas
 * meet on an external broker (an instance embedding its own refuses a shared PostgreSQL
 * database): a stand-in one of their own (standInBroker.ts), unless `env` names another.
 */
export async function replicas(count: number, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'api-replicas-'));
  const database = await freshDatabase(dir);
  const broker = env.MQTT_BROKER_URL ? null : await startStandInBroker();
  const apis = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      startTestApi(
        { ...database.env, ...broker?.env, MEDIA_DIR: join(dir, 'media'), API_INSTANCE: `api-${i + 1}`, ...env },
        dir,
      ),
    ),
  ).catch(async (error: unknown) => {
    await broker?.close();
    throw error;
  });
  return {
    apis,
    /** The stand-in broker the replicas publish to (null when `env` gave one). */
    broker,
    async close() {
      // The harness removes `dir` with the first; the database goes after the last.
      await Promise.all(apis.map((api) => api.close()));
      await broker?.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** A reply's JSON: the call's contract response, or on failure the error body. */
export type CallBody<K extends CallName> = ApiResponse<K> & Partial<ApiErrorBody>;
/** JSON from a path outside the contract (files host, operator endpoint). */
export type RawBody = Partial<ApiErrorBody> & Record<string, unknown>;

/** The value, or a failed test naming what was missing (list lookups under noUncheckedIndexedAccess). */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}`);
  return value;
}

export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Sends a contract call the way the shared table says (method, path, encoding). */
  async call<K extends CallName>(
    name: K,
    request: ApiRequest<K> | Record<string, unknown> = {},
    init: { origin?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply<CallBody<K>>> {
    // The browser client's own encoding (shared), so the tests send exactly what the apps send.
    const { method, path, body, credentials } = encodeCall(name, request);
    return this.fetch<CallBody<K>>(path, { method, body, origin: init.origin, headers: init.headers, credentials });
  }

  async fetch<B = RawBody>(
    url: string,
    init: {
      method?: string;
      body?: BodyInit;
      headers?: Record<string, string>;
      origin?: string;
      credentials?: boolean;
    } = {},
  ): Promise<Reply<B>> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.credentials !== false && this.cookies.size) headers.cookie = this.cookieHeader;
    if (init.origin) headers.origin = init.origin;
    const res = await fetch(url.startsWith('http') ? url : `${this.base}${url}`, {
      method: init.method ?? 'GET',
      body: init.body,
      headers,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [key, ...rest] = (pair ?? '').split('=');
      if (!key) continue;
      const value = rest.join('=');
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(key.trim());
      else this.cookies.set(key.trim(), value);
    }
    const type = res.headers.get('content-type') ?? '';
    // The one place JSON from the wire becomes a typed body, as in the browser's API client.
    const body = (type.includes('json') ? await res.json() : { text: await res.text() }) as B;
    return { status: res.status, body, headers: res.headers };
  }
}

/**
 * An order's target once its media job has ended (ready or failed), read as `client` reads the
 * order: the job runs in the API's own process in the tests.
 */
export async function processed(client: TestClient, orderId: string, targetIdentifier: string, ms = 20_000) {
  return vi.waitFor(
    async () => {
      const { body } = await client.call('getEventOrderDetails', { orderId });
      const target = body.targets?.find((candidate) => candidate.targetIdentifier === targetIdentifier);
      if (target && target.state !== 'processing') return target;
      throw new Error(`${targetIdentifier} still ${target?.state ?? 'not listed'} after ${ms} ms`);
    },
    { timeout: ms, interval: 100 },
  );
}

/** What `find` gives once it gives something (asked again every 25 ms), or a failure naming `what` after `ms`. */
export async function until<T>(
  find: () => T | undefined | Promise<T | undefined>,
  what: string,
  ms = 8000,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const found = await find();
      if (found === undefined) throw new Error(`timed out waiting for ${what}`);
      return found;
    },
    { timeout: ms, interval: 25 },
  );
}
