import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAdaptorServer } from '@hono/node-server';
import { LOGIN_THROTTLE_RULES } from './auth/loginThrottle.js';
import type { ApiConfig } from './config.js';
import { parseCookieHeader, SESSION_COOKIE } from './auth/sessions.js';
import { type Database, databaseTarget, openDatabase, withMigrationLock } from './db/database.js';
import { needsSeed, seed } from './db/seed.js';
import { createFileStore } from './files/store.js';
import { settleUploads } from './files/uploads.js';
import { createApp } from './http/app.js';
import { attachBroker } from './live/broker.js';
import { connectExternalBroker } from './live/external.js';
import { createRepositories } from './repositories/index.js';
import { endLiveAccess, type Services } from './services.js';

/** How long a starting instance waits for the external broker before serving without live updates. */
const BROKER_READY_MS = 15_000;

async function readyExternalBroker(...args: Parameters<typeof connectExternalBroker>) {
  const broker = connectExternalBroker(...args);
  const waited = await Promise.race([broker.ready.then(() => true), sleep(BROKER_READY_MS).then(() => false)]);
  // A broker down at start is not fatal: pages get 503 for live logins until it is back.
  if (!waited) console.error(`[live] ${args[0]} is not ready after ${BROKER_READY_MS / 1000} s: starting without it`);
  return broker;
}

export interface RunningApi {
  url: string;
  services: Services;
  /** The database itself, for tests that check what was stored. */
  database: Database;
  /** One pass of the periodic sweep (expired sessions, old beacons and failed logins), now. */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/** Opens the database (migrating and seeding a new one), then serves HTTP and the broker on one port. */
export async function startApi(config: ApiConfig): Promise<RunningApi> {
  const database = await openDatabase(databaseTarget(config), config.databasePool);
  const { db, engine } = database;
  const files = createFileStore(config);
  await files.prepare(config.allowedOrigins);
  // Under the migration lock: of instances starting together on one database, one seeds it.
  await withMigrationLock(db, engine, async (trx) => {
    if (await needsSeed(trx)) await seed(trx, files);
  });

  // The app needs the broker, which needs the server: requests only arrive after listen(), by when `app` is set.
  // The node bindings go along as hono's env: per-client limits read the socket's address from them.
  const repos = createRepositories(db, config.filesOrigin);
  const server = createAdaptorServer({ fetch: (req: Request, env: unknown) => app.fetch(req, env) }) as Server;
  const live = config.brokerUrl
    ? await readyExternalBroker(config.brokerUrl, config.brokerAdmin)
    : await attachBroker(server, {
        authenticate: async (login, cookie) =>
          repos.sessions.userFor(
            login
              ? await repos.liveClients.sessionOf(login.username, login.password)
              : parseCookieHeader(cookie, SESSION_COOKIE),
          ),
        isAllowedOrigin: (origin) => config.allowedOrigins.includes(origin),
      });
  const services: Services = { repos, files, config, live };
  const app = createApp(services);

  // Sessions that reach their end lose their broker logins (and connections) too, then go; so do
  // real-user beacons past their keeping time. Uploads sent straight to an object store are settled.
  // Every instance sweeps: each step is idempotent (revoking a login twice, deleting a deleted
  // row), so instances sweeping at once do the same work twice at worst.
  const sweep = async () => {
    for (const token of await repos.sessions.expiredTokens()) {
      await endLiveAccess(services, token);
      await repos.sessions.delete(token);
    }
    await repos.rum.prune(new Date(Date.now() - config.rumKeepDays * 86_400_000).toISOString());
    await repos.loginFailures.prune(new Date(Date.now() - LOGIN_THROTTLE_RULES.windowMs).toISOString());
    await settleUploads(services);
  };
  const sweeper = setInterval(() => {
    sweep().catch((error: unknown) =>
      console.error(`[sweep] ${error instanceof Error ? error.message : String(error)}`),
    );
  }, config.sessionSweepMs);
  sweeper.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.host}:${port}`,
    services,
    database,
    sweep,
    async close() {
      clearInterval(sweeper);
      await live.close();
      // Drain: stop accepting, close idle kept-alive sockets so clients do not reuse them, let
      // requests under way finish (a gateway sends new ones to another instance meanwhile), and
      // cut what is still open after SHUTDOWN_DRAIN_MS.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), config.shutdownDrainMs);
      await closed;
      clearTimeout(cut);
      await database.close();
    },
  };
}
