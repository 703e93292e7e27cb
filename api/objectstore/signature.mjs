// Signature V4 as S3 checks it, for the guard: who signed a request (an Authorization header or a
// presigned URL) and whether the signature holds for that key's secret.
import { createHmac, createHash, timingSafeEqual } from 'node:crypto';

/** How far a signed request's date may be from this clock, as S3 allows. */
const CLOCK_SKEW_MS = 15 * 60 * 1000;

/**
 * @typedef {import('./grants.mjs').StoreKey} StoreKey
 * @typedef {import('node:http').IncomingHttpHeaders} Headers
 */

/** @param {string | Buffer} key @param {string} data */
export const hmac = (key, data) => createHmac('sha256', key).update(data).digest();
/** @param {string} data */
const sha256Hex = (data) => createHash('sha256').update(data).digest('hex');
/** @param {unknown} a @param {string} b */
export const sameHex = (a, b) =>
  typeof a === 'string' &&
  typeof b === 'string' &&
  a.length === b.length &&
  timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Signature V4's signing key of `secret` for a day, region and service.
 * @param {string} secret @param {string} day @param {string} region @param {string} service
 */
export function signingKey(secret, day, region, service) {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
}

/** RFC 3986 escaping, as Signature V4 canonicalises a query. */
/** @param {string} text */
const escape = (text) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A raw query as pairs, decoded (`+` is a plus: S3's clients escape a space as %20). */
/**
 * @param {string} raw
 * @returns {[string, string][]}
 */
export function queryPairs(raw) {
  if (!raw) return [];
  return raw
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const at = part.indexOf('=');
      const [name, value] = at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
      return /** @type {[string, string]} */ ([decodeURIComponent(name), decodeURIComponent(value)]);
    });
}

/** The canonical query of `pairs`, without `omit` (a presigned URL's own signature). */
/** @param {[string, string][]} pairs @param {string} [omit] */
function canonicalQuery(pairs, omit) {
  return (
    pairs
      .filter(([name]) => name !== omit)
      .map(([name, value]) => [escape(name), escape(value)])
      // By name, then by value (as strings of code points: the escaped text is ASCII).
      .sort(([a = '', x = ''], [b = '', y = '']) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
      .map(([name, value]) => `${name}=${value}`)
      .join('&')
  );
}

/** `20260101T000000Z` as a time, or NaN. */
/** @param {string | undefined} value */
function amzTime(value) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!m) return NaN;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second);
}

/** `id/day/region/service/aws4_request`, parsed. */
/** @param {string | undefined} value */
export function credentialOf(value) {
  const parts = String(value ?? '').split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request') return null;
  const [id = '', day = '', region = '', service = ''] = parts;
  return { id, day, region, service };
}

/**
 * Whether the signature is the one `key` makes of the canonical request, for the credential's
 * scope and date; the reason when not.
 * @param {{ keys: Map<string, StoreKey>, credential: { id: string, day: string, region: string, service: string },
 *   date: string, signedHeaders: string, signature: string | undefined, method: string, path: string, query: string,
 *   headers: Headers, payload: string }} request
 * @returns {string | null} null when it is
 */
function checkSignature({ keys, credential, date, signedHeaders, signature, method, path, query, headers, payload }) {
  const key = keys.get(credential.id);
  if (!key) return 'an unknown access key';
  if (credential.service !== 's3' || date.slice(0, 8) !== credential.day) return 'a credential of another scope';
  const names = signedHeaders.split(';');
  if (!names.includes('host')) return 'the host is not signed';
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [method, path, query, canonicalHeaders, signedHeaders, payload].join('\n');
  const scope = `${credential.day}/${credential.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonical)].join('\n');
  const expected = hmac(signingKey(key.secret, credential.day, credential.region, 's3'), toSign).toString('hex');
  return sameHex(signature, expected) ? null : 'the signature does not match';
}

/**
 * Who signed the request and whether the signature holds (header or presigned URL).
 * @param {{ method: string, url: string, headers: Headers }} request
 * @param {Map<string, StoreKey>} keys
 * @param {number} [now]
 * @returns {{ id: string } | { refused: string }}
 */
export function signerOf({ method, url, headers }, keys, now = Date.now()) {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const pairs = queryPairs(at < 0 ? '' : url.slice(at + 1));
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const m = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(
      authorization.trim(),
    );
    if (!m) return { refused: 'only Signature Version 4 is accepted' };
    const credential = credentialOf(m[1]);
    const date = String(headers['x-amz-date'] ?? '');
    if (!credential) return { refused: 'a malformed credential' };
    if (!(Math.abs(amzTime(date) - now) <= CLOCK_SKEW_MS)) return { refused: 'the request is not of this time' };
    const payload = headers['x-amz-content-sha256'];
    if (typeof payload !== 'string' || payload === '') return { refused: 'no payload hash' };
    const reason = checkSignature({
      keys,
      credential,
      date,
      signedHeaders: m[2] ?? '',
      signature: m[3],
      method,
      path,
      query: canonicalQuery(pairs),
      headers,
      payload,
    });
    return reason ? { refused: reason } : { id: credential.id };
  }
  /** @param {string} name */
  const param = (name) => pairs.find(([n]) => n === name)?.[1];
  if (param('X-Amz-Algorithm') !== undefined) {
    if (param('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return { refused: 'only Signature Version 4 is accepted' };
    const credential = credentialOf(param('X-Amz-Credential'));
    const date = param('X-Amz-Date') ?? '';
    const expires = Number(param('X-Amz-Expires'));
    const signedAt = amzTime(date);
    if (!credential) return { refused: 'a malformed credential' };
    if (!(Number.isInteger(expires) && expires > 0 && expires <= 7 * 24 * 3600))
      return { refused: 'a malformed expiry' };
    if (!(signedAt - CLOCK_SKEW_MS <= now && now <= signedAt + expires * 1000))
      return { refused: 'the link has expired' };
    const reason = checkSignature({
      keys,
      credential,
      date,
      signedHeaders: param('X-Amz-SignedHeaders') ?? '',
      signature: param('X-Amz-Signature'),
      method,
      path,
      query: canonicalQuery(pairs, 'X-Amz-Signature'),
      headers,
      payload: 'UNSIGNED-PAYLOAD',
    });
    return reason ? { refused: reason } : { id: credential.id };
  }
  return { refused: 'the request is not signed' };
}
