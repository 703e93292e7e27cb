import { createHash, createHmac } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { cookieOf, GUEST_CART_COOKIE } from '../auth/sessions.js';
import type { Repositories } from '../repositories/index.js';
import type { StoredAnswer } from '../repositories/idempotency.js';
import type { AppEnv } from './env.js';
import { HttpError } from './errors.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Set on an answer replayed from the first run of its key, as Stripe does. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** How long a key's answer is kept for replay. */
export const IDEMPOTENCY_KEEP_MS = 24 * 3600_000;
/**
 * How long a run holds its key before another request may take it over: longer than any request
 * may run (the gateway's read timeout is 60 s), so only a run whose instance died loses it.
 */
export const IDEMPOTENCY_LEASE_MS = 120_000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Printable ASCII; a UUID is 36 characters.
const KEY_FORMAT = /^[\x21-\x7e]{8,255}$/;

/**
 * Retries that act once (payment APIs' Idempotency-Key): a state-changing request carrying a key
 * runs once per key and caller; the same key again gets the first run's answer (status and body,
 * marked Idempotent-Replayed), whichever instance it reaches; the same key with another request is
 * 422; while the first run is under way, 409 with Retry-After. A run that ends in a server error
 * (5xx) or a rate limit (429) keeps nothing, so its retry runs again: nothing was applied by it,
 * since every change and its notification commit in one transaction.
 *
 * Nothing kept is a secret: a fingerprint is an HMAC under `fingerprintKey` (kept outside the
 * database) and leaves password fields out; an answer's cookies (a new session) are never kept,
 * so its replay is a 409 telling the caller to log in again rather than a copy of the session.
 * A caller with neither a session nor a guest identity has no scope of its own to keep a key in:
 * its request runs without one.
 */
export function idempotency(repos: Repositories, fingerprintKey: Buffer): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined) return next();
    if (!KEY_FORMAT.test(key))
      throw new HttpError(400, `${IDEMPOTENCY_HEADER} must be 8 to 255 visible ASCII characters`);
    const scope = scopeOf(c.get('user')?.id, cookieOf(c, GUEST_CART_COOKIE));
    // Anonymous: one scope for every such caller would let a leaked key replay one's answer to another.
    if (scope === null) return next();
    const claim = await repos.idempotency.claim(
      scope,
      key,
      await fingerprintOf(c.req.raw, fingerprintKey),
      new Date(),
      IDEMPOTENCY_LEASE_MS,
      IDEMPOTENCY_KEEP_MS,
    );
    if ('mismatch' in claim)
      throw new HttpError(422, `This ${IDEMPOTENCY_HEADER} was used for another request: use a new key`);
    if ('busy' in claim)
      throw new HttpError(409, `A request with this ${IDEMPOTENCY_HEADER} is still being processed`, undefined, {
        'Retry-After': '1',
      });
    if ('replay' in claim) return replay(claim.replay);

    let kept = false;
    try {
      await next();
      const { res } = c;
      if (res.status < 500 && res.status !== 429) {
        // An answer that set cookies (a session started or ended) is kept as that fact only.
        const cookies = res.headers.getSetCookie().length > 0;
        await repos.idempotency.complete(scope, key, {
          status: res.status,
          body: cookies ? '' : await res.clone().text(),
          contentType: cookies ? null : res.headers.get('content-type'),
          cookies,
        });
        kept = true;
      }
    } finally {
      if (!kept) await repos.idempotency.release(scope, key).catch(() => undefined);
    }
  };
}

/**
 * Whose key it is: a key names one action of one caller, so two callers' keys never meet. A
 * visitor is known by the guest cart cookie when it has one; without one, nobody (null).
 */
function scopeOf(userId: number | undefined, guestCart: string | undefined): string | null {
  if (userId !== undefined) return `user:${userId}`;
  return guestCart ? `guest:${createHash('sha256').update(guestCart).digest('base64url')}` : null;
}

/** A field never fingerprinted: a password, in any of its names (password, currentPassword, newPassword...). */
const isSecretField = (name: string) => name.toLowerCase().includes('password');

/** A JSON body's value with every password field left out, at any depth. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => !isSecretField(name))
      .map(([name, field]) => [name, withoutSecrets(field)]),
  );
}

/**
 * The request a key was first used for: method, path and query, and the body's fields in order
 * of their names (a multipart body's boundary differs each time it is sent, its fields do not),
 * password fields left out; as an HMAC under the server's key, so the table alone tells nothing
 * of a request's content. A body that does not parse is taken whole (the call refuses it anyway).
 */
async function fingerprintOf(request: Request, fingerprintKey: Buffer): Promise<string> {
  const url = new URL(request.url);
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const copy = request.clone();
  let body: string;
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    const fields = await copy.formData().catch(() => null);
    body = fields
      ? JSON.stringify(
          [...fields.entries()]
            .filter(([name]) => !isSecretField(name))
            .map(([name, value]) => [name, typeof value === 'string' ? value : `file:${value.name}:${value.size}`])
            .sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0)),
        )
      : await request.clone().text();
  } else {
    const text = await copy.text();
    body = text;
    if (type.startsWith('application/json')) {
      try {
        body = JSON.stringify(withoutSecrets(JSON.parse(text)));
      } catch {
        // Not JSON after all: taken whole.
      }
    }
  }
  return createHmac('sha256', fingerprintKey)
    .update(`${request.method} ${url.pathname}${url.search}\n${type.split(';')[0]}\n${body}`)
    .digest('base64url');
}

function replay(answer: StoredAnswer): Response {
  // The first run's cookies were not kept: its session is the first caller's alone.
  if (answer.cookies)
    return Response.json(
      { error: `This request already ran, and the session it started is not given again: log in again` },
      { status: 409, headers: { [REPLAYED_HEADER]: 'true' } },
    );
  const headers = new Headers({ [REPLAYED_HEADER]: 'true' });
  if (answer.contentType) headers.set('Content-Type', answer.contentType);
  return new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers });
}
