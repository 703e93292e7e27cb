import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraPhoto } from '../media/clips.js';
import { stripLocationFromBuffer, stripsLocation, withoutLocation } from './stripLocation.js';

/** DEMO_GPS's latitude as the six 32-bit numbers of its rationals, in either byte order. */
const latitudeBytes = (littleEndian: boolean) => {
  const b = Buffer.alloc(24);
  [52, 1, 31, 1, 1234, 100].forEach((n, i) => (littleEndian ? b.writeUInt32LE(n, i * 4) : b.writeUInt32BE(n, i * 4)));
  return b;
};
const hasDemoLocation = (bytes: Buffer) => bytes.includes(latitudeBytes(true)) || bytes.includes(latitudeBytes(false));

/** Everything from the JPEG's start of scan on: the coded pixels (and what follows them). */
const fromScan = (jpeg: Buffer) => {
  const at = jpeg.indexOf(Buffer.from([0xff, 0xda]));
  expect(at).toBeGreaterThan(0);
  return jpeg.subarray(at);
};

/** The file streamed through the stripper in `sizes`-long pieces (repeated), as a download is. */
async function streamed(bytes: Buffer, contentType: string, sizes: number[] = [1]): Promise<Buffer> {
  let at = 0;
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = Math.max(1, sizes[i++ % sizes.length] ?? 1);
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + size)));
      at += size;
    },
  });
  return Buffer.from(await new Response(withoutLocation(body, contentType)).arrayBuffer());
}

let photo: Buffer;
beforeAll(async () => {
  photo = await cameraPhoto({ width: 640, height: 520, seed: 3 });
});

describe('a JPEG original', () => {
  it('loses its EXIF (location and camera) and keeps its coded pixels byte for byte', async () => {
    expect(hasDemoLocation(photo)).toBe(true);
    expect(photo.includes('Seed Camera')).toBe(true);
    const stripped = stripLocationFromBuffer(photo, 'image/jpeg');
    expect(hasDemoLocation(stripped)).toBe(false);
    expect(stripped.includes('Seed Camera')).toBe(false);
    expect(fromScan(stripped).equals(fromScan(photo))).toBe(true);
    const meta = await sharp(stripped).metadata();
    // What is left of its Exif is the orientation alone.
    expect([meta.width, meta.height, meta.orientation, meta.exif?.length, meta.xmp]).toEqual([
      640,
      520,
      1,
      32,
      undefined,
    ]);
    // Decodes to the same pixels.
    const [before, after] = await Promise.all([sharp(photo).raw().toBuffer(), sharp(stripped).raw().toBuffer()]);
    expect(after.equals(before)).toBe(true);
  });

  it('keeps its orientation, and loses XMP (which can hold a location too)', async () => {
    const turned = await sharp(photo)
      .withMetadata({ orientation: 6 })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><exif:GPSLatitude>52,31.2N</exif:GPSLatitude></x:xmpmeta>')
      .jpeg()
      .toBuffer();
    const original = await sharp(turned).metadata();
    expect([original.orientation, original.xmp !== undefined, hasDemoLocation(turned)]).toEqual([6, true, true]);
    const stripped = await streamed(turned, 'image/jpeg', [7, 1, 300]);
    const meta = await sharp(stripped).metadata();
    expect([meta.orientation, meta.xmp]).toEqual([6, undefined]);
    expect(hasDemoLocation(stripped)).toBe(false);
    expect(stripped.includes('GPSLatitude')).toBe(false);
    expect(fromScan(stripped).equals(fromScan(turned))).toBe(true);
  });

  it('is the same streamed in any pieces as whole', async () => {
    const whole = stripLocationFromBuffer(photo, 'image/jpeg');
    for (const sizes of [[1], [2, 3], [4096], [65_536 + 5]]) {
      expect((await streamed(photo, 'image/jpeg', sizes)).equals(whole)).toBe(true);
    }
  });
});

