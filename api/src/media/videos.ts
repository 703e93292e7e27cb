import { PAGE_PICTURES, type PictureSet } from './pictureSets.js';
import { SEGMENT_SECONDS, transcodeLadder, type VideoFile } from './videoLadder.js';
import { defaultVideoLimits, type VideoLimits } from './videoLimits.js';
import { makePoster, type Poster } from './videoPoster.js';
import { CONTAINERS, decoderOf, probeVideo } from './videoProbe.js';
import { VideoRefused } from './videoRefusals.js';
import { RunFailed } from './videoRun.js';

export type VideoResult =
  | {
      ok: true;
      width: number;
      height: number;
      /** As the decoder made it: the sum of the segments' lengths, never the header's claim. */
      durationSeconds: number;
      /** The poster frame, with its watermarked preview when asked for. */
      poster: Poster;
      /** Every file of the HLS ladder, each rendition's before the master playlist, which comes last. */
      files: VideoFile[];
    }
  | { ok: false; reason: string };

/**
 * Probes, then remakes the video in the file `source` with Debian's ffmpeg (driven with argument
 * arrays, never a shell) into `work` (a folder the caller owns and removes): a poster frame through
 * the picture path (media/videoPoster.ts), and an HLS ladder (media/videoLadder.ts). The poster is
 * made as `pictures` says (a video for sale's: with its watermarked preview, as a photo for sale's).
 *
 * The header's length and size are only a first, cheap refusal (media/videoProbe.ts): a file can
 * declare 1 s and hold an hour. So the limits are measured on what the decoder makes:
 * - length: every run stops its output at `-t` (the cap plus one segment), so no file makes more;
 *   the segments' lengths the muxer wrote (EXTINF) are then summed, and a ladder longer than the cap
 *   is refused. That sum is the duration recorded.
 * - picture size: the decoders run with `-max_pixels` at the cap's area, so a frame above it is
 *   refused by the decoder itself (at any point of the stream, not only the header's first); the
 *   poster frame, the first decoded, has each side checked against the cap too. The renditions are
 *   scaled to a fixed height whatever the frames' size.
 * - output: the ladder is written to disk, watched while ffmpeg writes, and ffmpeg is killed once
 *   it passes `maxOutputBytes`; nothing of it is held in memory here (the caller reads one file at
 *   a time as it stores it). stdout (the probe, the poster) is capped, stderr kept as a tail.
 * - time: every run is killed at `deadline`.
 * A refused file gets one of VIDEO_REFUSALS; ffmpeg's own message is logged, never shown.
 */
export async function processVideo(
  source: string,
  declaredType: string,
  work: string,
  pictures: PictureSet = PAGE_PICTURES,
  limits: VideoLimits = defaultVideoLimits(Date.now() + 50 * 60_000),
): Promise<VideoResult> {
  const container = CONTAINERS[declaredType];
  if (!container) return { ok: false, reason: `Files of type ${declaredType} are not accepted` };
  const decoder = decoderOf(container, source, limits);
  const outputSeconds = String(limits.maxSeconds + SEGMENT_SECONDS);
  try {
    const { durationSeconds, hasAudio } = await probeVideo(source, container, limits);
    const poster = await makePoster(decoder, durationSeconds, outputSeconds, pictures, limits);
    // ffmpeg turns frames by the stream's rotation, so the poster's size is the picture's.
    const ladder = await transcodeLadder(
      { decoder, outputSeconds, width: poster.width, height: poster.height, hasAudio },
      work,
      limits,
    );
    return {
      ok: true,
      width: poster.width,
      height: poster.height,
      durationSeconds: ladder.durationSeconds,
      poster,
      files: ladder.files,
    };
  } catch (error) {
    if (!(error instanceof VideoRefused)) throw error;
    if (error.detail !== undefined) {
      const { detail } = error;
      const said = detail instanceof RunFailed ? `${detail.message}: ${detail.stderr.trim()}` : String(detail);
      console.error(`[media] a ${container.label} video was refused (${error.reason}): ${said}`);
    }
    return { ok: false, reason: error.reason };
  }
}
