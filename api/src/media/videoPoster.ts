import { type ImageOutput, processImage } from './images.js';
import type { PictureSet } from './pictureSets.js';
import type { VideoLimits } from './videoLimits.js';
import { refusedRun, VIDEO_REFUSALS, VideoRefused } from './videoRefusals.js';
import { run } from './videoRun.js';

/** A video's poster frame, made like any picture (media/images.ts), with its watermarked preview when asked for. */
export interface Poster {
  width: number;
  height: number;
  placeholder: string;
  outputs: ImageOutput[];
  previews: ImageOutput[];
}

/** The width and height in a PNG's header (IHDR): of the frame the decoder made. */
const pngSize = (png: Buffer) =>
  png.length >= 24 && png.toString('latin1', 12, 16) === 'IHDR'
    ? { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
    : undefined;

/**
 * The poster: a frame a little in (not the black first one), decoded by `decoder` (stopping its
 * output at `outputSeconds`) as PNG, each side checked against the cap (it is the first frame
 * decoded), then made as `pictures` says through the picture path. Refused (VideoRefused) when
 * there is no such frame or it is too large.
 */
export async function makePoster(
  decoder: string[],
  durationSeconds: number,
  outputSeconds: string,
  pictures: PictureSet,
  limits: VideoLimits,
): Promise<Poster> {
  let png: Buffer;
  try {
    png = await run(
      'ffmpeg',
      [
        '-v',
        'error',
        '-ss',
        String(Math.min(1, durationSeconds / 2)),
        ...decoder,
        '-t',
        outputSeconds,
        '-frames:v',
        '1',
        '-f',
        'image2',
        '-c:v',
        'png',
        'pipe:1',
      ],
      // A PNG of the largest frame allowed, uncompressed, with room for its chunks.
      { deadline: limits.deadline, maxStdoutBytes: limits.maxSide * limits.maxSide * 4 + 1024 * 1024 },
    );
  } catch (error) {
    refusedRun(error, limits.maxSide);
  }
  const frame = pngSize(png);
  if (!frame) throw new VideoRefused(VIDEO_REFUSALS.unreadable, new Error('the poster frame is no PNG'));
  if (frame.width > limits.maxSide || frame.height > limits.maxSide)
    throw new VideoRefused(VIDEO_REFUSALS.tooLarge(limits.maxSide));
  const poster = await processImage(png, 'image/png', pictures);
  if (!poster.ok) throw new VideoRefused(VIDEO_REFUSALS.unreadable, new Error(poster.reason));
  const { width, height, placeholder, outputs, previews } = poster;
  return { width, height, placeholder, outputs, previews };
}