describe('PNG and WebP originals', () => {
  it('lose their EXIF and XMP, pixels unchanged', async () => {
    for (const format of ['png', 'webp'] as const) {
      const made = await sharp(photo)
        .withExif({ IFD0: { Make: 'Demo' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 1234/100' } })
        .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><exif:GPSLatitude>52,31.2N</exif:GPSLatitude></x:xmpmeta>')
        .toFormat(format)
        .toBuffer();
      const before = await sharp(made).metadata();
      expect([format, before.exif !== undefined, before.xmp !== undefined]).toEqual([format, true, true]);
      const stripped = await streamed(made, `image/${format}`, [5, 1000]);
      const after = await sharp(stripped).metadata();
      expect([format, after.exif, after.xmp]).toEqual([format, undefined, undefined]);
      expect([format, hasDemoLocation(stripped), stripped.includes('GPSLatitude')]).toEqual([format, false, false]);
      const [a, b] = await Promise.all([sharp(made).raw().toBuffer(), sharp(stripped).raw().toBuffer()]);
      expect([format, b.equals(a)]).toEqual([format, true]);
    }
  });

  it('other types pass as they are', () => {
    const avif = Buffer.from('....ftypavif +52.52');
    expect(stripLocationFromBuffer(avif, 'image/avif').equals(avif)).toBe(true);
  });
});

/** A JPEG header as a file could have it: SOI, segments (one an Exif APP1 with a GPS IFD holding `secret`), SOS and coded bytes. */
const jpegWithGps = fc
  .record({
    littleEndian: fc.boolean(),
    before: fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 3 }),
    after: fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 3 }),
    orientation: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
    scan: fc.uint8Array({ minLength: 1, maxLength: 500 }),
  })
  .map(({ littleEndian, before, after, orientation, scan }) => {
    const segment = (marker: number, payload: Uint8Array) => {
      const head = Buffer.from([0xff, marker, 0, 0]);
      head.writeUInt16BE(payload.length + 2, 2);
      return Buffer.concat([head, payload]);
    };
    const u16 = (n: number) => {
      const b = Buffer.alloc(2);
      if (littleEndian) b.writeUInt16LE(n);
      else b.writeUInt16BE(n);
      return b;
    };
    const u32 = (n: number) => {
      const b = Buffer.alloc(4);
      if (littleEndian) b.writeUInt32LE(n);
      else b.writeUInt32BE(n);
      return b;
    };
    const entry = (tag: number, type: number, count: number, value: Buffer) =>
      Buffer.concat([u16(tag), u16(type), u32(count), value, Buffer.alloc(4 - value.length)]);
    const ifd0Entries = [...(orientation ? [entry(0x0112, 3, 1, u16(orientation))] : [])];
    const ifd0Size = 2 + (ifd0Entries.length + 1) * 12 + 4;
    const gpsAt = 8 + ifd0Size;
    const tiff = Buffer.concat([
      Buffer.from(littleEndian ? 'II' : 'MM', 'latin1'),
      u16(42),
      u32(8),
      u16(ifd0Entries.length + 1),
      ...ifd0Entries,
      entry(0x8825, 4, 1, u32(gpsAt)),
      u32(0),
      // The GPS IFD: one entry pointing at the latitude's rationals right after it.
      u16(1),
      entry(0x0002, 5, 3, u32(gpsAt + 2 + 12 + 4)),
      u32(0),
      latitudeBytes(littleEndian),
    ]);
    // Other segments' bytes must not pose as 0xFF markers' payload lengths: they are payloads with lengths.
    const app = (payloads: Uint8Array[]) => payloads.map((p) => segment(0xe0, p));
    const coded = Buffer.concat([Buffer.from([0xff, 0xda, 0x00, 0x02]), scan, Buffer.from([0xff, 0xd9])]);
    return {
      file: Buffer.concat([
        Buffer.from([0xff, 0xd8]),
        ...app(before),
        segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff])),
        ...app(after),
        coded,
      ]),
      coded,
      orientation,
    };
  });

