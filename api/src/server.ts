import { createPaymentProvider } from './payments/provider.js';
import type { ApiConfig } from './config.js';
import { messageOf } from '@marketplace/shared/errors';
import { cookieIn } from '@marketplace/shared/node/choice';
import { SESSION_COOKIE } from './auth/sessions.js';
import { claimEmbeddedBroker, type Database, databaseTarget, openDatabase } from './db/database.js';
import { seedDemo } from './db/seed.js';
import { fileLinks } from './files/fileLinks.js';
import { createFileStore } from './files/store.js';
import { createApp, INSTANCE_HEADER } from './http/app.js';
import { createListeners } from './http/listener.js';
import { attachBroker } from './live/broker.js';
import { connectExternalBroker } from './live/external.js';
import { liveLogins } from './live/logins.js';
import { createRelay, type LiveRelay } from './live/relay.js';
import { startDevMailbox } from './mail/devMailbox.js';
import { smtpMailer } from './mail/mailer.js';
import { createMailSender, type MailSender } from './mail/sender.js';
import { mediaJobs, queuePublicMedia } from './media/jobs.js';
import { openMediaQueue } from './media/queue.js';
import { createRepositories } from './repositories/index.js';
import type { Services } from './services.js';
import { createSweeper, endExpiredSessions, SWEEP_BATCH, type SweepPass } from './sweep.js';

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
  /** This instance's mail sender (mail/sender.ts), polling the mail outbox from the start; null with MAIL=off. */
  mail: MailSender | null;
  /** Stops; `graceMs` first tells the gateway to stop sending (SIGTERM: SHUTDOWN_GRACE_MS). */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Opens the database (migrating it, and seeding an empty one when SEED_DEMO=1), then serves HTTP and the broker on one port. */
export async function startApi(config: ApiConfig): Promise<RunningApi> {
  refuseExposedBrokerQuestions(config);
  const target = databaseTarget(config);
  // Before anything else: a second instance embedding a broker on a shared database refuses to start.
  const releaseBrokerClaim = 'url' in target && !config.broker ? await claimEmbeddedBroker(target) : null;
  const database = await openDatabase(target, config.databasePool).catch(async (error: unknown) => {
    await releaseBrokerClaim?.();
    throw error;
  });
  // A start that fails past here lets the database and the claim go (a test process goes on).
  try {
    return await serve(config, database, releaseBrokerClaim);
  } catch (error) {
    await database.close();
    await releaseBrokerClaim?.();
    throw error;
  }
}

/**
 * An external broker asks /internal/broker/* who may connect: those routes are on the internal
 * port only (the public one answers 404 for /internal), and answer only the credential its
 * configuration carries. A worker (worker.ts) serves nothing and needs neither.
 */
function refuseExposedBrokerQuestions(config: ApiConfig): void {
  if (!config.broker) return;
  if (config.internalPort === null)
    throw new Error(
      'MQTT_BROKER_URL needs API_INTERNAL_PORT: the broker asks /internal/broker/*, which must not be served on the public port',
    );
  if (config.brokerAuthSecret === null)
    throw new Error(
      'MQTT_BROKER_URL needs BROKER_AUTH_SECRET (32 characters at least): the credential the broker asks /internal/broker/* with (rabbitmq.conf auth_http.*)',
    );
}

