/**
 * Where a picture was taken, removed from an original as it is streamed to someone other than its
 * uploader, without decoding it: the container is rewritten around the pixels, whose coded bytes
 * pass through unchanged.
 *
 * - JPEG: segments are read up to the start of scan. The Exif segment is replaced by one holding
 *   only the orientation (so the picture still shows upright); of the other application segments
 *   only JFIF, the colour profile and Adobe's are kept (XMP, IPTC and comments are dropped);
 *   everything from the start of scan on passes through as it came.
 * - PNG: the eXIf chunk and the text chunks (tEXt, zTXt, iTXt: where XMP is kept) are dropped.
 * - WebP: the EXIF and XMP chunks are blanked in place (renamed to an unknown chunk every decoder
 *   skips, their bytes zeroed) and VP8X stops announcing them, so the RIFF sizes stay true.
 *
 * - MP4 and MOV (ISO base media): the top-level boxes are walked by their headers. Every `udta`
 *   and `meta` box (where `©xyz`, `loci` and Apple's location keys live) and every XMP `uuid` box,
 *   at the top level or at any depth of a `moov`'s containers, becomes a `free` box of the same
 *   size with its contents zeroed, which players skip. No box changes size and no sample byte
 *   changes, so the chunk offsets (`stco`/`co64`) into `mdat` stay right wherever `moov` is.
 *
 * - WebM (Matroska): the EBML elements are walked by their headers, into Segments and Clusters of
 *   known or unknown size (a recorder writes them unknown). `Tags` (where `LOCATION` and any other
 *   text lives) and `Attachments` become `Void` elements of the same size, their contents zeroed;
 *   every other element passes through as it is, so the positions `SeekHead` and `Cues` give hold.
 * - GIF: comment extensions and application extensions other than the looping ones (NETSCAPE2.0,
 *   ANIMEXTS1.0: XMP lives in its own) are dropped; GIF has no offsets, so nothing else changes.
 *   Anything after the trailer is dropped.
 *
 * Only a segment whose metadata is read is held in memory (a JPEG segment is at most 64 KiB, a
 * `moov` at most MOOV_CAP); the rest streams through. A file whose structure cannot be followed is
 * cut where it stops making sense rather than passed on unread: nothing after that point reaches
 * the reader.
 */

/** The stripper of one file: bytes in, bytes out; never throws, never gives more than it was given. */
interface Stripper {
  push(chunk: Uint8Array): Uint8Array[];
  end(): Uint8Array[];
}

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

/**
 * A format's parser: `step` looks at what is pending (the bytes not yet decided on) and answers
 * what to do with its head, or null when it needs more bytes.
 */
type Step =
  | { emit: Uint8Array; consume: number } // give `emit` in place of the first `consume` pending bytes
  | { stream: 'copy' | 'skip' | 'zero'; count: number } // the next `count` bytes: as they are, dropped, or zeroed
  | { rest: 'pass' | 'drop' } // everything from here on: as it is, or nothing
  // The next `count` bytes collected whole (the parser bounds `count`), then given as `by` makes
  // them (no longer than they were), or, when `by` answers null, nothing from there on.
  | { hold: number; by: (whole: Buffer) => Uint8Array | null };
interface Parser {
  step(pending: Buffer): Step | null;
  /** The most bytes `step` may ask to be held before deciding. */
  maxPending: number;
}

