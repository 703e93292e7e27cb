// The page-load token of the real-user beacon (issue 39, item 4 "Evidence nobody can forge"): the
// shell's page server signs, for each page load, which load id it drew and which version of each
// remote that page may use (as it resolved them for the request: release store, cohort cookie,
// tester's ?version=); the API counts a beacon only under a valid token, for those versions and
// that load. Both sides share RUM_TOKEN_KEY; this module is the one that signs and verifies.
//
// A token is `<payload>.<signature>`: the claims as base64url JSON, then HMAC-SHA256 of that text
// under the key, base64url. Not encrypted: the page reads its own versions, nothing in it is secret.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where a page asks its page server for its load's token (same origin, never cached). The browser
 * reads it as BEACON_TOKEN_PATH (shared/src/platform/beacon.ts); rum-token.test.ts keeps them equal.
 */
export const RUM_TOKEN_PATH = '/platform/rum-token';

/** How long a token is good for: a page open longer than a day stops reporting (its later beacons are refused). */
export const RUM_TOKEN_TTL_S = 24 * 3600;

/** A shorter key is refused at start: it would be guessable offline from one token. */
export const RUM_TOKEN_KEY_MIN_CHARS = 32;

/** The file beside the API's database where a development key is kept (like admin-token). */
export const RUM_TOKEN_KEY_FILE = 'rum-token-key';

/**
 * @typedef {{ load: string, versions: Record<string, string[]>, cohort: number | null, browser?: string, exp: number }} RumTokenClaims
 * `versions`: per remote, the versions the page may report (one; two, live and canary, when the
 * request had no cohort yet and the browser draws it). `browser`: the random id the page server
 * keeps in the browser (BROWSER_ID_PATTERN), the unit a canary is judged on; absent from tokens
 * signed before it was, whose load then stands for a browser of its own. `exp`: seconds since the epoch.
 */

/** A browser's id as the page server draws it: 128 random bits, base64url. */
export const BROWSER_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** A new browser id (BROWSER_ID_PATTERN). */
export const newBrowserId = () => randomBytes(16).toString('base64url');

/** @param {string} key */
export function checkRumTokenKey(key) {
  if (key.length < RUM_TOKEN_KEY_MIN_CHARS)
    throw new Error(`RUM_TOKEN_KEY must be at least ${RUM_TOKEN_KEY_MIN_CHARS} characters`);
  return key;
}

/** @param {string} key @param {string} payload */
const signatureOf = (key, payload) => createHmac('sha256', key).update(payload).digest();

/**
 * A token for one page load, valid `ttlS` seconds from `now`.
 * @param {string} key
 * @param {{ load: string, versions: Record<string, string[]>, cohort: number | null, browser?: string }} claims
 * @param {{ now?: number, ttlS?: number }} [options]
 */
export function signRumToken(
  key,
  { load, versions, cohort, browser },
  { now = Date.now(), ttlS = RUM_TOKEN_TTL_S } = {},
) {
  /** @type {RumTokenClaims} */
  const claims = { load, versions, cohort, ...(browser && { browser }), exp: Math.floor(now / 1000) + ttlS };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${signatureOf(key, payload).toString('base64url')}`;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** @param {unknown} value @returns {value is RumTokenClaims} */
function isClaims(value) {
  if (typeof value !== 'object' || value === null) return false;
  const { load, versions, cohort, browser, exp } = /** @type {Record<string, unknown>} */ (value);
  return (
    typeof load === 'string' &&
    (browser === undefined || (typeof browser === 'string' && BROWSER_ID_PATTERN.test(browser))) &&
    typeof exp === 'number' &&
    (cohort === null || typeof cohort === 'number') &&
    typeof versions === 'object' &&
    versions !== null &&
    Object.values(versions).every((list) => Array.isArray(list) && list.every((v) => typeof v === 'string'))
  );
}

/**
 * The claims of a token signed under `key` and not expired at `now`, or why not. The signature is
 * checked before anything in the payload is read, and compared in constant time.
 * @param {string} key @param {string} token @param {number} [now]
 * @returns {{ claims: RumTokenClaims } | { problem: 'malformed' | 'signature' | 'expired' }}
 */
export function verifyRumToken(key, token, now = Date.now()) {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0 || !BASE64URL.test(payload) || !BASE64URL.test(signature))
    return { problem: 'malformed' };
  const given = Buffer.from(signature, 'base64url');
  const expected = signatureOf(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { problem: 'signature' };
  /** @type {unknown} */
  let claims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { problem: 'malformed' };
  }
  if (!isClaims(claims)) return { problem: 'malformed' };
  if (claims.exp * 1000 <= now) return { problem: 'expired' };
  return { claims };
}

/**
 * The key kept in `dir` (RUM_TOKEN_KEY_FILE), made on first use: what a development API uses when
 * RUM_TOKEN_KEY is not set, and what `npm start` hands its page server, so both agree with no setup.
 * @param {string} dir
 */
export function readOrCreateRumTokenKey(dir) {
  const file = join(dir, RUM_TOKEN_KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}
