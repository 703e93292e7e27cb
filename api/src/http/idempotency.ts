import { createHash } from 'node:crypto';
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
 * runs once per key and caller; the same key again gets the first run's answer (status, body and
 * cookies, marked Idempotent-Replayed), whichever instance it reaches; the same key with another
 * request is 422; while the first run is under way, 409 with Retry-After. A run that ends in a
 * server error (5xx) or a rate limit (429) keeps nothing, so its retry runs again: nothing was
 * applied by it, since every change and its notification commit in one transaction.
 */
export function idempotency(repos: Repositories): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined) return next();
    if (!KEY_FORMAT.test(key))
      throw new HttpError(400, `${IDEMPOTENCY_HEADER} must be 8 to 255 visible ASCII characters`);
    const scope = scopeOf(c.get('user')?.id, cookieOf(c, GUEST_CART_COOKIE));
    const claim = await repos.idempotency.claim(
      scope,
      key,
      await fingerprintOf(c.req.raw),
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
        await repos.idempotency.complete(scope, key, {
          status: res.status,
          body: await res.clone().text(),
          contentType: res.headers.get('content-type'),
          setCookies: res.headers.getSetCookie(),
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
 * visitor is known by the guest cart cookie when it has one.
 */
function scopeOf(userId: number | undefined, guestCart: string | undefined): string {
  if (userId !== undefined) return `user:${userId}`;
  return guestCart ? `guest:${createHash('sha256').update(guestCart).digest('base64url')}` : 'visitor';
}

/**
 * The request a key was first used for: method, path and query, and the body's fields in order
 * of their names (a multipart body's boundary differs each time it is sent, its fields do not).
 * Passwords in a body are hashed with it, never stored.
 */
async function fingerprintOf(request: Request): Promise<string> {
  const url = new URL(request.url);
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const copy = request.clone();
  let body: string;
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    const fields = await copy.formData().catch(() => null);
    body = fields
      ? JSON.stringify(
          [...fields.entries()]
            .map(([name, value]) => [name, typeof value === 'string' ? value : `file:${value.name}:${value.size}`])
            .sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0)),
        )
      : await request.clone().text();
  } else {
    body = await copy.text();
  }
  return createHash('sha256')
    .update(`${request.method} ${url.pathname}${url.search}\n${type.split(';')[0]}\n${body}`)
    .digest('base64url');
}

function replay(answer: StoredAnswer): Response {
  const headers = new Headers({ [REPLAYED_HEADER]: 'true' });
  if (answer.contentType) headers.set('Content-Type', answer.contentType);
  for (const cookie of answer.setCookies) headers.append('Set-Cookie', cookie);
  return new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers });
}
