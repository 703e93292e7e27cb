/**
 * MP4 and MOV (ISO base media): the top-level boxes are walked by their headers. Every `udta` and
 * `meta` box (where `©xyz`, `loci` and Apple's location keys live) and every XMP `uuid` box, at the
 * top level or at any depth of a `moov`'s containers, becomes a `free` box of the same size with
 * its contents zeroed, which players skip. No box changes size and no sample byte changes, so the
 * chunk offsets (`stco`/`co64`) into `mdat` stay right wherever `moov` is. Only a `moov` is held
 * whole (at most MOOV_CAP).
 */
import { ascii } from './ascii.js';
import type { Parser } from './parser.js';

/** The largest `moov` held to be rewritten: a longer one (hours of samples' tables) cuts the file there. */
export const MOOV_CAP = 64 * 1024 * 1024;
/** Boxes holding metadata only: user data (`©xyz`, `loci`, `XMP_`) and `meta` (Apple's keys, iTunes' items). */
const BMFF_METADATA = new Set(['udta', 'meta']);
/** XMP's `uuid` box, which can hold a location too. */
const XMP_UUID = Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex');
/** The boxes inside a `moov` whose children are boxes and can hold user data or `meta`; sample tables are not entered. */
const BMFF_CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'dinf', 'edts', 'mvex', 'clip', 'matt']);
/** A top-level box type: four printable characters (`©` included). */
const TOP_LEVEL_TYPE = /^[\x20-\x7e\xa9]{4}$/;

interface BoxHead {
  type: string;
  /** 8, or 16 with a 64-bit size. */
  header: number;
  /** The whole box's size; null for a box that runs to the end of the file. */
  size: number | null;
}

/** The header of the box at `at`: 'short' when `b` ends inside it, 'bad' when it cannot be a box's. */
function boxHead(b: Buffer, at: number): BoxHead | 'short' | 'bad' {
  if (b.length - at < 8) return 'short';
  const size = b.readUInt32BE(at);
  const type = ascii(b, at + 4, at + 8);
  if (size === 1) {
    if (b.length - at < 16) return 'short';
    const large = b.readBigUInt64BE(at + 8);
    if (large < 16n || large > BigInt(Number.MAX_SAFE_INTEGER)) return 'bad';
    return { type, header: 16, size: Number(large) };
  }
  if (size === 0) return { type, header: 8, size: null };
  if (size < 8) return 'bad';
  return { type, header: 8, size };
}

/** Whether the box at `at` (header read) holds metadata only, and so becomes `free`. */
const isMetadataBox = (b: Buffer, at: number, head: BoxHead) =>
  BMFF_METADATA.has(head.type) ||
  (head.type === 'uuid' && b.subarray(at + head.header, at + head.header + 16).equals(XMP_UUID));
/** The bytes a metadata box's header needs read to tell: its header, and a `uuid`'s identifier. */
const metadataHeadLength = (head: BoxHead) => head.header + (head.type === 'uuid' ? 16 : 0);

/**
 * Turns every metadata box in the children of `b[from, end)` into `free` (contents zeroed) and
 * goes into the containers; false when a child's size does not fit its parent.
 */
function blankMetadata(b: Buffer, from: number, end: number, depth: number): boolean {
  const within = b.subarray(0, end);
  for (let at = from; at < end;) {
    // Fewer bytes than a box header (a QuickTime terminator, padding): zeroed, whatever they held.
    if (end - at < 8) {
      b.fill(0, at, end);
      return true;
    }
    const head = boxHead(within, at);
    if (head === 'short' || head === 'bad') return false;
    const size = head.size ?? end - at;
    if (size > end - at || size < metadataHeadLength(head)) return false;
    if (isMetadataBox(within, at, head)) {
      b.write('free', at + 4, 'latin1');
      b.fill(0, at + head.header, at + size);
    } else if (BMFF_CONTAINERS.has(head.type)) {
      if (depth >= 16 || !blankMetadata(b, at + head.header, at + size, depth + 1)) return false;
    }
    at += size;
  }
  return true;
}

export function isoBmffParser(): Parser {
  return {
    // A 64-bit box header and a `uuid`'s identifier.
    maxPending: 32,
    step(p) {
      const head = boxHead(p, 0);
      if (head === 'short') return null;
      if (head === 'bad' || !TOP_LEVEL_TYPE.test(head.type)) return { rest: 'drop' };
      const { size } = head;
      if (size !== null && size < metadataHeadLength(head)) return { rest: 'drop' };
      if (head.type === 'moov') {
        if (size === null || size > MOOV_CAP) return { rest: 'drop' };
        return {
          hold: size,
          by: (whole) => (blankMetadata(whole, head.header, whole.length, 0) ? whole : null),
        };
      }
      if (BMFF_METADATA.has(head.type) || head.type === 'uuid') {
        if (p.length < metadataHeadLength(head)) return null;
        if (isMetadataBox(p, 0, head)) {
          // Running to the end of the file: nothing more is given.
          if (size === null) return { rest: 'drop' };
          // The header given renamed, then the contents zeroed.
          const renamed = Buffer.from(p.subarray(0, head.header));
          renamed.write('free', 4, 'latin1');
          return { emit: renamed, consume: head.header, then: { stream: 'zero', count: size - head.header } };
        }
      }
      // Any other box (`ftyp`, `mdat`, `free`, `moof`...) as it is.
      return size === null ? { rest: 'pass' } : { stream: 'copy', count: size };
    },
  };
}
