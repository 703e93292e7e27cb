import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import { envSchema, type Env } from './env.js';
import { parseConfig, refusing } from './fields.js';
import { withKept, type KeptSecrets } from './kept.js';
import {
  brokerOf,
  idempotencyKeyOf,
  liveLoginKeyOf,
  mailOf,
  paymentsOf,
  timeoutsOf,
  trustedProxiesOf,
} from './rules.js';
import { publicOriginOf, workerSettingsOf } from './worker.js';

/** The API's settings from its environment; each property's comment says what it is for. */
function apiConfigOf(env: Env) {
  const publicOrigin = publicOriginOf(env);
  const shared = workerSettingsOf(env);
  const broker = brokerOf(env);
  return {
    host: env.API_HOST,
    port: env.API_PORT,
    /**
     * API_INTERNAL_PORT: when set, the operator routes (/internal/*) are served only on this port
     * (on internalHost), which the public gateway does not pass; unset, on the public port as well.
     */
    internalPort: env.API_INTERNAL_PORT,
    internalHost: env.API_INTERNAL_HOST ?? env.API_HOST,
    ...timeoutsOf(env),
    /** Names this instance in every answer's X-Api-Instance header (API_INSTANCE; host and process by default). */
    instance: env.API_INSTANCE ?? `${hostname()}-${process.pid}`,
    /** Origin the API is reached at by browsers; upload URLs and media URLs are built from it. */
    publicOrigin,
    /** Browser origins allowed to call with credentials (the shell's, and remotes' in development). */
    allowedOrigins: env.API_ALLOWED_ORIGINS,
    ...shared,
    /**
     * The external broker, RabbitMQ's cluster (MQTT_BROKER_URL, a node's mqtt:// URL or several;
     * MQTT_MANAGEMENT_URL, their management APIs likewise; MQTT_USERNAME and MQTT_PASSWORD, the
     * API's login there, which every instance shares). When absent the API embeds a broker at /mqtt.
     */
    broker,
    /**
     * BROKER_AUTH_SECRET: what the broker's HTTP backend presents to /internal/broker/* (basic auth,
     * user BROKER_AUTH_USER, written into rabbitmq.conf's `auth_http.*` URLs, whose user part
     * Erlang's HTTP client sends undecoded, hence its characters), which the routes require before
     * they read anything. An API serving an external broker refuses to start without it
     * (server.ts); without one, the routes refuse every question.
     */
    brokerAuthSecret: env.BROKER_AUTH_SECRET,
    /**
     * The key pages' broker logins are signed with (live/logins.ts): LIVE_LOGIN_KEY, which every
     * instance has (required with an external broker); embedded, one of this process's own. A random
     * secret of its own, not derived from a password: every page gets a login signed with it, which
     * would let anyone test guesses of that password offline.
     */
    liveLoginKey: liveLoginKeyOf(env, broker !== null),
    /** How long a page's broker login may open connections (LIVE_LOGIN_TTL_MS, default 15 min). */
    liveLoginTtlMs: env.LIVE_LOGIN_TTL_MS,
    liveUrl: env.LIVE_PUBLIC_URL ?? `${publicOrigin.replace(/^http/, 'ws')}/mqtt`,
    cookieSecure: env.COOKIE_SECURE || publicOrigin.startsWith('https:'),
    cookieDomain: env.COOKIE_DOMAIN,
    /** How often sessions past their end are removed, revoking their broker logins. */
    sessionSweepMs: env.SESSION_SWEEP_MS,
    /** How often each instance ends sessions past their expiry (SESSION_EXPIRY_CHECK_MS, default 1 s). */
    sessionExpiryCheckMs: env.SESSION_EXPIRY_CHECK_MS,
    /** How often the live relay looks for outbox messages it was not told of (live/relay.ts). */
    liveRelayPollMs: env.LIVE_RELAY_POLL_MS,
    /**
     * On SIGTERM, how long the instance keeps serving first, answering every request with
     * `Connection: close` and /health with 503, so the gateway stops reusing its connections and
     * sending it requests. At least the gateway's upstream keepalive_timeout: a connection the
     * gateway kept idle through the whole grace is closed by the gateway, not under its feet.
     * 0 (default, `npm start`: no gateway): none. SIGINT skips it.
     */
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    /** Then, how long requests under way may take to finish before their connections are cut. */
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    /**
     * The proxies (addresses, CIDRs, loopback/private/linklocal) whose X-Forwarded-For entries are
     * believed: behind them the client is the right-most address that is not one of them (see
     * http/client.ts). None by default, since a client could otherwise name any address it likes.
     */
    trustedProxies: trustedProxiesOf(env),
    /** How much longer each failed login past the free ones is answered (see auth/loginThrottle.ts). */
    loginFailureDelayMs: env.LOGIN_FAILURE_DELAY_MS,
    bodyMaxBytes: env.BODY_MAX_BYTES,
    /** The token guarding /internal: ADMIN_TOKEN, or the one kept beside the database so the CLI finds it. */
    adminToken: env.ADMIN_TOKEN ?? randomBytes(24).toString('hex'),
    /**
     * The key idempotency fingerprints are HMACs under (http/idempotency.ts): IDEMPOTENCY_KEY (32
     * characters at least), the same on every instance so a retry reaching another instance matches.
     * Unset: derived from FILE_LINK_KEY (itself required in production), under a label of its own,
     * so the stored fingerprints cannot be recomputed from the database alone.
     */
    idempotencyKey: idempotencyKeyOf(env, shared.fileLinkKey),
    /** SEED_DEMO=1: an empty database gets the demo accounts and data (`npm start`, tests); never in a deployment. */
    seedDemo: env.SEED_DEMO,
    /**
     * With the demo data: its photos and covers are queued for the media pipeline at start
     * (SEED_DEMO_MEDIA=0 leaves them as seeded: the API's own tests, which do not need the pictures).
     */
    seedDemoMedia: env.SEED_DEMO && env.SEED_DEMO_MEDIA,
    /** Real-user beacons are stored (RUM_COLLECT=off switches collection off; pages then send none). */
    rumCollect: env.RUM_COLLECT,
    /** Beacons one client may send per minute before 429 (a page load sends one each time it is hidden). */
    rumBeaconsPerMinute: env.RUM_BEACONS_PER_MINUTE,
    /**
     * The key the shell's page server signs each page load's beacon token with (RUM_TOKEN_KEY, the
     * same on both; shared/node/rum-token.mjs). Unset: the one kept beside the database
     * (`rum-token-key`), which `npm start` hands its page server too.
     */
    rumTokenKey: env.RUM_TOKEN_KEY ?? randomBytes(32).toString('base64url'),
    /**
     * Page loads one client (address) may add to the figures per hour (RUM_LOADS_PER_HOUR): past
     * them its new loads are refused (429), so no one address weighs more than this in a decision.
     */
    rumLoadsPerHour: env.RUM_LOADS_PER_HOUR,
    /**
     * Browsers one client may bring to a remote version's figures per day
     * (RUM_BROWSERS_PER_VERSION_PER_DAY): a canary is judged per browser, so this caps the
     * evidence an address can buy, however many browser ids it collected.
     */
    rumBrowsersPerVersionPerDay: env.RUM_BROWSERS_PER_VERSION_PER_DAY,
    /** Page loads one browser may add to the figures per hour (RUM_LOADS_PER_BROWSER_PER_HOUR). */
    rumLoadsPerBrowserPerHour: env.RUM_LOADS_PER_BROWSER_PER_HOUR,
    /** Real-user page loads older than this many days are removed by the periodic sweep. */
    rumKeepDays: env.RUM_KEEP_DAYS,
    /** Who takes payments (payments/provider.ts). */
    payments: paymentsOf(env),
    /** How mail leaves (mail/): SMTP, the embedded dev mailbox, or not at all. */
    mail: mailOf(
      env,
      resolve(env.MAILBOX_DIR ?? join(dirname(shared.databasePath), 'mailbox')),
      env.API_ALLOWED_ORIGINS[0] ?? publicOrigin,
    ),
  };
}

const apiConfigSchema = envSchema.transform(refusing(apiConfigOf));

/** The API's settings, as the environment (env.ts) makes them. */
export type ApiConfig = z.output<typeof apiConfigSchema>;

/**
 * Reads the environment; every setting has a default that runs the demo on one machine. Pure:
 * reads no file and writes none. The secrets kept beside the database come in `kept`
 * (keptSecrets.ts reads or makes them at start); one neither in `env` nor in `kept` is made for
 * this process alone, outside production, which refuses to start without the shared ones.
 * Port 0 picks a free port (tests); publicOrigin is then filled in by the server once it listens.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, kept: KeptSecrets = {}): ApiConfig {
  return parseConfig(apiConfigSchema, withKept(env, kept));
}