/** Runs a parser over a stream: holds at most `maxPending` bytes; any surprise cuts the output there. */
function guarded(parser: Parser): Stripper {
  let pending: Buffer = Buffer.alloc(0);
  let streaming: { mode: 'copy' | 'skip' | 'zero'; count: number } | null = null;
  let rest: 'pass' | 'drop' | null = null;
  let holding: { count: number; have: number; chunks: Buffer[]; by: (whole: Buffer) => Uint8Array | null } | null =
    null;
  const run = (input: Uint8Array): Uint8Array[] => {
    const out: Uint8Array[] = [];
    const chunk = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      if (rest === 'pass') {
        if (pending.length > 0) out.push(pending);
        pending = Buffer.alloc(0);
        return out;
      }
      if (rest === 'drop') {
        pending = Buffer.alloc(0);
        return out;
      }
      if (streaming) {
        const n = Math.min(streaming.count, pending.length);
        if (streaming.mode === 'copy' && n > 0) out.push(pending.subarray(0, n));
        if (streaming.mode === 'zero' && n > 0) out.push(new Uint8Array(n));
        pending = pending.subarray(n);
        streaming.count -= n;
        if (streaming.count > 0) return out;
        streaming = null;
        continue;
      }
      if (holding) {
        const n = Math.min(holding.count - holding.have, pending.length);
        // Copied: the caller may reuse its buffer.
        if (n > 0) holding.chunks.push(Buffer.from(pending.subarray(0, n)));
        holding.have += n;
        pending = pending.subarray(n);
        if (holding.have < holding.count) return out;
        const whole = Buffer.concat(holding.chunks, holding.count);
        const made = holding.by(whole);
        holding = null;
        if (!made || made.length > whole.length) rest = 'drop';
        else if (made.length > 0) out.push(made);
        continue;
      }
      if (pending.length === 0) return out;
      const step = parser.step(pending);
      if (!step) {
        if (pending.length > parser.maxPending) rest = 'drop';
        else return out;
      } else if ('rest' in step) rest = step.rest;
      else if ('stream' in step) streaming = { mode: step.stream, count: step.count };
      else if ('hold' in step) {
        if (!(step.hold > 0)) rest = 'drop';
        else holding = { count: step.hold, have: 0, chunks: [], by: step.by };
      } else {
        if (step.consume <= 0 || step.consume > pending.length || step.emit.length > step.consume) rest = 'drop';
        else {
          if (step.emit.length > 0) out.push(step.emit);
          pending = pending.subarray(step.consume);
        }
      }
    }
  };
  return {
    push(chunk) {
      try {
        const out = run(chunk);
        // What is held back (a segment's head, at most maxPending bytes) is copied: the caller may reuse its buffer.
        pending = Buffer.from(pending);
        return out;
      } catch {
        rest = 'drop';
        return [];
      }
    },
    end() {
      // A file cut short: what was held back undecided (a partial segment or box) is not given.
      pending = Buffer.alloc(0);
      holding = null;
      return [];
    },
  };
}

const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');

// JPEG ----------------------------------------------------------------------------------------

const EXIF_HEADER = 'Exif\0\0';
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

