/**
 * Where a picture was taken, removed from an original as it is streamed to someone other than its
 * uploader, without decoding it: the container is rewritten around the pixels, whose coded bytes
 * pass through unchanged. Each format's parser (JPEG, PNG, WebP, GIF, MP4 and MOV, WebM) lives in
 * `strip/` and says what it keeps; `strip/guarded.ts` runs any of them over a stream.
 *
 * Only a segment whose metadata is read is held in memory (a JPEG segment is at most 64 KiB, a
 * `moov` at most MOOV_CAP); the rest streams through. A file whose structure cannot be followed is
 * cut where it stops making sense rather than passed on unread: nothing after that point reaches
 * the reader.
 */
import { gifParser } from './strip/gif.js';
import { guarded, type Stripper } from './strip/guarded.js';
import { isoBmffParser } from './strip/isobmff.js';
import { jpegParser } from './strip/jpeg.js';
import { pngParser } from './strip/png.js';
import { matroskaParser } from './strip/webm.js';
import { webpParser } from './strip/webp.js';

export { exifOrientation } from './strip/exif.js';
export { MOOV_CAP } from './strip/isobmff.js';

/** The types whose location metadata is removed; any other type is served unchanged. */
export const LOCATION_STRIPPED_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'video/mp4',
  'video/quicktime',
  'video/webm',
] as const;

export function stripsLocation(contentType: string): boolean {
  return (LOCATION_STRIPPED_TYPES as readonly string[]).includes(contentType);
}

/** `body` without location metadata when its type carries some that can be removed; else `body` itself. */
export function withoutLocation(body: ReadableStream<Uint8Array>, contentType: string): ReadableStream<Uint8Array> {
  const stripper = stripperFor(contentType);
  if (!stripper) return body;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        for (const out of stripper.push(chunk)) controller.enqueue(out);
      },
      flush(controller) {
        for (const out of stripper.end()) controller.enqueue(out);
      },
    }),
  );
}

/** The whole of `bytes` stripped at once (for tests and small files). */
export function stripLocationFromBuffer(bytes: Uint8Array, contentType: string): Buffer {
  const stripper = stripperFor(contentType);
  if (!stripper) return Buffer.from(bytes);
  return Buffer.concat([...stripper.push(bytes), ...stripper.end()]);
}

function stripperFor(contentType: string): Stripper | null {
  switch (contentType) {
    case 'image/jpeg':
      return guarded(jpegParser());
    case 'image/png':
      return guarded(pngParser());
    case 'image/webp':
      return guarded(webpParser());
    case 'image/gif':
      return guarded(gifParser());
    case 'video/webm':
      return guarded(matroskaParser());
    case 'video/mp4':
    case 'video/quicktime':
      return guarded(isoBmffParser());
    default:
      return null;
  }
}
