import { signedLinks } from './signedLinks.js';

/** How long an order file's link lasts: a page showing the order asks for new ones each time it reads it. */
export const ORDER_FILE_LINK_SECONDS = 30 * 60;

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
 * The file name a link gives a target's original as its uploader sent it, metadata and location
 * included (no made file has it): issued to the uploader only. The original by a link without a
 * file is the other party's copy, served without its location (files/stripLocation.ts).
 */
export const UPLOADED_ORIGINAL = 'as-uploaded';

/** Where a party downloads an order's deliverables, all in one ZIP (`/<orderId>`). */
export const ORDER_DELIVERABLES_PATH = '/files/order-deliverables';

/** The grant of an order's deliverables ZIP: signed like a file's, under a name no target has. */
export const deliverablesGrant = (orderId: string) => ({
  targetIdentifier: `order:${orderId}`,
  file: 'deliverables.zip',
  download: true,
});

const REFUSALS = {
  incomplete: 'This file link is incomplete',
  'not valid': 'This file link is not valid',
  expired: 'This file link has expired: open the order again',
} as const;

/**
 * Links to an order's private files (files/signedLinks.ts): issued by the API to a party of the
 * order (or a holder of its sharing link) when it reads the order, checked by the files host.
 */
export function orderFileLinks(secret: string) {
  const links = signedLinks(secret, 'order-file-links', ORDER_FILE_LINK_SECONDS);
  const fields = (grant: Omit<OrderFileGrant, 'exp'>) => [
    grant.targetIdentifier,
    grant.file ?? '',
    grant.download ? 'download' : 'view',
  ];
  return {
    /**
     * The query that grants the file from now for about ORDER_FILE_LINK_SECONDS, and not past
     * `notAfter` (epoch s: a link made under another, a playlist's, lasts no longer than it).
     */
    grant(file: Omit<OrderFileGrant, 'exp'>, nowMs = Date.now(), notAfter = Infinity): URLSearchParams {
      const { exp, sig } = links.sign(fields(file), nowMs, notAfter);
      const params = new URLSearchParams({ exp: String(exp), sig });
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
      const grant = { targetIdentifier, file: query.f || null, download: query.download === '1' };
      const refusal = links.refusal(fields(grant), query, nowMs);
      return refusal && REFUSALS[refusal];
    },
  };
}

export type OrderFileLinks = ReturnType<typeof orderFileLinks>;
