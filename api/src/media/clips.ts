import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
