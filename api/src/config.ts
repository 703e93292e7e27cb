import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRumTokenKey, readOrCreateRumTokenKey } from '@marketplace/shared/node/rum-token';
import { LOGIN_THROTTLE_RULES } from './auth/loginThrottle.js';
import { trustedProxies } from './http/client.js';
import { DEFAULT_QUEUE_OPTIONS, type QueueOptions } from './media/queueOptions.js';

export interface ApiConfig {
  host: string;
  port: number;
  /**
   * API_INTERNAL_PORT: when set, the operator routes (/internal/*) are served only on this port
   * (on internalHost), which the public gateway does not pass; unset, on the public port as well.
   */
  internalPort: number | null;
  internalHost: string;
  /**
   * How long an idle kept-alive connection stays open (Node closes it a second later still).
   * Longer than the gateway's upstream keepalive_timeout (api/gateway/nginx.conf, 15 s), so the
   * gateway always closes an idle connection first and never sends a request on one this side is
   * closing (a 502 for a POST).
   */
  keepAliveTimeoutMs: number;
  /** How long a request's headers may take; longer than keepAliveTimeoutMs, as Node requires for keep-alive to hold. */
  headersTimeoutMs: number;
  /** How long a whole request (body included: uploads) may take to arrive. */
  requestTimeoutMs: number;
  /** Names this instance in every answer's X-Api-Instance header (API_INSTANCE; host and process by default). */
  instance: string;
  /** Origin the API is reached at by browsers; upload URLs and media URLs are built from it. */
  publicOrigin: string;
  /** Origin of the files host (downloads, media, upload targets). Defaults to publicOrigin. */
  filesOrigin: string;
  /** Browser origins allowed to call with credentials (the shell's, and remotes' in development). */
  allowedOrigins: string[];
  /** The SQLite file, the default store (`npm start`); unused when databaseUrl is set. */
  databasePath: string;
  /** DATABASE_URL=postgres://...: PostgreSQL instead of the SQLite file, shared by every instance. */
  databaseUrl: string | null;
  /**
   * DATABASE_MIGRATION_URL: the same database reached directly, for the migrations at start, when
   * DATABASE_URL goes through PgBouncer's transaction pooling (docker-compose). Unset: DATABASE_URL.
   */
  databaseMigrationUrl: string | null;
  /** better-sqlite3's addon built for this Node when the installed one is for another (SQLITE_NATIVE_BINDING). */
  sqliteNativeBinding: string | null;
  /** PostgreSQL connections per instance, and how long a query may wait for one or run. */
  databasePool: { max: number; connectTimeoutMs: number; statementTimeoutMs: number };
  /** The local files folder (uploads and media), the default store; unused when filesS3 is set. */
  mediaDir: string;
  /** FILES_S3_ENDPOINT=...: uploads and media in an S3-compatible object store instead, shared by every instance. */
  filesS3: FilesS3Config | null;
  /**
   * The external broker, RabbitMQ's cluster (MQTT_BROKER_URL, a node's mqtt:// URL or several,
   * comma-separated; MQTT_MANAGEMENT_URL, their management APIs likewise; MQTT_USERNAME and
   * MQTT_PASSWORD, the API's login there, which every instance shares). When absent the API
   * embeds a broker at /mqtt.
   */
  broker: { urls: string[]; managementUrls: string[]; login: { username: string; password: string } } | null;
  /**
   * BROKER_AUTH_SECRET: what the broker's HTTP backend presents to /internal/broker/* (basic auth,
   * user BROKER_AUTH_USER, written into rabbitmq.conf's `auth_http.*` URLs), which the routes
   * require before they read anything. An API serving an external broker refuses to start without
   * it (server.ts); without one, the routes refuse every question.
   */
  brokerAuthSecret: string | null;
  /**
   * The key pages' broker logins are signed with (live/logins.ts): LIVE_LOGIN_KEY, which every
   * instance has (required with an external broker); embedded, one of this process's own. A random
   * secret of its own, not derived from a password: every page gets a login signed with it, which
   * would let anyone test guesses of that password offline.
   */
  liveLoginKey: Buffer;
  /** How long a page's broker login may open connections (LIVE_LOGIN_TTL_MS, default 15 min). */
  liveLoginTtlMs: number;
  /** The URL browsers connect to for live updates. */
  liveUrl: string;
  cookieSecure: boolean;
  /**
   * The proxies (addresses, CIDRs, loopback/private/linklocal) whose X-Forwarded-For entries are
   * believed: behind them the client is the right-most address that is not one of them (see
   * http/client.ts). None by default, since a client could otherwise name any address it likes.
   */
  trustedProxies: string[];
  /** How much longer each failed login past the free ones is answered (see auth/loginThrottle.ts). */
  loginFailureDelayMs: number;
  cookieDomain: string | null;
  /**
   * On SIGTERM, how long the instance keeps serving first, answering every request with
   * `Connection: close` and /health with 503, so the gateway stops reusing its connections and
   * sending it requests. At least the gateway's upstream keepalive_timeout: a connection the
   * gateway kept idle through the whole grace is closed by the gateway, not under its feet.
   * 0 (default, `npm start`: no gateway): none. SIGINT skips it.
   */
  shutdownGraceMs: number;
  /** Then, how long requests under way may take to finish before their connections are cut. */
  shutdownDrainMs: number;
  /** How often sessions past their end are removed, revoking their broker logins. */
  sessionSweepMs: number;
  /** How often each instance ends sessions past their expiry (SESSION_EXPIRY_CHECK_MS, default 1 s). */
  sessionExpiryCheckMs: number;
  /** How often the live relay looks for outbox messages it was not told of (live/relay.ts). */
  liveRelayPollMs: number;
  uploadMaxBytes: number;
  /** The largest video upload (VIDEO_UPLOAD_MAX_BYTES, default 500 MB): videos are not compressed in the browser. */
  videoUploadMaxBytes: number;
  /**
   * Where media jobs run (media/queue.ts): 'inline' (default), in this process beside serving;
   * 'off', in media-worker processes only (`src/worker.ts`, a production deployment).
   */
  mediaWorker: 'inline' | 'off';
  /** Jobs one worker process runs at once (MEDIA_WORKER_CONCURRENCY, default 1: a job uses a core). */
  mediaConcurrency: number;
  /** The media queue's retries, lease and timeout (MEDIA_RETRY_LIMIT, MEDIA_RETRY_DELAY_MS, MEDIA_LEASE_MS, MEDIA_JOB_TIMEOUT_MS). */
  mediaQueue: QueueOptions;
  bodyMaxBytes: number;
  adminToken: string;
  /**
   * The key links to private files are signed with (files/signedLinks.ts: an order's files, the
   * unmarked pictures of an item for sale, bought originals): FILE_LINK_KEY, the same on every
   * instance, 32 characters at least. A secret of its own, never the operator token, which the
   * release watcher and the operators' tools hold too. Unset: one made once and kept beside the
   * database (`file-link-key`); NODE_ENV=production refuses to start without it.
   */
  fileLinkKey: string;
  /**
   * The key idempotency fingerprints are HMACs under (http/idempotency.ts): IDEMPOTENCY_KEY (32
   * characters at least), the same on every instance so a retry reaching another instance matches.
   * Unset: derived from FILE_LINK_KEY (itself required in production), under a label of its own,
   * so the stored fingerprints cannot be recomputed from the database alone.
   */
  idempotencyKey: Buffer;
  /** SEED_DEMO=1: an empty database gets the demo accounts and data (`npm start`, tests); never in a deployment. */
  seedDemo: boolean;
  /**
   * With the demo data: its photos and covers are queued for the media pipeline at start
   * (SEED_DEMO_MEDIA=0 leaves them as seeded: the API's own tests, which do not need the pictures).
   */
  seedDemoMedia: boolean;
  /** Real-user beacons are stored (RUM_COLLECT=off switches collection off; pages then send none). */
  rumCollect: boolean;
  /** Beacons one client may send per minute before 429 (a page load sends one each time it is hidden). */
  rumBeaconsPerMinute: number;
  /**
   * The key the shell's page server signs each page load's beacon token with (RUM_TOKEN_KEY, the
   * same on both; shared/node/rum-token.mjs). Unset: one made once and kept beside the database
   * (`rum-token-key`), which `npm start` hands its page server too.
   */
  rumTokenKey: string;
  /**
   * Page loads one client (address) may add to the figures per hour (RUM_LOADS_PER_HOUR): past
   * them its new loads are refused (429), so no one address weighs more than this in a decision.
   */
  rumLoadsPerHour: number;
  /** Real-user page loads older than this many days are removed by the periodic sweep. */
  rumKeepDays: number;
  /** Who takes payments (payments/provider.ts). */
  payments: PaymentsConfig;
  /** How mail leaves (mail/): SMTP, the embedded dev mailbox, or not at all. */
  mail: MailConfig;
}

