/**
 * GIF: comment extensions and application extensions other than the looping ones (NETSCAPE2.0,
 * ANIMEXTS1.0: XMP lives in its own) are dropped; GIF has no offsets, so nothing else changes.
 * Anything after the trailer is dropped.
 */
import { ascii } from './ascii.js';
import type { Parser } from './parser.js';

/** The application extensions kept: the animation's loop count. */
const GIF_KEPT_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);
const GIF_EXTENSION = 0x21;
const GIF_IMAGE = 0x2c;
const GIF_TRAILER = 0x3b;
const GIF_APPLICATION = 0xff;
const GIF_COMMENT = 0xfe;

/** The size of the colour table a packed-fields byte announces. */
const gifColourTable = (flags: number) => (flags & 0x80 ? 3 * (2 << (flags & 0x07)) : 0);

export function gifParser(): Parser {
  let started = false;
  /** Inside a block's data sub-blocks: each given or dropped, to the empty one that ends them. */
  let subBlocks: 'copy' | 'skip' | null = null;
  return {
    // A header with its screen descriptor (13), or an application extension's head with its identifier (14).
    maxPending: 14,
    step(p) {
      if (subBlocks) {
        const length = p[0] ?? 0;
        const count = length === 0 ? 1 : 1 + length;
        const mode = subBlocks;
        if (length === 0) subBlocks = null;
        return { stream: mode, count };
      }
      if (!started) {
        if (p.length < 13) return null;
        const signature = ascii(p, 0, 6);
        if (signature !== 'GIF87a' && signature !== 'GIF89a') return { rest: 'drop' };
        started = true;
        return { stream: 'copy', count: 13 + gifColourTable(p[10] ?? 0) };
      }
      switch (p[0]) {
        case GIF_TRAILER:
          return { stream: 'copy', count: 1, then: { rest: 'drop' } };
        case GIF_IMAGE: {
          if (p.length < 10) return null;
          // The descriptor, then its colour table and the LZW code size, then the pixels' sub-blocks.
          subBlocks = 'copy';
          return { stream: 'copy', count: 10, then: { stream: 'copy', count: gifColourTable(p[9] ?? 0) + 1 } };
        }
        case GIF_EXTENSION: {
          if (p.length < 3) return null;
          const label = p[1];
          let kept = label !== GIF_COMMENT;
          if (label === GIF_APPLICATION) {
            if (p[2] !== 11) kept = false;
            else if (p.length < 14) return null;
            else kept = GIF_KEPT_APPLICATIONS.has(ascii(p, 3, 14));
          }
          // The introducer and label; the sub-blocks that follow go the same way.
          subBlocks = kept ? 'copy' : 'skip';
          return { stream: subBlocks, count: 2 };
        }
        default:
          return { rest: 'drop' };
      }
    },
  };
}