describe('the stripper under hostile input', () => {
  const runs = { numRuns: 300, seed: 53 };

  it('always removes the location of a well-formed JPEG, keeps the orientation and the scan', async () => {
    await fc.assert(
      fc.asyncProperty(
        jpegWithGps,
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 5 }),
        async ({ file, coded, orientation }, sizes) => {
          expect(hasDemoLocation(file)).toBe(true);
          const out = await streamed(file, 'image/jpeg', sizes);
          expect(hasDemoLocation(out)).toBe(false);
          expect(out.length).toBeLessThanOrEqual(file.length);
          expect(out.subarray(out.length - coded.length).equals(coded)).toBe(true);
          // Orientation-only Exif (36 bytes) when there was one.
          expect(out.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(orientation !== undefined);
        },
      ),
      runs,
    );
  });

  it('never lets the location through a file cut short', async () => {
    const cut = jpegWithGps.chain(({ file }) =>
      fc.integer({ min: 0, max: file.length }).map((n) => file.subarray(0, n)),
    );
    await fc.assert(
      fc.asyncProperty(
        cut,
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 5 }),
        async (file, sizes) => {
          const out = await streamed(file, 'image/jpeg', sizes);
          expect(hasDemoLocation(out)).toBe(false);
          expect(out.length).toBeLessThanOrEqual(file.length);
        },
      ),
      runs,
    );
  });

  it('never throws, never hangs, never gives more than it got, whatever the bytes', async () => {
    const damaged = fc.oneof(
      // A byte changed anywhere (lengths that lie, markers that are not).
      jpegWithGps.chain(({ file }) =>
        fc.tuple(fc.integer({ min: 0, max: file.length - 1 }), fc.integer({ min: 0, max: 255 })).map(([at, value]) => {
          const copy = Buffer.from(file);
          copy[at] = value;
          return copy;
        }),
      ),
      // Any bytes behind each format's start, and any bytes at all.
      fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.concat([Buffer.from([0xff, 0xd8]), b])),
      fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), b])),
      fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'), b])),
      fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.from(b)),
    );
    await fc.assert(
      fc.asyncProperty(
        damaged,
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 5 }),
        async (file, sizes) => {
          for (const type of ['image/jpeg', 'image/png', 'image/webp']) {
            const out = await streamed(file, type, sizes);
            expect(out.length).toBeLessThanOrEqual(file.length);
            expect(stripLocationFromBuffer(file, type).equals(out)).toBe(true);
          }
        },
      ),
      runs,
    );
  });
});

// Videos --------------------------------------------------------------------------------------

const run = promisify(execFile);
const WHERE = '+52.5200+013.4050';
/** A second of test pattern as a phone would film it: where it was filmed among its metadata. */
const FILMED = {
  /** `moov` (with `udta/loci`, which ffprobe shows as `location`) before `mdat`. */
  faststart: { file: 'faststart.mp4', args: ['-metadata', `location=${WHERE}/`, '-movflags', '+faststart'] },
  /** `moov` after `mdat`, as a camera writes it. */
  moovLast: { file: 'last.mp4', args: ['-metadata', `location=${WHERE}/`] },
  /** Apple's key in `moov/meta`, as an iPhone writes it. */
  quicktime: {
    file: 'phone.mov',
    args: ['-metadata', `com.apple.quicktime.location.ISO6709=${WHERE}+034.000/`, '-movflags', 'use_metadata_tags'],
  },
} as const;
let videoDir: string;
const videos: Partial<Record<keyof typeof FILMED, Buffer>> = {};
const video = (name: keyof typeof FILMED): Buffer => {
  const bytes = videos[name];
  if (!bytes) throw new Error(`no ${name}`);
  return bytes;
};

/** ffprobe's tags of the container and its streams, in one object. */
async function probedTags(bytes: Buffer, name: string): Promise<Record<string, string>> {
  const path = join(videoDir, `probed-${name}`);
  await writeFile(path, bytes);
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format_tags:stream_tags',
    '-of',
    'json',
    path,
  ]);
  const probed = JSON.parse(stdout) as {
    format?: { tags?: Record<string, string> };
    streams?: { tags?: Record<string, string> }[];
  };
  return Object.assign({}, probed.format?.tags, ...(probed.streams ?? []).map((s) => s.tags ?? {}));
}