/**
 * SMTP_URL=smtp(s)://user:pass@host:port: mail goes there (nodemailer). Unset, outside production:
 * an SMTP listener of the API's own on 127.0.0.1 catches it into the dev mailbox (MAILBOX_DIR,
 * `<database folder>/mailbox`, listed at /internal/mailbox). MAIL=off: no mail is queued or sent.
 * NODE_ENV=production refuses to start with neither SMTP_URL nor MAIL=off: a deployment's mail
 * must not land in a folder nobody reads.
 */
export type MailConfig =
  ({ mode: 'smtp'; url: string } & MailSending) | ({ mode: 'dev'; mailboxDir: string } & MailSending) | { mode: 'off' };

export interface MailSending {
  /** The From address (MAIL_FROM). */
  from: string;
  /** Where links in mails point: the shell's origin (MAIL_LINK_ORIGIN, default the first allowed origin). */
  linkOrigin: string;
  /** How often the sender looks for mail it was not told of (MAIL_POLL_MS). */
  pollMs: number;
  /** The wait after a failed send, doubled at each further one up to the most (MAIL_RETRY_FIRST_MS, MAIL_RETRY_MOST_MS). */
  retryFirstMs: number;
  retryMostMs: number;
  /** How long a sender holds a mail it took; a sender that died lets it go after this (MAIL_SEND_LEASE_MS). */
  leaseMs: number;
}

