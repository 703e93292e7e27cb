import { VIDEO_REFUSALS, VideoRefused, refusedRun } from './videoRefusals.js';
import type { VideoLimits } from './videoLimits.js';
import { run } from './videoRun.js';

/** An accepted type's container: what ffprobe reports of it (its `format_name`), its name in words, and the demuxer that opens it. */
export interface Container {
  formats: RegExp;
  label: string;
  demuxer: string;
}

/** The containers accepted, by declared type. */
export const CONTAINERS: Record<string, Container> = {
  'video/mp4': { formats: /(^|,)mp4(,|$)/, label: 'MP4', demuxer: 'mov' },
  'video/quicktime': { formats: /(^|,)mov(,|$)/, label: 'MOV', demuxer: 'mov' },
  'video/webm': { formats: /(^|,)webm(,|$)/, label: 'WebM', demuxer: 'matroska' },
};

/**
 * How ffmpeg opens the upload: with the declared container's demuxer only (never one it would
 * guess from the bytes, such as a playlist naming other files) and the local file protocol only;
 * and, as every decoder of the upload, making no frame above the cap's area.
 */
export const decoderOf = (container: Container, source: string, limits: VideoLimits): string[] => [
  '-max_pixels',
  String(limits.maxSide * limits.maxSide),
  '-protocol_whitelist',
  'file',
  '-f',
  container.demuxer,
  '-i',
  source,
];

interface Probe {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; width?: number; height?: number; tags?: { rotate?: string } }[];
}

/** What the header says of a video the probe accepted. */
export interface Probed {
  durationSeconds: number;
  hasAudio: boolean;
}

/**
 * Reads the video's header with ffprobe (opened as `decoderOf` opens it) and refuses (VideoRefused)
 * a file that is not the declared container with a picture, or whose header already claims more
 * than the limits: a first, cheap refusal, since a header can say anything (the decoder checks the rest).
 */
export async function probeVideo(source: string, container: Container, limits: VideoLimits): Promise<Probed> {
  let probe: Probe;
  try {
    const json = await run(
      'ffprobe',
      [
        '-v',
        'error',
        '-print_format',
        'json',
        '-show_format',
        '-show_streams',
        '-protocol_whitelist',
        'file',
        '-f',
        container.demuxer,
        source,
      ],
      { deadline: limits.deadline, maxStdoutBytes: 1024 * 1024 },
    );
    probe = JSON.parse(json.toString()) as Probe;
  } catch (error) {
    refusedRun(error, limits.maxSide);
  }
  const video = probe.streams?.find((stream) => stream.codec_type === 'video');
  const duration = Number(probe.format?.duration);
  if (!container.formats.test(probe.format?.format_name ?? '') || !video?.width || !video.height)
    throw new VideoRefused(VIDEO_REFUSALS.unreadable);
  if (!Number.isFinite(duration) || duration <= 0) throw new VideoRefused(VIDEO_REFUSALS.unreadable);
  if (duration > limits.maxSeconds) throw new VideoRefused(VIDEO_REFUSALS.tooLong(limits.maxSeconds));
  if (video.width > limits.maxSide || video.height > limits.maxSide)
    throw new VideoRefused(VIDEO_REFUSALS.tooLarge(limits.maxSide));
  return {
    durationSeconds: duration,
    hasAudio: probe.streams?.some((stream) => stream.codec_type === 'audio') ?? false,
  };
}
