import { createHmac, randomBytes } from 'node:crypto';
import { trustedProxies } from '../http/client.js';
import type { Env } from './env.js';
import { ConfigRefused } from './fields.js';
import type { MailConfig, MailSending, PaymentsConfig } from './shapes.js';

/**
 * The rules between variables, and the values made from several: each refuses what it cannot
 * make with a ConfigRefused whose message names the variables to set.
 */

/** The connection timeouts, defaults filled: Node keeps connections alive only if keep-alive < headers <= request. */
export function timeoutsOf(env: Env) {
  const keepAliveTimeoutMs = env.API_KEEP_ALIVE_TIMEOUT_MS;
  const headersTimeoutMs = env.API_HEADERS_TIMEOUT_MS ?? keepAliveTimeoutMs + 5000;
  const requestTimeoutMs = env.API_REQUEST_TIMEOUT_MS ?? Math.max(300_000, headersTimeoutMs);
  if (headersTimeoutMs <= keepAliveTimeoutMs || requestTimeoutMs < headersTimeoutMs)
    throw new ConfigRefused(
      'API_KEEP_ALIVE_TIMEOUT_MS < API_HEADERS_TIMEOUT_MS <= API_REQUEST_TIMEOUT_MS, got ' +
        `${keepAliveTimeoutMs}, ${headersTimeoutMs}, ${requestTimeoutMs}`,
    );
  return {
    /**
     * How long an idle kept-alive connection stays open (Node closes it a second later still).
     * Longer than the gateway's upstream keepalive_timeout (api/gateway/nginx.conf, 15 s), so the
     * gateway always closes an idle connection first and never sends a request on one this side is
     * closing (a 502 for a POST).
     */
    keepAliveTimeoutMs,
    /** How long a request's headers may take; longer than keepAliveTimeoutMs, as Node requires for keep-alive to hold. */
    headersTimeoutMs,
    /** How long a whole request (body included: uploads) may take to arrive. */
    requestTimeoutMs,
  };
}

/** The external broker's settings: a half-configured broker fails the start. */
export function brokerOf(env: Env) {
  const urls = env.MQTT_BROKER_URL;
  if (urls.length === 0) return null;
  const managementUrls = env.MQTT_MANAGEMENT_URL.map((u) => u.replace(/\/$/, ''));
  if (managementUrls.length === 0)
    throw new ConfigRefused(
      'MQTT_BROKER_URL needs MQTT_MANAGEMENT_URL: ending a session closes its connections through it',
    );
  const password = env.MQTT_PASSWORD;
  if (!password || password.length < 16)
    throw new ConfigRefused(
      "MQTT_BROKER_URL needs MQTT_PASSWORD (16 characters at least): the API's login on the broker",
    );
  return { urls, managementUrls, login: { username: env.MQTT_USERNAME, password } };
}

/** LIVE_LOGIN_KEY (32 characters at least), required with an external broker; embedded, one of this process's own. */
export function liveLoginKeyOf(env: Env, external: boolean): Buffer {
  const key = env.LIVE_LOGIN_KEY;
  if (key && key.length >= 32) return Buffer.from(key, 'utf8');
  if (key || external)
    throw new ConfigRefused(
      "LIVE_LOGIN_KEY (32 characters at least, the same on every instance) signs pages' broker logins: set it with MQTT_BROKER_URL",
    );
  return randomBytes(32);
}

/**
 * IDEMPOTENCY_KEY, or one derived from the file link key under a label of its own: every
 * instance has that one (production requires it), and the derived key tells nothing of it.
 */
export const idempotencyKeyOf = (env: Env, fileLinkKey: string): Buffer =>
  env.IDEMPOTENCY_KEY
    ? Buffer.from(env.IDEMPOTENCY_KEY, 'utf8')
    : createHmac('sha256', fileLinkKey).update('idempotency fingerprints').digest();

/**
 * API_TRUSTED_PROXIES, checked now so a typo fails the start. The older API_TRUST_PROXY=true
 * trusted whichever peer sent the header; it now means the peers a gateway can be: loopback and
 * private addresses.
 */
export function trustedProxiesOf(env: Env): string[] {
  const entries = (env.API_TRUSTED_PROXIES ?? (env.API_TRUST_PROXY ? 'loopback,private' : ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    trustedProxies(entries);
  } catch (error) {
    throw new ConfigRefused((error as Error).message);
  }
  return entries;
}

/** Who takes payments, by name or from the keys and the demo data (the kept secrets depend on it too). */
export function paymentsProviderOf(
  env: Pick<Env, 'PAYMENTS_PROVIDER' | 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'SEED_DEMO'>,
): PaymentsConfig['provider'] {
  if (env.PAYMENTS_PROVIDER) return env.PAYMENTS_PROVIDER;
  if (env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET) return 'stripe';
  return env.SEED_DEMO ? 'test' : 'none';
}

export function paymentsOf(env: Env): PaymentsConfig {
  const provider = paymentsProviderOf(env);
  if (provider === 'stripe') {
    const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = env;
    if (!secretKey || !webhookSecret)
      throw new ConfigRefused('Stripe payments need STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    return { provider, secretKey, webhookSecret };
  }
  if (provider === 'none') return { provider };
  // Every instance signs and checks test payments' webhooks with the same secret, a key of its
  // own: whoever holds the operator token cannot forge a payment.
  if (env.TEST_PAYMENTS_WEBHOOK_SECRET) return { provider, webhookSecret: env.TEST_PAYMENTS_WEBHOOK_SECRET };
  if (env.NODE_ENV === 'production')
    throw new ConfigRefused(
      'NODE_ENV=production needs TEST_PAYMENTS_WEBHOOK_SECRET (the same on every instance): the secret test payments sign their webhooks with',
    );
  return { provider, webhookSecret: `whsec_${randomBytes(32).toString('base64url')}` };
}

/** How mail leaves; `defaultLinkOrigin` is the shell's (the first allowed origin). */
export function mailOf(env: Env, mailboxDir: string, defaultLinkOrigin: string): MailConfig {
  if (env.MAIL === 'off') return { mode: 'off' };
  const url = env.SMTP_URL;
  if (!url && env.NODE_ENV === 'production')
    throw new ConfigRefused('NODE_ENV=production needs SMTP_URL to send mail (or MAIL=off to send none)');
  const linkOrigin = (env.MAIL_LINK_ORIGIN ?? defaultLinkOrigin).replace(/\/$/, '');
  if (!/^https?:\/\/[^/]+$/.test(linkOrigin))
    throw new ConfigRefused(`MAIL_LINK_ORIGIN must be an http(s) origin, got '${linkOrigin}'`);
  const sending: MailSending = {
    from: env.MAIL_FROM,
    linkOrigin,
    pollMs: env.MAIL_POLL_MS,
    retryFirstMs: env.MAIL_RETRY_FIRST_MS,
    retryMostMs: env.MAIL_RETRY_MOST_MS,
    leaseMs: env.MAIL_SEND_LEASE_MS,
  };
  return url ? { mode: 'smtp', url, ...sending } : { mode: 'dev', mailboxDir, ...sending };
}