/**
 * Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set; the embedded test payments
 * with the demo data (`npm start`, the tests) or when PAYMENTS_PROVIDER=test names them; else
 * none, and checkout says payments are not set up. Test payments never start in a deployment by
 * default: no money moves through them.
 */
export type PaymentsConfig =
  | { provider: 'stripe'; secretKey: string; webhookSecret: string }
  | { provider: 'test'; webhookSecret: string }
  | { provider: 'none' };

/** An S3-compatible object store for uploads and media (FILES_S3_*). */
export interface FilesS3Config {
  /** Where the API reaches the store (FILES_S3_ENDPOINT). */
  endpoint: string;
  /** Where browsers reach it: presigned upload and download URLs name this (FILES_S3_PUBLIC_ENDPOINT, default endpoint). */
  publicEndpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bucket in the path (MinIO, s3rver, any endpoint by address) rather than in the host name. */
  pathStyle: boolean;
}

const apiRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${value}'`);
  return n;
}

/**
 * Reads the environment once; every setting has a default that runs the demo on one machine.
 * Port 0 picks a free port (tests); publicOrigin is then filled in by the server once it listens.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const host = env.API_HOST ?? '127.0.0.1';
  const { port, publicOrigin } = originOf(env);
  const keepAliveTimeoutMs = positiveInt(env.API_KEEP_ALIVE_TIMEOUT_MS, 30_000, 'API_KEEP_ALIVE_TIMEOUT_MS');
  const headersTimeoutMs = positiveInt(env.API_HEADERS_TIMEOUT_MS, keepAliveTimeoutMs + 5000, 'API_HEADERS_TIMEOUT_MS');
  const requestTimeoutMs = positiveInt(
    env.API_REQUEST_TIMEOUT_MS,
    Math.max(300_000, headersTimeoutMs),
    'API_REQUEST_TIMEOUT_MS',
  );
  if (headersTimeoutMs <= keepAliveTimeoutMs || requestTimeoutMs < headersTimeoutMs)
    throw new Error(
      'API_KEEP_ALIVE_TIMEOUT_MS < API_HEADERS_TIMEOUT_MS <= API_REQUEST_TIMEOUT_MS, got ' +
        `${keepAliveTimeoutMs}, ${headersTimeoutMs}, ${requestTimeoutMs}`,
    );
  const databasePath = databasePathOf(env);
  const dataDir = dirname(databasePath);
  const liveDefault = `${publicOrigin.replace(/^http/, 'ws')}/mqtt`;
  const broker = brokerOf(env);
  const adminToken = env.ADMIN_TOKEN || readOrCreateAdminToken(dataDir);
  // The shell (3000) and the single-bundle build (3010) by default.
  const allowedOrigins = (env.API_ALLOWED_ORIGINS ?? 'http://localhost:3000,http://localhost:3010')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return {
    host,
    port,
    internalPort: env.API_INTERNAL_PORT ? positiveInt(env.API_INTERNAL_PORT, 0, 'API_INTERNAL_PORT') : null,
    internalHost: env.API_INTERNAL_HOST || host,
    keepAliveTimeoutMs,
    headersTimeoutMs,
    requestTimeoutMs,
    instance: env.API_INSTANCE || `${hostname()}-${process.pid}`,
    publicOrigin,
    allowedOrigins,
    ...workerSettingsOf(env, publicOrigin),
    broker,
    brokerAuthSecret: brokerAuthSecretOf(env),
    liveLoginKey: liveLoginKeyOf(env, broker !== null),
    liveLoginTtlMs: positiveInt(env.LIVE_LOGIN_TTL_MS, 15 * 60_000, 'LIVE_LOGIN_TTL_MS'),
    liveUrl: env.LIVE_PUBLIC_URL ?? liveDefault,
    cookieSecure: env.COOKIE_SECURE === 'true' || publicOrigin.startsWith('https:'),
    cookieDomain: env.COOKIE_DOMAIN || null,
    sessionSweepMs: positiveInt(env.SESSION_SWEEP_MS, 60_000, 'SESSION_SWEEP_MS'),
    sessionExpiryCheckMs: positiveInt(env.SESSION_EXPIRY_CHECK_MS, 1000, 'SESSION_EXPIRY_CHECK_MS'),
    liveRelayPollMs: Math.max(10, positiveInt(env.LIVE_RELAY_POLL_MS, 250, 'LIVE_RELAY_POLL_MS')),
    shutdownGraceMs: positiveInt(env.SHUTDOWN_GRACE_MS, 0, 'SHUTDOWN_GRACE_MS'),
    shutdownDrainMs: positiveInt(env.SHUTDOWN_DRAIN_MS, 10_000, 'SHUTDOWN_DRAIN_MS'),
    trustedProxies: trustedProxiesOf(env),
    loginFailureDelayMs: positiveInt(
      env.LOGIN_FAILURE_DELAY_MS,
      LOGIN_THROTTLE_RULES.slowMsPerFailure,
      'LOGIN_FAILURE_DELAY_MS',
    ),
    bodyMaxBytes: positiveInt(env.BODY_MAX_BYTES, 64 * 1024, 'BODY_MAX_BYTES'),
    adminToken,
    idempotencyKey: idempotencyKeyOf(env, () => fileLinkKeyOf(env, dataDir)),
    seedDemo: env.SEED_DEMO === '1',
    seedDemoMedia: env.SEED_DEMO === '1' && env.SEED_DEMO_MEDIA !== '0',
    rumCollect: env.RUM_COLLECT !== 'off',
    rumBeaconsPerMinute: positiveInt(env.RUM_BEACONS_PER_MINUTE, 60, 'RUM_BEACONS_PER_MINUTE'),
    rumTokenKey: checkRumTokenKey(env.RUM_TOKEN_KEY || readOrCreateRumTokenKey(dataDir)),
    rumLoadsPerHour: positiveInt(env.RUM_LOADS_PER_HOUR, 60, 'RUM_LOADS_PER_HOUR'),
    rumKeepDays: positiveInt(env.RUM_KEEP_DAYS, 30, 'RUM_KEEP_DAYS'),
    payments: paymentsOf(env, dataDir),
    mail: mailOf(env, dataDir, allowedOrigins[0] ?? publicOrigin),
  };
}

/**
 * What a media worker process (src/worker.ts) is given: the database, the file store, the queue,
 * the upload limits and the key file links are signed with. None of the serving secrets (the
 * operator token, the broker's password and the pages' login key, the beacon key): a decoder
 * compromised by a hostile file finds none of them in its process.
 */