function jpegParser(): Parser {
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

/** The orientation (1-8) in a TIFF structure's first IFD, or null when there is none or the structure is not sound. */
export function exifOrientation(tiff: Uint8Array): number | null {
  const b = Buffer.from(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  if (b.length < 8) return null;
  const order = ascii(b, 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const le = order === 'II';
  const u16 = (at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > b.length) return null;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > b.length) return null;
    // Orientation: a SHORT, one of them, held in the entry itself.
    if (u16(entry) === 0x0112) {
      if (u16(entry + 2) !== 3 || u32(entry + 4) !== 1) return null;
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/** An APP1 segment whose Exif holds the orientation only (big-endian TIFF, one IFD of one entry). */
function orientationOnlyApp1(orientation: number): Uint8Array {
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  // The next IFD's offset: none (zero, already).
  const header = Buffer.alloc(4);
  header[0] = 0xff;
  header[1] = 0xe1;
  header.writeUInt16BE(2 + EXIF_HEADER.length + tiff.length, 2);
  return Buffer.concat([header, Buffer.from(EXIF_HEADER, 'latin1'), tiff]);
}

// PNG -----------------------------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_DROPPED = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt']);

function pngParser(): Parser {
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

// WebP ----------------------------------------------------------------------------------------

/** The VP8X flags announcing EXIF and XMP chunks. */
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

function webpParser(): Parser {
  let started = false;
  /** What follows a chunk's header already given: its data zeroed or copied. */
  let then: Step | null = null;
  return {
    maxPending: 18,
    step(p) {
      if (then) {
        const step = then;
        then = null;
        return step;
      }
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
      if (type === 'EXIF' || type === 'XMP ') {
        const header = Buffer.from(p.subarray(0, 8));
        header.write('JUNK', 0, 'latin1');
        if (padded > 0) then = { stream: 'zero', count: padded };
        return { emit: header, consume: 8 };
      }
      if (type === 'VP8X') {
        if (size < 10) return { rest: 'drop' };
        if (p.length < 18) return null;
        const head = Buffer.from(p.subarray(0, 18));
        head[8] = (head[8] ?? 0) & ~(VP8X_EXIF | VP8X_XMP);
        if (padded > 10) then = { stream: 'copy', count: padded - 10 };
        return { emit: head, consume: 18 };
      }
      return { stream: 'copy', count: 8 + padded };
    },
  };
}

// MP4 and MOV ---------------------------------------------------------------------------------

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

function isoBmffParser(): Parser {
  /** What follows a box's header already given: its contents zeroed. */
  let then: Step | null = null;
  return {
    // A 64-bit box header and a `uuid`'s identifier.
    maxPending: 32,
    step(p) {
      if (then) {
        const step = then;
        then = null;
        return step;
      }
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
          const renamed = Buffer.from(p.subarray(0, head.header));
          renamed.write('free', 4, 'latin1');
          if (size > head.header) then = { stream: 'zero', count: size - head.header };
          return { emit: renamed, consume: head.header };
        }
      }
      // Any other box (`ftyp`, `mdat`, `free`, `moof`...) as it is.
      return size === null ? { rest: 'pass' } : { stream: 'copy', count: size };
    },
  };
}

// WebM ----------------------------------------------------------------------------------------

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

function matroskaParser(): Parser {
  let started = false;
  /** What follows an element's header already given: its contents zeroed. */
  let then: Step | null = null;
  return {
    maxPending: 12,
    step(p) {
      if (then) {
        const step = then;
        then = null;
        return step;
      }
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
      if (MATROSKA_METADATA.has(head.id)) {
        if (head.size > 0) then = { stream: 'zero', count: head.size };
        return { emit: voidHeader(head.header, head.size), consume: head.header };
      }
      return { stream: 'copy', count: head.header + head.size };
    },
  };
}

// GIF -----------------------------------------------------------------------------------------

/** The application extensions kept: the animation's loop count. */
const GIF_KEPT_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);
const GIF_EXTENSION = 0x21;
const GIF_IMAGE = 0x2c;
const GIF_TRAILER = 0x3b;
const GIF_APPLICATION = 0xff;
const GIF_COMMENT = 0xfe;

/** The size of the colour table a packed-fields byte announces. */
const gifColourTable = (flags: number) => (flags & 0x80 ? 3 * (2 << (flags & 0x07)) : 0);

function gifParser(): Parser {
  let started = false;
  /** What follows a block's head already given: its colour table, say. */
  let then: Step | null = null;
  /** Inside a block's data sub-blocks: each given or dropped, to the empty one that ends them. */
  let subBlocks: 'copy' | 'skip' | null = null;
  return {
    // A header with its screen descriptor (13), or an application extension's head with its identifier (14).
    maxPending: 14,
    step(p) {
      if (then) {
        const step = then;
        then = null;
        return step;
      }
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
          then = { rest: 'drop' };
          return { stream: 'copy', count: 1 };
        case GIF_IMAGE: {
          if (p.length < 10) return null;
          // The descriptor, then its colour table and the LZW code size, then the pixels' sub-blocks.
          then = { stream: 'copy', count: gifColourTable(p[9] ?? 0) + 1 };
          subBlocks = 'copy';
          return { stream: 'copy', count: 10 };
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
