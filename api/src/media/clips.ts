import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
