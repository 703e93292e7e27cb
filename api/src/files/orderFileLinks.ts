import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long an order file's link lasts: a page showing the order asks for new ones each time it reads it. */
export const ORDER_FILE_LINK_SECONDS = 30 * 60;
/** Links expire on this grid, so reads of an order within one step give the same URLs (the browser's cache holds). */
const EXPIRY_STEP_SECONDS = 5 * 60;

/**
 * What a link to an order's file permits: one file of this target (one the media job made, by
 * name, or the original when null), inline or as an attachment, until `exp` (epoch s).
 */
export interface OrderFileGrant {
  targetIdentifier: string;
  file: string | null;
  download: boolean;
  exp: number;
}

/**
 * Links to an order's private files: issued by the API to a party of the order (or a holder of
 * its sharing link) when it reads the order, checked by the files host without a session (an
 * <img> on another origin sends no cookie), like a presigned URL. HMAC-SHA256 under a key every
 * instance derives from the operator token, so any instance checks what another issued.
 */
export function orderFileLinks(secret: string) {
  const key = createHmac('sha256', secret).update('order-file-links').digest();
  const mac = (grant: OrderFileGrant) =>
    createHmac('sha256', key)
      .update(`${grant.targetIdentifier}\n${grant.file ?? ''}\n${grant.download ? 'download' : 'view'}\n${grant.exp}`)
      .digest('base64url');
  return {
    /**
     * The query that grants the file from now for about ORDER_FILE_LINK_SECONDS, and not past
     * `notAfter` (epoch s: a link made under another, a playlist's, lasts no longer than it).
     */
    grant(file: Omit<OrderFileGrant, 'exp'>, nowMs = Date.now(), notAfter = Infinity): URLSearchParams {
      const exp = Math.min(
        notAfter,
        Math.ceil((nowMs / 1000 + ORDER_FILE_LINK_SECONDS) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS,
      );
      const params = new URLSearchParams({ exp: String(exp), sig: mac({ ...file, exp }) });
      if (file.file) params.set('f', file.file);
      if (file.download) params.set('download', '1');
      return params;
    },
    /** Why the link does not grant the file (a reason for the 403), or null when it does. */
    refusal(
      targetIdentifier: string,
      query: { exp?: string; sig?: string; f?: string; download?: string },
      nowMs = Date.now(),
    ): string | null {
      const exp = Number(query.exp);
      if (!query.sig || !Number.isInteger(exp)) return 'This file link is incomplete';
      const grant = { targetIdentifier, file: query.f || null, download: query.download === '1', exp };
      const expected = Buffer.from(mac(grant));
      const given = Buffer.from(query.sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'This file link is not valid';
      if (exp * 1000 < nowMs) return 'This file link has expired: open the order again';
      return null;
    },
  };
}

export type OrderFileLinks = ReturnType<typeof orderFileLinks>;