/** Whether ffmpeg decodes every frame of the file without an error. */
async function decodes(bytes: Buffer, name: string): Promise<boolean> {
  const path = join(videoDir, `decoded-${name}`);
  await writeFile(path, bytes);
  const { stderr } = await run('ffmpeg', ['-v', 'error', '-i', path, '-f', 'null', '-']);
  return stderr.trim() === '';
}

/** The top-level box of type `type` (header included). */
function topLevelBox(bytes: Buffer, type: string): Buffer {
  for (let at = 0; at + 8 <= bytes.length;) {
    const size = bytes.readUInt32BE(at) === 1 ? Number(bytes.readBigUInt64BE(at + 8)) : bytes.readUInt32BE(at);
    if (size < 8) break;
    if (bytes.toString('latin1', at + 4, at + 8) === type) return bytes.subarray(at, at + size);
    at += size;
  }
  throw new Error(`no ${type} box`);
}

/** Where it was filmed, as any of the three writes it: text, Apple's key, or `loci`'s 16.16 numbers. */
const hasFilmingPlace = (bytes: Buffer) => {
  const loci = Buffer.alloc(8);
  loci.writeInt32BE(Math.round(13.405 * 65536), 0);
  loci.writeInt32BE(Math.round(52.52 * 65536), 4);
  return (
    bytes.includes('+52.52') ||
    bytes.includes('com.apple.quicktime.location') ||
    bytes.includes('loci') ||
    bytes.includes(loci.subarray(0, 4)) ||
    bytes.includes(loci.subarray(4))
  );
};

beforeAll(async () => {
  videoDir = await mkdtemp(join(tmpdir(), 'strip-location-'));
  for (const [name, { file, args }] of Object.entries(FILMED)) {
    const path = join(videoDir, file);
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10'],
      ...args,
      ...['-c:v', 'libx264', path],
    ]);
    videos[name as keyof typeof FILMED] = await readFile(path);
  }
}, 60_000);
afterAll(async () => {
  if (videoDir) await rm(videoDir, { recursive: true, force: true });
});

describe('an MP4 or MOV original', () => {
  it('is stripped as every type an upload may have', () => {
    const uploadable = [
      'image/jpeg',
      'image/png',
      'image/webp',
      'image/gif',
      'video/mp4',
      'video/quicktime',
      'video/webm',
    ];
    expect(uploadable.filter((type) => !stripsLocation(type))).toEqual([]);
  });

  for (const name of Object.keys(FILMED) as (keyof typeof FILMED)[]) {
    const type = name === 'quicktime' ? 'video/quicktime' : 'video/mp4';
    it(`loses where it was filmed, same length, samples byte for byte, still plays (${name})`, async () => {
      const original = video(name);
      const before = await probedTags(original, name);
      expect(Object.entries(before).some(([key, value]) => /location/i.test(key) && value.startsWith(WHERE))).toBe(
        true,
      );
      expect(hasFilmingPlace(original)).toBe(true);

      const stripped = await streamed(original, type, [1000, 3, 4096]);
      expect(stripped.equals(stripLocationFromBuffer(original, type))).toBe(true);
      expect(stripped.length).toBe(original.length);
      expect(hasFilmingPlace(stripped)).toBe(false);
      expect(topLevelBox(stripped, 'mdat').equals(topLevelBox(original, 'mdat'))).toBe(true);
      expect(topLevelBox(stripped, 'moov').length).toBe(topLevelBox(original, 'moov').length);

      const after = await probedTags(stripped, name);
      expect(Object.keys(after).filter((key) => /location|ISO6709/i.test(key))).toEqual([]);
      expect(JSON.stringify(after)).not.toContain('+52.52');
      expect(await decodes(stripped, name)).toBe(true);
    });
  }

  it('cuts a moov larger than it holds, and a moov that runs to the end of the file', () => {
    const ftyp = topLevelBox(video('faststart'), 'ftyp');
    const huge = Buffer.concat([
      ftyp,
      Buffer.from([0, 0, 0, 1]),
      Buffer.from('moov'),
      Buffer.alloc(8),
      Buffer.from('secret +52.52'),
    ]);
    huge.writeBigUInt64BE(BigInt(65 * 1024 * 1024), ftyp.length + 8);
    expect(stripLocationFromBuffer(huge, 'video/mp4').equals(ftyp)).toBe(true);
    const open = Buffer.concat([ftyp, Buffer.from([0, 0, 0, 0]), Buffer.from('moov'), Buffer.from('udta +52.52')]);
    expect(stripLocationFromBuffer(open, 'video/mp4').equals(ftyp)).toBe(true);
  });

  it('blanks user data and XMP at the top level, whatever their size field', () => {
    const ftyp = topLevelBox(video('faststart'), 'ftyp');
    const box = (type: string, payload: Buffer) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(8 + payload.length);
      head.write(type, 4, 'latin1');
      return Buffer.concat([head, payload]);
    };
    const xmp = Buffer.concat([
      Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex'),
      Buffer.from('<GPS>+52.52</GPS>'),
    ]);
    const large = Buffer.concat([
      Buffer.from([0, 0, 0, 1]),
      Buffer.from('meta'),
      Buffer.alloc(8),
      Buffer.from('+52.52'),
    ]);
    large.writeBigUInt64BE(BigInt(large.length), 8);
    const file = Buffer.concat([
      ftyp,
      box('udta', Buffer.from('+52.52')),
      box('uuid', xmp),
      large,
      box('mdat', Buffer.from('+52.52 samples')),
    ]);
    const stripped = stripLocationFromBuffer(file, 'video/mp4');
    expect(stripped.length).toBe(file.length);
    // Only the samples still say it (they are not read).
    expect(stripped.toString('latin1').split('+52.52').length - 1).toBe(1);
    expect(topLevelBox(stripped, 'mdat').equals(topLevelBox(file, 'mdat'))).toBe(true);
    expect(stripped.toString('latin1').split('free').length - 1).toBe(3);
  });
});

