/**
 * WebM (Matroska): the EBML elements are walked by their headers, into Segments and Clusters of
 * known or unknown size (a recorder writes them unknown). `Tags` (where `LOCATION` and any other
 * text lives) and `Attachments` become `Void` elements of the same size, their contents zeroed;
 * every other element passes through as it is, so the positions `SeekHead` and `Cues` give hold.
 */
import type { Parser } from './parser.js';

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const VOID = 0xec;
/** A Segment's children holding metadata only: `Tags` and `Attachments`. */
const MATROSKA_METADATA = new Set([0x1254c367, 0x1941a469]);

interface EbmlHead {
  id: number;
  /** The ID's and the size's bytes together. */
  header: number;
  /** The contents' size; null for "unknown" (to the end of the parent). */
  size: number | null;
}

/** The number of bytes of a variable-length integer starting with `first`, up to `max`; 0 when none fits. */
function vintLength(first: number, max: number): number {
  for (let length = 1; length <= max; length++) if (first & (0x100 >> length)) return length;
  return 0;
}

/** The element header at the start of `b`: 'short' when `b` ends inside it, 'bad' when it cannot be one. */
function ebmlHead(b: Buffer): EbmlHead | 'short' | 'bad' {
  if (b.length < 1) return 'short';
  const idLength = vintLength(b[0] ?? 0, 4);
  if (idLength === 0) return 'bad';
  if (b.length < idLength + 1) return 'short';
  const sizeLength = vintLength(b[idLength] ?? 0, 8);
  if (sizeLength === 0) return 'bad';
  const header = idLength + sizeLength;
  if (b.length < header) return 'short';
  const id = b.readUIntBE(0, idLength);
  let size = BigInt((b[idLength] ?? 0) & (0xff >> sizeLength));
  for (let i = idLength + 1; i < header; i++) size = (size << 8n) | BigInt(b[i] ?? 0);
  if (size === (1n << BigInt(7 * sizeLength)) - 1n) return { id, header, size: null };
  if (size > BigInt(Number.MAX_SAFE_INTEGER)) return 'bad';
  return { id, header, size: Number(size) };
}

/** A `Void` element's header of `length` bytes announcing `size` bytes of contents. */
function voidHeader(length: number, size: number): Buffer {
  const width = length - 1;
  const head = Buffer.alloc(length);
  head[0] = VOID;
  let value = BigInt(size) | (1n << BigInt(7 * width));
  for (let i = length - 1; i >= 1; i--) {
    head[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return head;
}

export function matroskaParser(): Parser {
  let started = false;
  return {
    maxPending: 12,
    step(p) {
      const head = ebmlHead(p);
      if (head === 'short') return null;
      if (head === 'bad') return { rest: 'drop' };
      if (!started) {
        if (head.id !== EBML_HEADER || head.size === null) return { rest: 'drop' };
        started = true;
      }
      // Into a Segment, and into a Cluster of unknown size (its children are read one by one
      // until the next Segment child starts): every element in them goes through this step.
      if (head.id === SEGMENT || (head.id === CLUSTER && head.size === null)) {
        return { emit: p.subarray(0, head.header), consume: head.header };
      }
      // Only a Segment and a Cluster may have an unknown size: past one anywhere else nothing can be followed.
      if (head.size === null) return { rest: 'drop' };
      // The header given as a `Void`'s, then the contents zeroed.
      if (MATROSKA_METADATA.has(head.id)) {
        const header = voidHeader(head.header, head.size);
        return { emit: header, consume: head.header, then: { stream: 'zero', count: head.size } };
      }
      return { stream: 'copy', count: head.header + head.size };
    },
  };
}
