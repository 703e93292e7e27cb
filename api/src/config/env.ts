import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUM_TOKEN_KEY_MIN_CHARS } from '@marketplace/shared/node/rum-token';
import { z } from 'zod';
import { LOGIN_THROTTLE_RULES } from '../auth/loginThrottle.js';
import { DEFAULT_QUEUE_OPTIONS as QUEUE } from '../media/queueOptions.js';
import { count, list, matching, oneOf, secret, setting, text, unless, when } from './fields.js';

const apiRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const httpOrigin = /^https?:\/\/[^/]+\/?$/;
const origin = (value: string) => `must be an http(s) origin, got '${value}'`;
const schemeOnly = (value: string) => `${value.split(':')[0]}:...`;
const postgresUrl = (doc: string) =>
  matching(/^postgres(ql)?:\/\//, (v) => `must be a postgres:// URL, got '${schemeOnly(v)}'`, doc);

/**
 * Every environment variable the API and its media workers read, with its default and what it is
 * for: the one place a setting is declared. A default of null is "none", or one derived from
 * another variable (said in its line, and made in api.ts or worker.ts). The secrets that are
 * kept beside the database when unset (ADMIN_TOKEN, FILE_LINK_KEY, RUM_TOKEN_KEY,
 * TEST_PAYMENTS_WEBHOOK_SECRET) are read or made by keptSecrets.ts at start, never here.
 * api/README.md "Environment" lists them for operators; env.test.ts keeps the two in step.
 */
export const envSchema = z.object({
  NODE_ENV: setting(null, 'production: the deployment secrets and SMTP_URL (or MAIL=off) are required'),

  // Listening
  API_HOST: text('127.0.0.1', 'the address to listen on'),
  API_PORT: count(4000, 'the port (HTTP, files and the embedded broker share it); 0 picks a free one'),
  API_INTERNAL_PORT: count(null, 'serve /internal/* only on this port (0: any free one), not on API_PORT'),
  API_INTERNAL_HOST: setting(null, 'the address of API_INTERNAL_PORT (default API_HOST)'),
  API_KEEP_ALIVE_TIMEOUT_MS: count(30_000, "an idle kept-alive connection's life: longer than the gateway's"),
  API_HEADERS_TIMEOUT_MS: count(null, "how long a request's headers may take (default keep-alive + 5 s)"),
  API_REQUEST_TIMEOUT_MS: count(null, 'how long a whole request may take (default 300 s, or the headers timeout)'),
  API_INSTANCE: setting(null, "this instance's name in X-Api-Instance (default <hostname>-<pid>)"),
  SHUTDOWN_GRACE_MS: count(0, 'on SIGTERM, how long every answer says Connection: close before stopping'),
  SHUTDOWN_DRAIN_MS: count(10_000, 'then, how long requests under way may take before being cut'),

  // Origins
  API_PUBLIC_ORIGIN: text(null, 'the origin browsers reach the API at (default http://localhost:$API_PORT)'),
  FILES_PUBLIC_ORIGIN: text(null, 'the origin of media, download and upload URLs (default API_PUBLIC_ORIGIN)'),
  API_ALLOWED_ORIGINS: list(
    'http://localhost:3000,http://localhost:3010',
    "browser origins allowed with credentials: the shell's (3000) and the single-bundle build's (3010)",
  ),
  API_TRUSTED_PROXIES: text(
    null,
    'proxies (addresses, CIDRs, loopback/private/linklocal) whose X-Forwarded-For counts',
  ),
  API_TRUST_PROXY: when('true', 'true, when API_TRUSTED_PROXIES is unset: trust loopback,private'),
  COOKIE_SECURE: when('true', 'true: cookies are Secure (always when the public origin is https)'),
  COOKIE_DOMAIN: setting(null, 'the parent domain cookies are set for (e.g. .example.com)'),

  // Database
  DATABASE_PATH: text(join(apiRoot, 'data', 'platform.sqlite'), 'the SQLite file (api/data/platform.sqlite)'),
  DATABASE_URL: postgresUrl('postgres://...: PostgreSQL instead of the SQLite file, shared by every instance'),
  DATABASE_MIGRATION_URL: postgresUrl('the same database reached directly, for migrations (default DATABASE_URL)'),
  DATABASE_POOL_MAX: count(10, 'PostgreSQL connections per instance'),
  DATABASE_CONNECT_TIMEOUT_MS: count(5000, 'how long a query waits for a connection before a 503'),
  DATABASE_STATEMENT_TIMEOUT_MS: count(10_000, 'statements running longer are cancelled; 0 sends none'),

  // Files
  MEDIA_DIR: text(null, 'the local file store (default <database folder>/media)'),
  FILES_S3_ENDPOINT: matching(httpOrigin, origin, 'an S3-compatible store for files instead of MEDIA_DIR'),
  FILES_S3_PUBLIC_ENDPOINT: matching(httpOrigin, origin, 'the store as browsers reach it (default the endpoint)'),
  FILES_S3_BUCKET: setting('marketplace-files', 'the bucket (made at start when missing)'),
  FILES_S3_REGION: setting('us-east-1', 'the region signed into requests'),
  FILES_S3_ACCESS_KEY_ID: setting(null, "the API's key id on the store (required with the endpoint)"),
  FILES_S3_SECRET_ACCESS_KEY: setting(null, "the API's secret key on the store (required with the endpoint)"),
  FILES_S3_PATH_STYLE: unless('false', 'false: the bucket in the host name rather than in the path'),
  UPLOAD_MAX_BYTES: count(5 * 1024 * 1024, 'the largest upload (413 beyond)'),
  VIDEO_UPLOAD_MAX_BYTES: count(500 * 1024 * 1024, 'the largest video upload'),
  BODY_MAX_BYTES: count(64 * 1024, 'the largest /v2 request body (413 beyond)'),

  // Media jobs
  MEDIA_WORKER: oneOf(['inline', 'off'], 'inline', 'off: this process takes no media jobs (media workers do)'),
  MEDIA_WORKER_CONCURRENCY: count(1, 'media jobs one process runs at once', 1),
  MEDIA_RETRY_LIMIT: count(QUEUE.retryLimit, "a media job's retries after its first attempt"),
  MEDIA_RETRY_DELAY_MS: count(QUEUE.retryDelayMs, "a media job's first retry delay (doubling)"),
  MEDIA_LEASE_MS: count(QUEUE.leaseMs, "a media job's lease on the table queue (renewed while it runs)", 1000),
  MEDIA_JOB_TIMEOUT_MS: count(QUEUE.jobTimeoutMs, 'pg-boss: the longest a media job may run', 1000),
  MEDIA_POLL_MS: count(QUEUE.pollMs, 'how often an idle media worker looks for jobs from other processes', 50),

  // Live broker
  MQTT_BROKER_URL: list('', 'an external broker instead of the embedded one: its nodes, mqtt://host:port, ...', {
    pattern: /^mqtt:\/\/[^/]+$/,
    refused: (url) => `must list mqtt://host:port URLs, got '${url}'`,
  }),
  MQTT_MANAGEMENT_URL: list('', "the broker nodes' management APIs (required with the broker)", {
    pattern: httpOrigin,
    refused: (url) => `must list http(s) origins, got '${url}'`,
  }),
  MQTT_USERNAME: setting('api', "the API's login on the external broker"),
  MQTT_PASSWORD: setting(null, "the API's password there (16 characters at least, required with the broker)"),
  BROKER_AUTH_SECRET: matching(
    /^[A-Za-z0-9._~-]{32,}$/,
    () => 'must be 32 characters at least, of A-Z a-z 0-9 . _ ~ - only',
    "what the broker's HTTP auth backend presents to /internal/broker/* (required with the broker)",
  ),
  LIVE_LOGIN_KEY: setting(null, "the key pages' broker logins are signed with (default one per process)"),
  LIVE_LOGIN_TTL_MS: count(15 * 60_000, "how long a page's broker login may open connections"),
  LIVE_PUBLIC_URL: text(null, 'the websocket URL browsers connect to (default ws://<public host>/mqtt)'),
  LIVE_RELAY_POLL_MS: count(250, 'how often the live relay looks for outbox messages it was not told of', 10),
  SESSION_SWEEP_MS: count(60_000, 'how often sessions past their end are removed'),
  SESSION_EXPIRY_CHECK_MS: count(1000, 'how often each instance ends sessions past their expiry'),
  LOGIN_FAILURE_DELAY_MS: count(LOGIN_THROTTLE_RULES.slowMsPerFailure, 'how much longer each failed login waits'),

  // Secrets
  ADMIN_TOKEN: setting(null, 'guards /internal (default kept in <database folder>/admin-token)'),
  FILE_LINK_KEY: secret(32, 'signs links to private files (default kept in <database folder>/file-link-key)'),
  IDEMPOTENCY_KEY: secret(32, 'idempotency fingerprints are HMACs under it (default derived from FILE_LINK_KEY)'),

  // Demo data
  SEED_DEMO: when('1', '1: an empty database gets the demo accounts and data; never in a deployment'),
  SEED_DEMO_MEDIA: unless('0', "0: the demo's pictures are not queued for the media pipeline at start"),

  // Real-user figures
  RUM_COLLECT: unless('off', 'off: real-user beacons are refused and nothing is stored'),
  RUM_BEACONS_PER_MINUTE: count(60, 'beacons one client may send per minute before 429'),
  RUM_TOKEN_KEY: secret(
    RUM_TOKEN_KEY_MIN_CHARS,
    "signs page loads' beacon tokens, with the shell's page server (default kept in <database folder>/rum-token-key)",
    `must be at least ${RUM_TOKEN_KEY_MIN_CHARS} characters`,
  ),
  RUM_LOADS_PER_HOUR: count(60, 'new page loads one client may add to the figures per hour'),
  RUM_BROWSERS_PER_VERSION_PER_DAY: count(1, "browsers one client may bring to a remote version's figures per day"),
  RUM_LOADS_PER_BROWSER_PER_HOUR: count(60, 'new page loads one browser may add to the figures per hour'),
  RUM_KEEP_DAYS: count(30, 'real-user page loads older than this many days are removed'),

  // Payments
  PAYMENTS_PROVIDER: oneOf(
    ['stripe', 'test', 'none'],
    null,
    'who takes payments (default stripe with both keys, test with SEED_DEMO=1, else none)',
  ),
  STRIPE_SECRET_KEY: setting(null, "Stripe's secret key"),
  STRIPE_WEBHOOK_SECRET: setting(null, "the secret Stripe signs the webhook endpoint's events with"),
  TEST_PAYMENTS_WEBHOOK_SECRET: secret(1, "test payments' webhook secret (default kept beside the database)"),

  // Mail
  MAIL: oneOf(['on', 'off'], 'on', 'off: no mail is queued or sent'),
  SMTP_URL: matching(
    /^smtps?:\/\/[^/]+/,
    (v) => `must be an smtp:// or smtps:// URL, got '${schemeOnly(v)}'`,
    'smtp(s)://user:password@host:port: mail goes there (default the dev mailbox)',
  ),
  MAIL_FROM: setting('EventMedia <no-reply@eventmedia.test>', 'the From of every mail'),
  MAIL_LINK_ORIGIN: setting(null, 'the origin links in mails open (default the first allowed origin)'),
  MAILBOX_DIR: text(null, 'where the dev mailbox keeps what it caught (default <database folder>/mailbox)'),
  MAIL_POLL_MS: count(1000, 'how often the sender looks for mail it was not told of', 10),
  MAIL_RETRY_FIRST_MS: count(10_000, 'the wait after a failed send, doubled each time', 10),
  MAIL_RETRY_MOST_MS: count(3_600_000, 'the longest wait between sends of one mail', 10),
  MAIL_SEND_LEASE_MS: count(60_000, 'how long a sender holds a mail it took', 1000),
});

/** The environment as read: each variable's value or default. */
export type Env = z.output<typeof envSchema>;

/** The name of each variable the configuration reads. */
export type EnvName = keyof Env;
