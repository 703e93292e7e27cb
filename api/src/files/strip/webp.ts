/**
 * WebP: the EXIF and XMP chunks are blanked in place (renamed to an unknown chunk every decoder
 * skips, their bytes zeroed) and VP8X stops announcing them, so the RIFF sizes stay true.
 */
import { ascii } from './ascii.js';
import type { Parser } from './parser.js';

/** The VP8X flags announcing EXIF and XMP chunks. */
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

export function webpParser(): Parser {
  let started = false;
  return {
    maxPending: 18,
    step(p) {
      if (!started) {
        if (p.length < 12) return null;
        if (ascii(p, 0, 4) !== 'RIFF' || ascii(p, 8, 12) !== 'WEBP') return { rest: 'drop' };
        started = true;
        return { emit: p.subarray(0, 12), consume: 12 };
      }
      if (p.length < 8) return null;
      const type = ascii(p, 0, 4);
      const size = p.readUInt32LE(4);
      const padded = size + (size % 2);
      // A chunk's header given, then its data zeroed or copied.
      if (type === 'EXIF' || type === 'XMP ') {
        const header = Buffer.from(p.subarray(0, 8));
        header.write('JUNK', 0, 'latin1');
        return { emit: header, consume: 8, then: { stream: 'zero', count: padded } };
      }
      if (type === 'VP8X') {
        if (size < 10) return { rest: 'drop' };
        if (p.length < 18) return null;
        const head = Buffer.from(p.subarray(0, 18));
        head[8] = (head[8] ?? 0) & ~(VP8X_EXIF | VP8X_XMP);
        return { emit: head, consume: 18, then: { stream: 'copy', count: padded - 10 } };
      }
      return { stream: 'copy', count: 8 + padded };
    },
  };
}
