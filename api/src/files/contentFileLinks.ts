import { HttpError } from '../http/errors.js';
import { signedLinks } from './signedLinks.js';

/** Where a photo's unmarked pictures and a video for sale's ladder are served, by signed link only (`/<content identifier>?f=<file>&exp&sig`). */
export const CONTENT_FILE_PATH = '/files/content';
/** The name a link gives the item's original file (its source as uploaded), which no made file has. */
export const ORIGINAL_FILE = 'original';
/**
 * How long a link lasts: a page showing the item asks for new ones each time it reads it. A video
 * played past it stops at its next segment (the files a playlist names last no longer than it).
 */
export const CONTENT_FILE_LINK_SECONDS = 30 * 60;

/**
 * Links to an item for sale's private files (media/derivatives.ts `unmarked`, and a video's ladder,
 * stored under a private prefix): issued when its owner or a buyer reads it
 * (views/content.ts), and to its owner for its original (ORIGINAL_FILE), each for one file
 * of one item. Like a presigned URL, the link is the permission (files/signedLinks.ts).
 */
export function contentFileLinks(secret: string) {
  const links = signedLinks(secret, 'content-file-links', CONTENT_FILE_LINK_SECONDS);
  return {
    /**
     * The path and query granting `file` (e.g. '1920.jpg') of the item, from `nowMs` for about
     * CONTENT_FILE_LINK_SECONDS and not past `notAfter` (epoch s: a file a playlist names lasts no longer than its playlist's link).
     */
    path(identifier: string, file: string, nowMs = Date.now(), notAfter = Infinity): string {
      const { exp, sig } = links.sign([identifier, file], nowMs, notAfter);
      const query = new URLSearchParams({ f: file, exp: String(exp), sig });
      return `${CONTENT_FILE_PATH}/${encodeURIComponent(identifier)}?${query.toString()}`;
    },
    /** The file the link grants; throws 403 for a link not signed here (or without its signature), 410 for one past its time. */
    check(identifier: string, query: { f?: string; exp?: string; sig?: string }, nowMs = Date.now()): string {
      const file = query.f ?? '';
      const refusal = links.refusal([identifier, file], query, nowMs);
      if (refusal === 'expired') throw new HttpError(410, 'This link has expired: open the page again');
      if (refusal) throw new HttpError(403, `This link is ${refusal}`);
      return file;
    },
  };
}

export type ContentFileLinks = ReturnType<typeof contentFileLinks>;