export type WorkerConfig = Pick<
  ApiConfig,
  | 'databasePath'
  | 'databaseUrl'
  | 'databaseMigrationUrl'
  | 'sqliteNativeBinding'
  | 'databasePool'
  | 'mediaDir'
  | 'filesS3'
  | 'filesOrigin'
  | 'fileLinkKey'
  | 'uploadMaxBytes'
  | 'videoUploadMaxBytes'
  | 'mediaWorker'
  | 'mediaConcurrency'
  | 'mediaQueue'
>;

/** A media worker's settings, read from the environment without the API's secrets (none is needed or read). */
export function workerConfigOf(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return workerSettingsOf(env, originOf(env).publicOrigin);
}

/** The port the API listens on and the origin browsers reach it at. */
function originOf(env: NodeJS.ProcessEnv): { port: number; publicOrigin: string } {
  const port = positiveInt(env.API_PORT, 4000, 'API_PORT');
  return { port, publicOrigin: env.API_PUBLIC_ORIGIN ?? `http://localhost:${port}` };
}

const databasePathOf = (env: NodeJS.ProcessEnv) =>
  resolve(env.DATABASE_PATH ?? join(apiRoot, 'data', 'platform.sqlite'));

/** The settings the API and its media workers share (WorkerConfig). */
function workerSettingsOf(env: NodeJS.ProcessEnv, publicOrigin: string): WorkerConfig {
  const databasePath = databasePathOf(env);
  const dataDir = dirname(databasePath);
  return {
    databasePath,
    filesOrigin: env.FILES_PUBLIC_ORIGIN ?? publicOrigin,
    databaseUrl: databaseUrlOf(env.DATABASE_URL),
    databaseMigrationUrl: databaseUrlOf(env.DATABASE_MIGRATION_URL, 'DATABASE_MIGRATION_URL'),
    sqliteNativeBinding: env.SQLITE_NATIVE_BINDING || null,
    databasePool: {
      max: positiveInt(env.DATABASE_POOL_MAX, 10, 'DATABASE_POOL_MAX'),
      connectTimeoutMs: positiveInt(env.DATABASE_CONNECT_TIMEOUT_MS, 5000, 'DATABASE_CONNECT_TIMEOUT_MS'),
      statementTimeoutMs: positiveInt(env.DATABASE_STATEMENT_TIMEOUT_MS, 10_000, 'DATABASE_STATEMENT_TIMEOUT_MS'),
    },
    mediaDir: resolve(env.MEDIA_DIR ?? join(dataDir, 'media')),
    filesS3: filesS3Of(env),
    uploadMaxBytes: positiveInt(env.UPLOAD_MAX_BYTES, 5 * 1024 * 1024, 'UPLOAD_MAX_BYTES'),
    videoUploadMaxBytes: positiveInt(env.VIDEO_UPLOAD_MAX_BYTES, 500 * 1024 * 1024, 'VIDEO_UPLOAD_MAX_BYTES'),
    mediaWorker: mediaWorkerOf(env.MEDIA_WORKER),
    mediaConcurrency: Math.max(1, positiveInt(env.MEDIA_WORKER_CONCURRENCY, 1, 'MEDIA_WORKER_CONCURRENCY')),
    mediaQueue: {
      retryLimit: positiveInt(env.MEDIA_RETRY_LIMIT, DEFAULT_QUEUE_OPTIONS.retryLimit, 'MEDIA_RETRY_LIMIT'),
      retryDelayMs: positiveInt(env.MEDIA_RETRY_DELAY_MS, DEFAULT_QUEUE_OPTIONS.retryDelayMs, 'MEDIA_RETRY_DELAY_MS'),
      leaseMs: Math.max(1000, positiveInt(env.MEDIA_LEASE_MS, DEFAULT_QUEUE_OPTIONS.leaseMs, 'MEDIA_LEASE_MS')),
      jobTimeoutMs: Math.max(
        1000,
        positiveInt(env.MEDIA_JOB_TIMEOUT_MS, DEFAULT_QUEUE_OPTIONS.jobTimeoutMs, 'MEDIA_JOB_TIMEOUT_MS'),
      ),
      pollMs: Math.max(50, positiveInt(env.MEDIA_POLL_MS, DEFAULT_QUEUE_OPTIONS.pollMs, 'MEDIA_POLL_MS')),
    },
    fileLinkKey: fileLinkKeyOf(env, dataDir),
  };
}

