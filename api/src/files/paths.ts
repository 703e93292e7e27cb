import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';

export type ResolvedPath = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Why a client-supplied path relative to the media folder (a file key) may not be used, or null.
 * The value arrives already percent-decoded once, so a '%' left in it is a second encoding layer
 * and is refused rather than decoded again; '..', '.', empty segments, backslashes, NUL and
 * absolute paths are refused. The object store takes keys checked by this alone.
 */
export function checkKey(relative: string): string | null {
  if (!relative) return 'filePath is required';
  if (relative.length > 500) return 'filePath is too long';
  if (/[\\\0%]/.test(relative) || isAbsolute(relative) || /^[a-zA-Z]:/.test(relative)) {
    return 'filePath must be a plain relative path';
  }
  const segments = relative.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return 'filePath must not leave the media folder';
  return null;
}

/**
 * Turns a file key into an absolute path inside the media folder, or a reason to refuse: the
 * key's own checks (checkKey), and symlinks may not lead outside.
 */
export function resolveMediaPath(mediaDir: string, relative: string): ResolvedPath {
  const problem = checkKey(relative);
  if (problem) return { ok: false, reason: problem };
  const segments = relative.split('/');
  const root = resolve(mediaDir);
  const full = resolve(root, ...segments);
  if (!full.startsWith(root + sep)) return { ok: false, reason: 'filePath must not leave the media folder' };
  if (existsSync(full)) {
    const realRoot = realpathSync(root);
    if (!realpathSync(full).startsWith(realRoot + sep))
      return { ok: false, reason: 'filePath must not leave the media folder' };
  }
  return { ok: true, path: full };
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  mp4: 'video/mp4',
  m3u8: 'application/vnd.apple.mpegurl',
  // An fMP4 segment of a ladder the media job made (media/videos.ts): typed as the job types it.
  m4s: 'video/mp4',
  ts: 'video/mp2t',
};

export function contentTypeOf(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** Leading bytes of each uploadable type: the declared type must match the file's first bytes. */
export function matchesDeclaredType(bytes: Uint8Array, contentType: string): boolean {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  switch (contentType) {
    case 'image/png':
      return bytes[0] === 0x89 && ascii(1, 4) === 'PNG';
    case 'image/jpeg':
      return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
    case 'image/gif':
      return ascii(0, 4) === 'GIF8';
    case 'image/webp':
      return ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP';
    // ISO base media (MP4, QuickTime): a box's size, then its type; the first is 'ftyp' (QuickTime may open with another).
    case 'video/mp4':
      return ascii(4, 8) === 'ftyp';
    case 'video/quicktime':
      return ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip'].includes(ascii(4, 8));
    // Matroska's EBML header.
    case 'video/webm':
      return bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3;
    default:
      return false;
  }
}

/** The extension of each uploadable type, for the keys the server chooses. */
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
};

/**
 * Where an order target's upload waits to be checked: a key the server chose, without the
 * uploader's file name, that nothing serves. With an object store the browser's presigned PUT
 * may write it again while the URL lasts; what is served is the checked copy (orderFileKey).
 */
export const quarantineKey = (orderId: string, targetIdentifier: string): string =>
  `quarantine/${orderId}/${targetIdentifier}`;

/**
 * Where a checked upload is kept: under its order and target, a random name (a new copy never
 * replaces one being served) and the extension of the type its bytes were checked to be.
 */
export const orderFileKey = (orderId: string, targetIdentifier: string, contentType: string): string =>
  `orders/${orderId}/${targetIdentifier}/${randomBytes(9).toString('base64url')}.${EXTENSIONS[contentType] ?? 'bin'}`;

/**
 * Keys never served by /media or /download: files private to an order's parties (and the seed's
 * older `uploads/`), the sources of public media (`sources/`: a camera's file keeps its GPS
 * position; what is served is what the media job made of it), and the unmarked pictures and
 * video ladders of items for sale (`unmarked/`: their owner and buyers get signed links,
 * files/contentFileLinks.ts; everyone else the watermarked preview).
 */
const PRIVATE_PREFIXES = ['orders/', 'quarantine/', 'uploads/', 'sources/', 'unmarked/'];
export const isPrivateKey = (key: string): boolean => PRIVATE_PREFIXES.some((prefix) => key.startsWith(prefix));

/** Where one run of a photo or video for sale's media job keeps its unmarked pictures and ladder (a new folder each run, as under `media/`). */
export const unmarkedFolder = (identifier: string, run: string): string => `unmarked/content/${identifier}/${run}`;

/**
 * Where an organizer's uploaded cover waits for its media job (`sources/`: never served), under
 * a random name new to each upload; the same random name is the local upload URL's token
 * (files/routes.ts), so the key the event holds is the upload's permission.
 */
export const coverSourceKey = (eventIdentifier: string, token: string, contentType: string): string =>
  `sources/covers/${eventIdentifier}/${token}.${EXTENSIONS[contentType] ?? 'bin'}`;
