/**
 * JPEG: segments are read up to the start of scan. The Exif segment is replaced by one holding
 * only the orientation (so the picture still shows upright); of the other application segments
 * only JFIF, the colour profile and Adobe's are kept (XMP, IPTC and comments are dropped);
 * everything from the start of scan on passes through as it came. A segment is at most 64 KiB,
 * and only a segment whose metadata is read is held.
 */
import { ascii } from './ascii.js';
import { EXIF_HEADER, exifOrientation, orientationOnlyApp1 } from './exif.js';
import type { Parser } from './parser.js';

/**
 * The application segments kept (by marker, the identifiers they open with): JFIF, the colour
 * profile and Adobe's colour transform, which decoders need to show the right colours. Every other
 * application segment (XMP, Photoshop/IPTC, makers' own) and comments are dropped: a location
 * can hide in any of them. Exif is kept as its orientation only.
 */
const APP_KEPT: Partial<Record<number, string[]>> = {
  0xe0: ['JFIF\0', 'JFXX\0'],
  0xe2: ['ICC_PROFILE\0'],
  0xee: ['Adobe'],
};

export function jpegParser(): Parser {
  let started = false;
  return {
    maxPending: 4 + 0xffff,
    step(p) {
      if (!started) {
        if (p.length < 2) return null;
        if (p[0] !== 0xff || p[1] !== 0xd8) return { rest: 'drop' };
        started = true;
        return { emit: p.subarray(0, 2), consume: 2 };
      }
      // Bytes between segments that are not a marker: a decoder skips them to the next marker, and so do we (dropped).
      if (p[0] !== 0xff) {
        const next = p.indexOf(0xff);
        return { stream: 'skip', count: next < 0 ? p.length : next };
      }
      if (p.length < 2) return null;
      const marker = p[1] ?? 0;
      // Fill bytes before a marker.
      if (marker === 0xff) return { stream: 'skip', count: 1 };
      // The start of scan (coded pixels from here) or the end of the image: the rest as it is.
      if (marker === 0xda || marker === 0xd9) return { rest: 'pass' };
      // Markers without a length.
      if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) return { emit: p.subarray(0, 2), consume: 2 };
      if (marker === 0x00 || marker === 0xd8) return { rest: 'drop' };
      if (p.length < 4) return null;
      const length = p.readUInt16BE(2);
      if (length < 2) return { rest: 'drop' };
      // Not application data or a comment: tables and frame headers, copied as they come.
      const isApp = marker >= 0xe0 && marker <= 0xef;
      if (!isApp && marker !== 0xfe) return { stream: 'copy', count: 2 + length };
      if (p.length < 2 + length) return null;
      const whole = p.subarray(0, 2 + length);
      const payload = p.subarray(4, 2 + length);
      const known = APP_KEPT[marker];
      if (known?.some((h) => ascii(payload, 0, h.length) === h)) return { emit: whole, consume: 2 + length };
      if (marker !== 0xe1 || ascii(payload, 0, EXIF_HEADER.length) !== EXIF_HEADER)
        return { emit: new Uint8Array(0), consume: 2 + length };
      const orientation = exifOrientation(payload.subarray(EXIF_HEADER.length));
      const kept = orientation === null ? new Uint8Array(0) : orientationOnlyApp1(orientation);
      // A segment smaller than the one that would replace it is dropped whole: the output never grows.
      return { emit: kept.length <= 2 + length ? kept : new Uint8Array(0), consume: 2 + length };
    },
  };
}