describe('the MP4 stripper under hostile input', () => {
  const runs = { numRuns: 200, seed: 53 };
  const pieces = fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 5 });
  const anyVideo = fc.constantFrom(...(Object.keys(FILMED) as (keyof typeof FILMED)[]));

  it('never lets the location through a file cut short', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyVideo.chain((name) =>
          fc.integer({ min: 0, max: video(name).length }).map((n) => video(name).subarray(0, n)),
        ),
        pieces,
        async (file, sizes) => {
          const out = await streamed(file, 'video/mp4', sizes);
          expect(hasFilmingPlace(out)).toBe(false);
          expect(out.length).toBeLessThanOrEqual(file.length);
          expect(file.subarray(0, out.length).length).toBe(out.length);
        },
      ),
      runs,
    );
  });

  it('never throws, never hangs, never gives more than it got, whatever the bytes', async () => {
    const ftyp = () => topLevelBox(video('faststart'), 'ftyp');
    const damaged = fc.oneof(
      // Bytes changed anywhere (sizes that lie, 64-bit sizes, zero sizes, types that are not).
      anyVideo.chain((name) =>
        fc
          .array(
            fc.tuple(fc.integer({ min: 0, max: video(name).length - 1 }), fc.constantFrom(0, 1, 0xff, 0x7f, 8, 16)),
            {
              minLength: 1,
              maxLength: 4,
            },
          )
          .map((changes) => {
            const copy = Buffer.from(video(name));
            for (const [at, value] of changes) copy[at] = value;
            return copy;
          }),
      ),
      // Any bytes after an ftyp, and any bytes at all.
      fc.uint8Array({ maxLength: 3000 }).map((b) => Buffer.concat([ftyp(), b])),
      fc.uint8Array({ maxLength: 3000 }).map((b) => Buffer.from(b)),
    );
    await fc.assert(
      fc.asyncProperty(damaged, pieces, async (file, sizes) => {
        for (const type of ['video/mp4', 'video/quicktime']) {
          const out = await streamed(file, type, sizes);
          expect(out.length).toBeLessThanOrEqual(file.length);
          expect(stripLocationFromBuffer(file, type).equals(out)).toBe(true);
        }
      }),
      runs,
    );
  });
});

