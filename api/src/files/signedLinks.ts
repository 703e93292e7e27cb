import { createHmac, timingSafeEqual } from 'node:crypto';

/** Links expire on this grid, so reads of a page within one step give the same URLs (the browser's cache holds). */
const EXPIRY_STEP_SECONDS = 5 * 60;

/** Why a signed link does not grant what it names. */
export type LinkRefusal = 'incomplete' | 'not valid' | 'expired';

/**
 * Short-lived links to private files, like presigned URLs: the query (`exp`, `sig`) is the
 * permission, checked by the files host without a session (an <img> on another origin sends no
 * cookie). The signature is HMAC-SHA256 of the fields the link grants and its expiry, under a
 * key every instance derives from the file link key (FILE_LINK_KEY) and `purpose`, so any
 * instance checks what another issued, and a link of one kind never passes for another.
 */
export function signedLinks(secret: string, purpose: string, lifetimeSeconds: number) {
  const key = createHmac('sha256', secret).update(purpose).digest();
  const mac = (fields: readonly string[], exp: number) =>
    createHmac('sha256', key)
      .update([...fields, String(exp)].join('\n'))
      .digest('base64url');
  return {
    /**
     * The expiry and signature granting `fields` from `nowMs` for about the lifetime, and not past
     * `notAfter` (epoch s: a link made under another lasts no longer than it).
     */
    sign(fields: readonly string[], nowMs = Date.now(), notAfter = Infinity): { exp: number; sig: string } {
      const exp = Math.min(
        notAfter,
        Math.ceil((nowMs / 1000 + lifetimeSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS,
      );
      return { exp, sig: mac(fields, exp) };
    },
    /** Why the query does not grant `fields`, or null when it does. */
    refusal(fields: readonly string[], query: { exp?: string; sig?: string }, nowMs = Date.now()): LinkRefusal | null {
      const exp = Number(query.exp);
      if (!query.sig || !Number.isInteger(exp)) return 'incomplete';
      const expected = Buffer.from(mac(fields, exp));
      const given = Buffer.from(query.sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'not valid';
      if (exp * 1000 < nowMs) return 'expired';
      return null;
    },
  };
}
