/** PNG: the eXIf chunk and the text chunks (tEXt, zTXt, iTXt: where XMP is kept) are dropped. */
import { ascii } from './ascii.js';
import type { Parser } from './parser.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_DROPPED = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt']);

export function pngParser(): Parser {
  let started = false;
  return {
    maxPending: 12,
    step(p) {
      if (!started) {
        if (p.length < 8) return null;
        if (!p.subarray(0, 8).equals(PNG_SIGNATURE)) return { rest: 'drop' };
        started = true;
        return { emit: p.subarray(0, 8), consume: 8 };
      }
      if (p.length < 8) return null;
      const length = p.readUInt32BE(0);
      const type = ascii(p, 4, 8);
      if (!/^[A-Za-z]{4}$/.test(type) || length > 0x7fffffff) return { rest: 'drop' };
      // Length, type, data, CRC.
      const whole = 12 + length;
      if (type === 'IEND') return { rest: 'pass' };
      return { stream: PNG_DROPPED.has(type) ? 'skip' : 'copy', count: whole };
    },
  };
}