/** An EBML element: its ID's bytes, its size (null: unknown, in `width` bytes) and its contents. */
function ebml(id: number[], contents: Buffer, { unknownSize = false, width = 8 } = {}): Buffer {
  const size = Buffer.alloc(width, 0xff);
  size[0] = 0xff >> (width - 1);
  if (!unknownSize) {
    let value = BigInt(contents.length);
    for (let i = width - 1; i >= 0; i--) {
      size[i] = Number(value & 0xffn);
      value >>= 8n;
    }
    size[0] = (size[0] ?? 0) | (0x80 >> (width - 1));
  }
  return Buffer.concat([Buffer.from(id), size, contents]);
}

/**
 * Each top-level element of a Segment (Clusters included): where it starts, its ID's bytes and
 * its size field's place, read here independently of the stripper.
 */
function segmentChildren(bytes: Buffer): { at: number; id: string; sizeAt: number; sizeWidth: number; end: number }[] {
  const vint = (at: number) => {
    let width = 1;
    while (width <= 8 && !((bytes[at] ?? 0) & (0x100 >> width))) width++;
    let value = (bytes[at] ?? 0) & (0xff >> width);
    for (let i = 1; i < width; i++) value = value * 256 + (bytes[at + i] ?? 0);
    const unknown = value === 2 ** (7 * width) - 1;
    return { width, value: unknown ? null : value };
  };
  const children = [];
  // The EBML header, then the Segment's header.
  let at = 0;
  for (let level = 0; level < 2; level++) {
    const id = vint(at).width;
    const size = vint(at + id);
    at += id + size.width + (level === 0 ? (size.value ?? 0) : 0);
  }
  while (at < bytes.length) {
    const idWidth = vint(at).width;
    const size = vint(at + idWidth);
    const id = bytes.subarray(at, at + idWidth).toString('hex');
    const end = at + idWidth + size.width + (size.value ?? 0);
    children.push({ at, id, sizeAt: at + idWidth, sizeWidth: size.width, end });
    at = end;
  }
  return children;
}
const TAGS = '1254c367';
const CLUSTER_ID = '1f43b675';

describe('a WebM original', () => {
  const recorded: Partial<Record<'file' | 'piped' | 'recorder', Buffer>> = {};
  const webm = (name: keyof typeof recorded): Buffer => {
    const bytes = recorded[name];
    if (!bytes) throw new Error(`no ${name}`);
    return bytes;
  };
  beforeAll(async () => {
    const args = [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10'],
      ...['-metadata', `location=${WHERE}/`, '-metadata:s:v:0', `location=${WHERE}/`],
      ...['-c:v', 'libvpx', '-b:v', '100k', '-f', 'webm'],
    ];
    // Written to a file, sizes known; and to a pipe, as a live recording: the Segment's size unknown.
    const path = join(videoDir, 'filmed.webm');
    await run('ffmpeg', [...args, path]);
    recorded.file = await readFile(path);
    const piped = await run('sh', ['-c', `ffmpeg ${args.join(' ')} pipe:1 | base64 -w0`], {
      maxBuffer: 1 << 24,
    });
    recorded.piped = Buffer.from(piped.stdout, 'base64');
    // As a browser's recorder writes it: every Cluster of unknown size too; and tags after the
    // last Cluster as well, where an unknown size Cluster ends.
    const children = segmentChildren(recorded.piped);
    const recorder = Buffer.from(recorded.piped);
    for (const child of children.filter((c) => c.id === CLUSTER_ID)) {
      recorder.fill(0xff, child.sizeAt, child.sizeAt + child.sizeWidth);
      recorder[child.sizeAt] = 0xff >> (child.sizeWidth - 1);
    }
    const tags = children.filter((c) => c.id === TAGS).map((c) => recorder.subarray(c.at, c.end));
    expect(tags.length).toBeGreaterThan(0);
    recorded.recorder = Buffer.concat([recorder, ...tags]);
  }, 60_000);

  for (const name of ['file', 'piped', 'recorder'] as const) {
    it(`loses where it was filmed, same length, still plays (${name})`, async () => {
      const original = webm(name);
      expect(original.includes(WHERE)).toBe(true);
      const before = await probedTags(original, `${name}.webm`);
      expect(Object.entries(before).some(([key, value]) => key === 'LOCATION' && value.startsWith(WHERE))).toBe(true);

      const stripped = await streamed(original, 'video/webm', [1000, 3, 4096, 7]);
      expect(stripped.equals(stripLocationFromBuffer(original, 'video/webm'))).toBe(true);
      expect(stripped.length).toBe(original.length);
      expect(stripped.includes('+52.52')).toBe(false);
      // Every Cluster byte for byte, where it was.
      for (const child of segmentChildren(original).filter((c) => c.id === CLUSTER_ID)) {
        expect(stripped.subarray(child.at, child.end).equals(original.subarray(child.at, child.end))).toBe(true);
      }
      const after = await probedTags(stripped, `${name}.webm`);
      expect(Object.keys(after).filter((key) => /location/i.test(key))).toEqual([]);
      expect(await decodes(stripped, `${name}.webm`)).toBe(true);
    });
  }

  it('cuts an element other than a Segment or Cluster claiming an unknown size, and anything not EBML', () => {
    const header = webm('file').subarray(0, segmentChildren(webm('file'))[0]?.at ?? 0);
    const tagsOpen = ebml([0x12, 0x54, 0xc3, 0x67], Buffer.from('+52.52'), { unknownSize: true });
    const file = Buffer.concat([header, tagsOpen]);
    expect(stripLocationFromBuffer(file, 'video/webm').equals(header)).toBe(true);
    expect(stripLocationFromBuffer(Buffer.from('RIFF +52.52'), 'video/webm').length).toBe(0);
  });
});