function mailOf(env: NodeJS.ProcessEnv, dataDir: string, defaultLinkOrigin: string): MailConfig {
  const switched = env.MAIL ?? '';
  if (!['', 'on', 'off'].includes(switched)) throw new Error(`MAIL must be 'on' or 'off', got '${switched}'`);
  if (switched === 'off') return { mode: 'off' };
  const url = env.SMTP_URL || null;
  if (url && !/^smtps?:\/\/[^/]+/.test(url))
    throw new Error(`SMTP_URL must be an smtp:// or smtps:// URL, got '${url.split(':')[0]}:...'`);
  if (!url && env.NODE_ENV === 'production')
    throw new Error('NODE_ENV=production needs SMTP_URL to send mail (or MAIL=off to send none)');
  const linkOrigin = (env.MAIL_LINK_ORIGIN || defaultLinkOrigin).replace(/\/$/, '');
  if (!/^https?:\/\/[^/]+$/.test(linkOrigin))
    throw new Error(`MAIL_LINK_ORIGIN must be an http(s) origin, got '${linkOrigin}'`);
  const sending: MailSending = {
    from: env.MAIL_FROM || 'EventMedia <no-reply@eventmedia.test>',
    linkOrigin,
    pollMs: Math.max(10, positiveInt(env.MAIL_POLL_MS, 1000, 'MAIL_POLL_MS')),
    retryFirstMs: Math.max(10, positiveInt(env.MAIL_RETRY_FIRST_MS, 10_000, 'MAIL_RETRY_FIRST_MS')),
    retryMostMs: Math.max(10, positiveInt(env.MAIL_RETRY_MOST_MS, 3600_000, 'MAIL_RETRY_MOST_MS')),
    leaseMs: Math.max(1000, positiveInt(env.MAIL_SEND_LEASE_MS, 60_000, 'MAIL_SEND_LEASE_MS')),
  };
  return url
    ? { mode: 'smtp', url, ...sending }
    : { mode: 'dev', mailboxDir: resolve(env.MAILBOX_DIR ?? join(dataDir, 'mailbox')), ...sending };
}

