import { createHmac, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../http/errors.js';

/** How long a link to a bought original lasts: the purchases page asks for new ones each time it reads them. */
export const PURCHASE_LINK_SECONDS = 30 * 60;
const EXPIRY_STEP_SECONDS = 5 * 60;
/** Where bought originals are downloaded, one (`/<identifier>`) or all as a ZIP (`/all.zip`). */
export const PURCHASE_DOWNLOAD_PATH = '/files/purchased';
/** The item name of the link to a ZIP of everything the user bought. */
export const ALL_PURCHASES = 'all.zip';

/**
 * Links to what a user bought: signed for that user and item (or all of them) until `exp`, and
 * checked against the user's entitlements when used. A link is refused (403) to a session of
 * another user, so a link passed on does not serve someone who did not buy.
 */
export function purchaseDownloadLinks(secret: string) {
  const key = createHmac('sha256', secret).update('purchase-download-links').digest();
  const mac = (userId: number, item: string, exp: number) =>
    createHmac('sha256', key).update(`${userId}\n${item}\n${exp}`).digest('base64url');
  return {
    url(filesOrigin: string, userId: number, identifier: string | null, nowMs = Date.now()): string {
      const item = identifier ?? ALL_PURCHASES;
      const exp = Math.ceil((nowMs / 1000 + PURCHASE_LINK_SECONDS) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
      const query = new URLSearchParams({ u: String(userId), exp: String(exp), sig: mac(userId, item, exp) });
      return `${filesOrigin}${PURCHASE_DOWNLOAD_PATH}/${encodeURIComponent(item)}?${query.toString()}`;
    },
    /** The user the link is for; throws 403 for a link not signed here, 410 for one past its time. */
    check(item: string, query: { u?: string; exp?: string; sig?: string }, nowMs = Date.now()): number {
      const userId = Number(query.u);
      const exp = Number(query.exp);
      if (!query.sig || !Number.isInteger(userId) || !Number.isInteger(exp))
        throw new HttpError(403, 'This download link is incomplete');
      const expected = Buffer.from(mac(userId, item, exp));
      const given = Buffer.from(query.sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new HttpError(403, 'This download link is not valid');
      if (exp * 1000 < nowMs) throw new HttpError(410, 'This download link has expired: open your purchases again');
      return userId;
    },
  };
}

export type PurchaseDownloadLinks = ReturnType<typeof purchaseDownloadLinks>;