async function serve(
  config: ApiConfig,
  database: Database,
  releaseBrokerClaim: (() => Promise<void>) | null,
): Promise<RunningApi> {
  const { db } = database;
  const files = createFileStore(config);
  await files.prepare(config.allowedOrigins);
  // Demo data only when asked: never in a deployment, where its accounts' password is public.
  if (config.seedDemo) await seedDemo(database, files, { cameraSources: config.seedDemoMedia });

  // The app needs the broker, which needs the server: requests only arrive after listen(), by when `app` is set.
  const repos = createRepositories(db, config.filesOrigin, fileLinks(config.fileLinkKey));
  const listeners = createListeners(
    config,
    { public: (req, env) => publicApp.fetch(req, env), internal: (req, env) => app.fetch(req, env) },
    INSTANCE_HEADER,
  );
  const { server } = listeners;
  const logins = liveLogins(config.liveLoginKey, config.liveLoginTtlMs);
  // A broker down at start is not fatal: the outbox keeps what is committed until it is back.
  const live = config.broker
    ? connectExternalBroker({ ...config.broker, logins })
    : await attachBroker(server, {
        authenticate: async (login, cookie) => {
          if (!login) return repos.sessions.userFor(cookieIn(cookie, SESSION_COOKIE) ?? undefined);
          const identity = logins.verify(login.username, login.password);
          return identity ? repos.sessions.userForLiveId(identity.liveId) : null;
        },
        isAllowedOrigin: (origin) => config.allowedOrigins.includes(origin),
      });
  // Every instance relays the outbox; the outbox lets one at a time publish (live/relay.ts).
  const relay = createRelay({ repos, live }, config.liveRelayPollMs);
  const media = await openMediaQueue(database, config);
  const payments = createPaymentProvider(config.payments, () => config.publicOrigin);
  // Mail (mail/): SMTP_URL, or the dev mailbox's listener of this process's own; none with MAIL=off.
  const mailbox = config.mail.mode === 'dev' ? await startDevMailbox(config.mail.mailboxDir) : null;
  const mailer =
    config.mail.mode === 'off'
      ? null
      : smtpMailer(config.mail.mode === 'smtp' ? config.mail.url : (mailbox?.url ?? ''), config.mail.from);
  const mailSender = config.mail.mode === 'off' || !mailer ? null : createMailSender({ repos, mailer }, config.mail);
  const services: Services = {
    repos,
    files,
    config,
    live,
    logins,
    media,
    payments,
  };
  // By default this process runs the media jobs too; a deployment with media-worker processes does not (worker.ts).
  if (config.mediaWorker === 'inline') {
    const jobs = mediaJobs(services);
    await media.work(jobs.handle, jobs.deadLetter, config.mediaConcurrency);
  }
  // The demo's photos, videos, covers and profile pictures go through the pipeline like any
  // upload; the pages show them processing (a user the generic picture) until they are made.
  if (config.seedDemoMedia) await queuePublicMedia(media, services);
  const app = createApp(services);
  // With an internal port, the public one has no operator routes at all (404), whatever the path's spelling.
  const publicApp = config.internalPort === null ? app : createApp(services, { internalRoutes: false });

  // One instance at a time sweeps (sweep.ts); each asks every interval, so another takes over
  // when the holder is gone.
  const sweeper = createSweeper(services, config.sessionSweepMs);
  const sweep = () => sweeper.pass();
  const sweeping = setInterval(() => {
    sweep().catch((error: unknown) => console.error(`[sweep] ${messageOf(error)}`));
  }, config.sessionSweepMs);
  sweeping.unref();
  // Sessions past their expiry end within about a second, with their pages' live connections
  // (issue 40, item 2): a tick never overlaps the previous one, and a failing database is said once.
  let expiring: Promise<void> | null = null;
  let expiryFailing = false;
  const expiry = setInterval(() => {
    expiring ??= endExpiredSessions(services, SWEEP_BATCH)
      .then(() => {
        expiryFailing = false;
      })
      .catch((error: unknown) => {
        if (!expiryFailing) console.error(`[sessions] expiry: ${messageOf(error)}`);
        expiryFailing = true;
      })
      .finally(() => {
        expiring = null;
      });
  }, config.sessionExpiryCheckMs);
  expiry.unref();

  const close = async ({ graceMs = 0 } = {}) => {
    clearInterval(sweeping);
    clearInterval(expiry);
    await expiring;
    await sweeper.release().catch(() => undefined);
    // Drain (http/listener.ts): the gateway is told to stop first, then requests under way finish.
    // The relay publishes what was committed before the broker goes; what comes later waits in
    // the outbox for another instance, or this one's next start.
    await listeners.close(graceMs, () => relay.stop().then(() => live.close()));
    // A job under way finishes (or, past the queue's own wait, is taken again after its lease).
    await media.stop();
    // A mail being sent finishes; what is left waits in the outbox for another instance or the next start.
    await mailSender?.stop();
    mailer?.close();
    await mailbox?.close();
    await database.close();
    await releaseBrokerClaim?.();
  };

  let addresses: { url: string; internalUrl: string };
  try {
    addresses = await listeners.listen();
  } catch (error) {
    // Nothing listens (a port taken): what started is stopped, and nothing is left running.
    await close().catch(() => undefined);
    throw error;
  }
  relay.start();
  mailSender?.start();
  return { ...addresses, services, database, sweep, relay, mail: mailSender, close };
}
