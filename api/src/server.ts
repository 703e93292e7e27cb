import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiConfig } from './config.js';
import { parseCookieHeader, SESSION_COOKIE } from './auth/sessions.js';
import { type Database, databaseTarget, openDatabase } from './db/database.js';
import { seedDemo } from './db/seed.js';
import { orderFileLinks } from './files/orderFileLinks.js';
import { createFileStore } from './files/store.js';
import { createApp, INSTANCE_HEADER } from './http/app.js';
import { createListeners } from './http/listener.js';
import { attachBroker } from './live/broker.js';
import { connectExternalBroker } from './live/external.js';
import { createRelay, type LiveRelay } from './live/relay.js';
import { createRepositories } from './repositories/index.js';
import type { Services } from './services.js';
import { createSweeper, type SweepPass } from './sweep.js';

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
  /** Where /internal/* is served: API_INTERNAL_PORT's listener, or the public one. */
  internalUrl: string;
  services: Services;
  /** The database itself, for tests that check what was stored. */
  database: Database;
  /** One pass of the periodic sweep (sweep.ts) now, if this instance holds the sweep. */
  sweep(): Promise<SweepPass>;
  /** This instance's live relay (live/relay.ts), polling the outbox from the start. */
  relay: LiveRelay;
  /** Stops; `graceMs` first tells the gateway to stop sending (SIGTERM: SHUTDOWN_GRACE_MS). */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Opens the database (migrating it, and seeding an empty one when SEED_DEMO=1), then serves HTTP and the broker on one port. */
export async function startApi(config: ApiConfig): Promise<RunningApi> {
  const database = await openDatabase(databaseTarget(config), config.databasePool);
  const { db } = database;
  const files = createFileStore(config);
  await files.prepare(config.allowedOrigins);
  // Demo data only when asked: never in a deployment, where its accounts' password is public.
  if (config.seedDemo) await seedDemo(database, files);

  // The app needs the broker, which needs the server: requests only arrive after listen(), by when `app` is set.
  const repos = createRepositories(db, config.filesOrigin, orderFileLinks(config.adminToken));
  const listeners = createListeners(
    config,
    { public: (req, env) => publicApp.fetch(req, env), internal: (req, env) => app.fetch(req, env) },
    INSTANCE_HEADER,
  );
  const { server } = listeners;
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
  // Every instance relays the outbox; the outbox lets one at a time publish (live/relay.ts).
  const relay = createRelay({ repos, live }, config.liveRelayPollMs);
  const services: Services = { repos, files, config, live, relay };
  const app = createApp(services);
  // With an internal port, the public one has no operator routes at all (404), whatever the path's spelling.
  const publicApp = config.internalPort === null ? app : createApp(services, { internalRoutes: false });

  // One instance at a time sweeps (sweep.ts); each asks every interval, so another takes over
  // when the holder is gone.
  const sweeper = createSweeper(services, config.sessionSweepMs);
  const sweep = () => sweeper.pass();
  const sweeping = setInterval(() => {
    sweep().catch((error: unknown) =>
      console.error(`[sweep] ${error instanceof Error ? error.message : String(error)}`),
    );
  }, config.sessionSweepMs);
  sweeping.unref();

  const { url, internalUrl } = await listeners.listen();
  relay.start();
  return {
    url,
    internalUrl,
    services,
    database,
    sweep,
    relay,
    async close({ graceMs = 0 } = {}) {
      clearInterval(sweeping);
      await sweeper.release().catch(() => undefined);
      // Drain (http/listener.ts): the gateway is told to stop first, then requests under way finish.
      // The relay publishes what was committed before the broker goes; what comes later waits in
      // the outbox for another instance, or this one's next start.
      await listeners.close(graceMs, () => relay.stop().then(() => live.close()));
      await database.close();
    },
  };
}