function paymentsOf(env: NodeJS.ProcessEnv, dataDir: string): PaymentsConfig {
  const named = env.PAYMENTS_PROVIDER ?? '';
  if (!['', 'stripe', 'test', 'none'].includes(named))
    throw new Error(`PAYMENTS_PROVIDER must be 'stripe', 'test' or 'none', got '${named}'`);
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = env;
  if (named === 'stripe' || (named === '' && secretKey && webhookSecret)) {
    if (!secretKey || !webhookSecret)
      throw new Error('Stripe payments need STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    return { provider: 'stripe', secretKey, webhookSecret };
  }
  if (named === 'test' || (named === '' && env.SEED_DEMO === '1'))
    return {
      provider: 'test',
      // Every instance signs and checks test payments' webhooks with the same secret, a key of
      // its own: whoever holds the operator token cannot forge a payment.
      webhookSecret: keptSecretOf(env, dataDir, {
        name: 'TEST_PAYMENTS_WEBHOOK_SECRET',
        file: 'test-payments-webhook-secret',
        minLength: 1,
        purpose: 'the secret test payments sign their webhooks with',
        make: () => `whsec_${randomBytes(32).toString('base64url')}`,
      }),
    };
  return { provider: 'none' };
}

/** The size limit of an upload of `contentType`: images (compressed in the browser) and videos have their own. */
export const uploadLimit = (config: Pick<ApiConfig, 'uploadMaxBytes' | 'videoUploadMaxBytes'>, contentType: string) =>
  contentType.startsWith('video/') ? config.videoUploadMaxBytes : config.uploadMaxBytes;

function mediaWorkerOf(value: string | undefined): ApiConfig['mediaWorker'] {
  if (value === undefined || value === '' || value === 'inline') return 'inline';
  if (value === 'off') return 'off';
  throw new Error(`MEDIA_WORKER must be 'inline' or 'off', got '${value}'`);
}

function filesS3Of(env: NodeJS.ProcessEnv): FilesS3Config | null {
  const endpoint = env.FILES_S3_ENDPOINT;
  if (!endpoint) return null;
  const url = (name: string, value: string) => {
    if (!/^https?:\/\/[^/]+\/?$/.test(value)) throw new Error(`${name} must be an http(s) origin, got '${value}'`);
    return value.replace(/\/$/, '');
  };
  const accessKeyId = env.FILES_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.FILES_S3_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    throw new Error('FILES_S3_ENDPOINT needs FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY');
  return {
    endpoint: url('FILES_S3_ENDPOINT', endpoint),
    publicEndpoint: url('FILES_S3_PUBLIC_ENDPOINT', env.FILES_S3_PUBLIC_ENDPOINT || endpoint),
    bucket: env.FILES_S3_BUCKET || 'marketplace-files',
    region: env.FILES_S3_REGION || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    pathStyle: env.FILES_S3_PATH_STYLE !== 'false',
  };
}

/** LIVE_LOGIN_KEY (32 characters at least), required with an external broker. */
function liveLoginKeyOf(env: NodeJS.ProcessEnv, external: boolean): Buffer {
  const key = env.LIVE_LOGIN_KEY;
  if (key && key.length >= 32) return Buffer.from(key, 'utf8');
  if (key || external)
    throw new Error(
      "LIVE_LOGIN_KEY (32 characters at least, the same on every instance) signs pages' broker logins: set it with MQTT_BROKER_URL",
    );
  return randomBytes(32);
}

/** The basic-auth user name the broker's HTTP backend asks /internal/broker/* as (rabbitmq.conf `auth_http.*`). */
export const BROKER_AUTH_USER = 'broker-auth';

/**
 * BROKER_AUTH_SECRET, checked now: 32 characters at least, of those a URL's user information
 * carries as they are (it is written into the broker's `auth_http.*` URLs, and Erlang's HTTP
 * client sends that part undecoded as the basic-auth password).
 */
function brokerAuthSecretOf(env: NodeJS.ProcessEnv): string | null {
  const secret = env.BROKER_AUTH_SECRET;
  if (!secret) return null;
  if (!/^[A-Za-z0-9._~-]{32,}$/.test(secret))
    throw new Error('BROKER_AUTH_SECRET must be 32 characters at least, of A-Z a-z 0-9 . _ ~ - only');
  return secret;
}

/** FILE_LINK_KEY, or outside production the one kept beside the database (made at the first start). */
function fileLinkKeyOf(env: NodeJS.ProcessEnv, dataDir: string): string {
  return keptSecretOf(env, dataDir, {
    name: 'FILE_LINK_KEY',
    file: 'file-link-key',
    minLength: 32,
    purpose: 'the key links to private files are signed with',
    make: () => randomBytes(32).toString('base64url'),
  });
}

/**
 * IDEMPOTENCY_KEY (32 characters at least), or one derived from FILE_LINK_KEY under a label of
 * its own: every instance has that one (production requires it), and the derived key tells
 * nothing of it.
 */
function idempotencyKeyOf(env: NodeJS.ProcessEnv, fileLinkKey: () => string): Buffer {
  const key = env.IDEMPOTENCY_KEY;
  if (key && key.length >= 32) return Buffer.from(key, 'utf8');
  if (key) throw new Error('IDEMPOTENCY_KEY must be 32 characters at least');
  return createHmac('sha256', fileLinkKey()).update('idempotency fingerprints').digest();
}

/**
 * A secret of its own, shared by every instance: `env[name]` (`minLength` characters at least),
 * or outside production one made once and kept beside the database (`dataDir/file`);
 * NODE_ENV=production refuses to start without it.
 */
function keptSecretOf(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  secret: { name: string; file: string; minLength: number; purpose: string; make: () => string },
): string {
  const { name, minLength } = secret;
  const value = env[name];
  if (value && value.length >= minLength) return value;
  if (value) throw new Error(`${name} must be ${minLength} characters at least`);
  if (env.NODE_ENV === 'production')
    throw new Error(
      `NODE_ENV=production needs ${name} (${minLength > 1 ? `${minLength} characters at least, ` : ''}the same on every instance): ${secret.purpose}`,
    );
  return readOrCreateSecret(dataDir, secret.file, secret.make);
}

/** The external broker's settings, checked now: a half-configured broker fails the start. */
function brokerOf(env: NodeJS.ProcessEnv): ApiConfig['broker'] {
  const list = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
  const urls = list(env.MQTT_BROKER_URL);
  if (urls.length === 0) return null;
  const managementUrls = list(env.MQTT_MANAGEMENT_URL).map((u) => u.replace(/\/$/, ''));
  for (const url of urls)
    if (!/^mqtt:\/\/[^/]+$/.test(url)) throw new Error(`MQTT_BROKER_URL must list mqtt://host:port URLs, got '${url}'`);
  for (const url of managementUrls)
    if (!/^https?:\/\/[^/]+$/.test(url)) throw new Error(`MQTT_MANAGEMENT_URL must list http(s) origins, got '${url}'`);
  if (managementUrls.length === 0)
    throw new Error('MQTT_BROKER_URL needs MQTT_MANAGEMENT_URL: ending a session closes its connections through it');
  if (!env.MQTT_PASSWORD || env.MQTT_PASSWORD.length < 16)
    throw new Error("MQTT_BROKER_URL needs MQTT_PASSWORD (16 characters at least): the API's login on the broker");
  return { urls, managementUrls, login: { username: env.MQTT_USERNAME || 'api', password: env.MQTT_PASSWORD } };
}

/**
 * API_TRUSTED_PROXIES, checked now so a typo fails the start. The older API_TRUST_PROXY=true
 * trusted whichever peer sent the header; it now means the peers a gateway can be: loopback and
 * private addresses.
 */
function trustedProxiesOf(env: NodeJS.ProcessEnv): string[] {
  const list = (env.API_TRUSTED_PROXIES ?? (env.API_TRUST_PROXY === 'true' ? 'loopback,private' : ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  trustedProxies(list);
  return list;
}

/** Only PostgreSQL is reached by URL; anything else is a mistake better refused at start. */
function databaseUrlOf(value: string | undefined, name = 'DATABASE_URL'): string | null {
  if (!value) return null;
  if (!/^postgres(ql)?:\/\//.test(value))
    throw new Error(`${name} must be a postgres:// URL, got '${value.split(':')[0]}:...'`);
  return value;
}

/** The token guarding /internal (the notify command); kept beside the database so the CLI finds it. */
function readOrCreateAdminToken(dataDir: string): string {
  const file = join(dataDir, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(24).toString('hex');
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}

/**
 * A secret kept in `dataDir/name`, made by `make` at the first start. Written whole under a
 * temporary name and linked into place, so instances starting together on one folder read the
 * same one: the second link fails, and that instance reads the first's.
 */
function readOrCreateSecret(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, name);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, make(), { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  return readFileSync(file, 'utf8').trim();
}
