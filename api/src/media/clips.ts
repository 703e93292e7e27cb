import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { gradientPng } from '../db/png.js';

/**
 * A short clip as a phone records one, made by Debian's ffmpeg: a moving test picture with a
 * tone, H.264 and AAC in MP4. For the tests (and demo data) that need a real video.
 */
export function syntheticClip({ width, height, seconds }: { width: number; height: number; seconds: number }): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'media-clip-'));
  try {
    const file = join(dir, 'clip.mp4');
    const made = spawnSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${width}x${height}:rate=30`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440',
      '-t',
      String(seconds),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      file,
    ]);
    if (made.status !== 0) throw new Error(`ffmpeg could not make a clip: ${String(made.stderr || made.error)}`);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where the demo's photos say they were taken (a riverside park): the position the media job must not pass on. */
export const DEMO_GPS = { latitude: '52/1 31/1 1234/100', longitude: '13/1 24/1 3456/100' } as const;

/** Whether `bytes` hold DEMO_GPS's latitude as EXIF stores it: its six 32-bit numbers, in either byte order. */
export const hasDemoLocation = (bytes: Buffer): boolean =>
  [true, false].some((littleEndian) => {
    const b = Buffer.alloc(24);
    [52, 1, 31, 1, 1234, 100].forEach((n, i) => (littleEndian ? b.writeUInt32LE(n, i * 4) : b.writeUInt32BE(n, i * 4)));
    return bytes.includes(b);
  });

/** A JPEG's coded pixels: everything from its start of scan on (what removing metadata must not touch). */
export const jpegScan = (jpeg: Buffer): Buffer => jpeg.subarray(jpeg.indexOf(Buffer.from([0xff, 0xda])));

/**
 * A photo as a camera writes one: JPEG at quality 90 with grain (a flat picture compresses unlike
 * a photo: a 4000 x 2667 frame is about 2 MB) and EXIF naming the camera and, as a phone's does,
 * where it was taken (GPS). For the demo data and tests: what the media job must strip.
 */
export async function cameraPhoto({ width, height, seed }: { width: number; height: number; seed: number }) {
  // A small tile of grain repeated (a frame's worth of noise takes seconds to make).
  const grain = await sharp({
    create: {
      width: 509,
      height: 509,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 20 },
    },
  })
    .png()
    .toBuffer();
  return sharp(gradientPng(Math.ceil(width / 8), Math.ceil(height / 8), seed))
    .resize(width, height)
    .composite([{ input: grain, tile: true, blend: 'soft-light' }])
    .withExif({
      IFD0: { Make: 'Demo', Model: 'Seed Camera 24' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: DEMO_GPS.latitude,
        GPSLongitudeRef: 'E',
        GPSLongitude: DEMO_GPS.longitude,
      },
    })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A PNG whose header declares `width` x `height` (valid CRCs), with a few bytes of pixels: a decompression bomb's header. */
export function pngDeclaring(width: number, height: number): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = (table[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(4096))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