describe('the WebM stripper under hostile input', () => {
  const runs = { numRuns: 200, seed: 53 };
  const pieces = fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 5 });
  let filmed: Buffer;
  beforeAll(async () => {
    const path = join(videoDir, 'fuzzed.webm');
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10'],
      ...['-metadata', `location=${WHERE}/`, '-c:v', 'libvpx', '-b:v', '50k', path],
    ]);
    filmed = await readFile(path);
  }, 60_000);

  it('never lets the location through a file cut short', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 9000 }), pieces, async (n, sizes) => {
        const file = filmed.subarray(0, Math.min(n, filmed.length));
        const out = await streamed(file, 'video/webm', sizes);
        expect(out.includes('+52.52')).toBe(false);
        expect(out.length).toBeLessThanOrEqual(file.length);
      }),
      runs,
    );
  });

  it('never throws, never gives more than it got, whatever the bytes', async () => {
    const damaged = fc.oneof(
      fc
        .array(fc.tuple(fc.nat(), fc.constantFrom(0, 1, 0xff, 0x7f, 0x80, 0x01)), { minLength: 1, maxLength: 4 })
        .map((changes) => {
          const copy = Buffer.from(filmed);
          for (const [at, value] of changes) copy[at % copy.length] = value;
          return copy;
        }),
      fc.uint8Array({ maxLength: 3000 }).map((b) => Buffer.concat([filmed.subarray(0, 40), b])),
      fc.uint8Array({ maxLength: 3000 }).map((b) => Buffer.from(b)),
    );
    await fc.assert(
      fc.asyncProperty(damaged, pieces, async (file, sizes) => {
        const out = await streamed(file, 'video/webm', sizes);
        expect(out.length).toBeLessThanOrEqual(file.length);
        expect(stripLocationFromBuffer(file, 'video/webm').equals(out)).toBe(true);
      }),
      runs,
    );
  });
});

/** GIF blocks written here: an extension of `label` with `data` in sub-blocks. */
function gifExtension(label: number, data: Buffer, identifier?: string): Buffer {
  const blocks: Buffer[] = [Buffer.from([0x21, label])];
  if (identifier !== undefined) blocks.push(Buffer.from([identifier.length]), Buffer.from(identifier, 'latin1'));
  for (let at = 0; at < data.length; at += 255) {
    const piece = data.subarray(at, at + 255);
    blocks.push(Buffer.from([piece.length]), piece);
  }
  blocks.push(Buffer.from([0]));
  return Buffer.concat(blocks);
}
const XMP_WITH_PLACE = Buffer.from(
  `<x:xmpmeta xmlns:x="adobe:ns:meta/"><exif:GPSLatitude>52,31.2N +52.52</exif:GPSLatitude>${'.'.repeat(400)}</x:xmpmeta>`,
);

describe('a GIF original', () => {
  let animated: Buffer;
  let tagged: Buffer;
  beforeAll(async () => {
    const frames = await Promise.all(
      ['red', 'blue'].map((background) =>
        sharp({ create: { width: 40, height: 30, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    animated = await sharp(frames, { join: { animated: true } })
      .gif({ loop: 3 })
      .toBuffer();
    // A comment and an XMP packet where a tool writes them (after the colour table, before the
    // first frame) and after the frames; and bytes after the trailer.
    const flags = animated[10] ?? 0;
    const afterTable = 13 + (flags & 0x80 ? 3 * (2 << (flags & 7)) : 0);
    const trailer = animated.lastIndexOf(0x3b);
    tagged = Buffer.concat([
      animated.subarray(0, afterTable),
      gifExtension(0xfe, Buffer.from('Taken at +52.52')),
      gifExtension(0xff, XMP_WITH_PLACE, 'XMP DataXMP'),
      animated.subarray(afterTable, trailer),
      gifExtension(0xff, XMP_WITH_PLACE, 'XMP DataXMP'),
      animated.subarray(trailer),
      Buffer.from('+52.52'),
    ]);
  });

  it('loses its comments and XMP, keeps its frames and its loop', async () => {
    expect(tagged.includes('+52.52')).toBe(true);
    const before = await sharp(tagged, { pages: -1 }).metadata();
    expect([before.pages, before.loop]).toEqual([2, 3]);

    const stripped = await streamed(tagged, 'image/gif', [1, 7, 300]);
    expect(stripped.equals(stripLocationFromBuffer(tagged, 'image/gif'))).toBe(true);
    expect(stripped.includes('+52.52')).toBe(false);
    expect(stripped.includes('XMP DataXMP')).toBe(false);
    // What sharp wrote, untouched: nothing of it was metadata.
    expect(stripped.equals(animated)).toBe(true);
    const after = await sharp(stripped, { pages: -1 }).metadata();
    expect([after.pages, after.loop]).toEqual([2, 3]);
    const [a, b] = await Promise.all([
      sharp(tagged, { pages: -1 }).raw().toBuffer(),
      sharp(stripped, { pages: -1 }).raw().toBuffer(),
    ]);
    expect(b.equals(a)).toBe(true);
  });

  it('under hostile input: never leaks through a cut, never throws, never gives more than it got', async () => {
    const runs = { numRuns: 200, seed: 53 };
    const pieces = fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: tagged.length }), pieces, async (n, sizes) => {
        const out = await streamed(tagged.subarray(0, n), 'image/gif', sizes);
        expect(out.includes('+52.52')).toBe(false);
      }),
      runs,
    );
    const damaged = fc.oneof(
      fc
        .array(fc.tuple(fc.nat(), fc.constantFrom(0, 0x21, 0xff, 0xfe, 0x2c, 0x3b, 11)), { minLength: 1, maxLength: 4 })
        .map((changes) => {
          const copy = Buffer.from(tagged);
          for (const [at, value] of changes) copy[at % copy.length] = value;
          return copy;
        }),
      fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.concat([Buffer.from('GIF89a'), b])),
    );
    await fc.assert(
      fc.asyncProperty(damaged, pieces, async (file, sizes) => {
        const out = await streamed(file, 'image/gif', sizes);
        expect(out.length).toBeLessThanOrEqual(file.length);
        expect(stripLocationFromBuffer(file, 'image/gif').equals(out)).toBe(true);
      }),
      runs,
    );
  });
});
