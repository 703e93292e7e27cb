import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ImageOutput, PAGE_PICTURES, type PictureSet, processImage } from './images.js';

/** The renditions made of a video, smallest first (it is ready first); none taller than the source. */
export const RENDITIONS = [
  { name: '360p', height: 360, videoKbps: 800 },
  { name: '720p', height: 720, videoKbps: 2800 },
] as const;
/** Each HLS segment's length, and so the keyframe interval (a segment starts on one). */
export const SEGMENT_SECONDS = 2;
/** The longest video accepted (a preview of an event's work, not the whole film). */
export const MAX_VIDEO_SECONDS = 15 * 60;

/** What ffprobe reports of each declared type's container (its `format_name`). */
const CONTAINERS: Record<string, { formats: RegExp; label: string; demuxer: string }> = {
  'video/mp4': { formats: /(^|,)mp4(,|$)/, label: 'MP4', demuxer: 'mov' },
  'video/quicktime': { formats: /(^|,)mov(,|$)/, label: 'MOV', demuxer: 'mov' },
  'video/webm': { formats: /(^|,)webm(,|$)/, label: 'WebM', demuxer: 'matroska' },
};

/**
 * How ffmpeg and ffprobe open the upload: with the declared container's demuxer only (never one
 * they would guess from the bytes, such as a playlist naming other files) and the local file
 * protocol only.
 */
const inputOf = (demuxer: string, source: string) => ['-protocol_whitelist', 'file', '-f', demuxer, '-i', source];

export interface VideoFile {
  /** Its path within the video's folder, e.g. '360p/seg001.m4s' or 'master.m3u8'. */
  name: string;
  contentType: string;
  /** Where it was written, in the caller's work folder: read one file at a time as it is stored. */
  path: string;
}

/** The largest side of a video's picture: 4096 takes 4K (DCI 4096 x 2160, and UHD upright) and nothing an event is filmed in beyond it. */
export const MAX_VIDEO_SIDE = 4096;

/**
 * What a video may cost, measured while it is decoded rather than read from its header (which a
 * file can make say anything): its length, the size of its frames, the bytes its ladder takes,
 * and the moment by which every ffmpeg run over it has ended.
 */
export interface VideoLimits {
  maxSeconds: number;
  maxSide: number;
  maxOutputBytes: number;
  /** Epoch ms: every run is killed by then (the caller's job must end before its queue's expiry). */
  deadline: number;
}

/**
 * The ladder's bytes for the longest video at every rendition's peak rate (plus audio), with room
 * for containers and rate-control overshoot: more than this is no honest video's output.
 */
const maxLadderBytes = (seconds: number) =>
  Math.ceil(((RENDITIONS.reduce((sum, r) => sum + r.videoKbps * 1.2 + 128, 0) * 1000) / 8) * seconds * 1.5);

export const defaultVideoLimits = (deadline: number): VideoLimits => ({
  maxSeconds: MAX_VIDEO_SECONDS,
  maxSide: MAX_VIDEO_SIDE,
  maxOutputBytes: maxLadderBytes(MAX_VIDEO_SECONDS),
  deadline,
});

/**
 * What the uploader reads when a video is refused: the product's own words, never ffmpeg's
 * (whose messages name temporary paths); the raw error is logged on the server.
 */
export const VIDEO_REFUSALS = {
  unreadable: 'This file is not a readable video.',
  tooLong: (seconds: number) =>
    `This video is longer than ${seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`}.`,
  tooLarge: (side: number) => `This video's picture is too large (at most ${side} x ${side} pixels).`,
  tooMuch: 'This video makes more data than we accept.',
  tooSlow: 'This video took too long to process.',
} as const;

export type VideoResult =
  | {
      ok: true;
      width: number;
      height: number;
      /** As the decoder made it: the sum of the segments' lengths, never the header's claim. */
      durationSeconds: number;
      /** The poster frame, made like any picture (media/images.ts), with its watermarked preview when asked for. */
      poster: { width: number; height: number; placeholder: string; outputs: ImageOutput[]; previews: ImageOutput[] };
      /** Every file of the HLS ladder, each rendition's before the master playlist, which comes last. */
      files: VideoFile[];
    }
  | { ok: false; reason: string };

/** Why a run was stopped by us rather than ending on its own. */
class RunStopped extends Error {
  constructor(
    readonly why: 'time' | 'output',
    program: string,
  ) {
    super(`${program} was stopped: ${why === 'time' ? 'past its deadline' : 'too much output'}`);
  }
}

/** A run that failed on its own: `stderr` is the bounded tail of what it said (for the log, never the uploader). */
class RunFailed extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    /** A decoder refused a frame for its size: looked for in all it said, not only the tail. */
    readonly pictureTooLarge: boolean,
  ) {
    super(message);
  }
}

/** ffmpeg's own words when a frame is larger than `-max_pixels` lets its decoder make (or than it makes at all). */
const PICTURE_TOO_LARGE = /Picture size \d+x\d+ (?:exceeds specified max pixel count|is invalid)/;

/** The tail of stderr kept: enough for the log, bounded whatever a file makes ffmpeg print. */
const STDERR_TAIL_CHARS = 4000;

/**
 * Runs a program with an argument array (no shell), answering its stdout; killed (RunStopped)
 * at `deadline`, when its stdout passes `maxStdoutBytes`, or when `outputSize` (what it wrote to
 * disk, looked at every quarter second) passes `maxOutputBytes`. stderr is kept as a bounded tail.
 */
function run(
  program: string,
  args: string[],
  limits: { deadline: number; maxStdoutBytes: number; outputSize?: () => Promise<number>; maxOutputBytes?: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let pictureTooLarge = false;
    let stopped: RunStopped | undefined;
    const stop = (why: 'time' | 'output') => {
      stopped ??= new RunStopped(why, program);
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > limits.maxStdoutBytes) return stop('output');
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-STDERR_TAIL_CHARS);
      pictureTooLarge ||= PICTURE_TOO_LARGE.test(err);
    });
    const timer = setTimeout(() => stop('time'), Math.max(0, limits.deadline - Date.now()));
    const { outputSize, maxOutputBytes } = limits;
    const watch =
      outputSize && maxOutputBytes !== undefined
        ? setInterval(() => {
            outputSize().then(
              (size) => size > maxOutputBytes && stop('output'),
              () => undefined,
            );
          }, 250)
        : undefined;
    const end = () => {
      clearTimeout(timer);
      clearInterval(watch);
    };
    child.once('error', (error) => {
      end();
      reject(error);
    });
    child.once('close', (code, signal) => {
      end();
      if (stopped) reject(stopped);
      else if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new RunFailed(
            `${program} ${signal ? `was stopped (${signal})` : `exited with ${code}`}`,
            err,
            pictureTooLarge,
          ),
        );
    });
  });
}

/** The bytes of every file under `folder` (the ladder being written). */
async function sizeOf(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
  return total;
}

/** The width and height in a PNG's header (IHDR): of the frame the decoder made. */
const pngSize = (png: Buffer) =>
  png.length >= 24 && png.toString('latin1', 12, 16) === 'IHDR'
    ? { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
    : undefined;

/** A media playlist's length: the sum of its segments' EXTINF, as the muxer measured them. */
const playlistSeconds = (text: string) =>
  [...text.matchAll(/^#EXTINF:([\d.]+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);

interface Probe {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; width?: number; height?: number; tags?: { rotate?: string } }[];
}

/**
 * Probes, then remakes the video in the file `source` with Debian's ffmpeg (driven with argument
 * arrays, never a shell) into `work` (a folder the caller owns and removes): a poster frame through
 * the picture path, and an HLS ladder in fMP4 segments of SEGMENT_SECONDS with a keyframe at each
 * (360p first, then 720p; none above the source), the master playlist last. The poster is made as
 * `pictures` says (a video for sale's: with its watermarked preview, as a photo for sale's).
 *
 * The header's length and size are only a first, cheap refusal: a file can declare 1 s and hold
 * an hour. So the limits are measured on what the decoder makes:
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
  const refuse = (reason: string, error?: unknown) => {
    if (error !== undefined) {
      const detail = error instanceof RunFailed ? `${error.message}: ${error.stderr.trim()}` : String(error);
      console.error(`[media] a ${container.label} video was refused (${reason}): ${detail}`);
    }
    return { ok: false as const, reason };
  };
  /** What stopped a run, in the uploader's words; a missing program is ours to fix (thrown: retried). */
  const reasonOf = (error: unknown) => {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') throw error;
    if (error instanceof RunStopped) return error.why === 'time' ? VIDEO_REFUSALS.tooSlow : VIDEO_REFUSALS.tooMuch;
    if (error instanceof RunFailed && error.pictureTooLarge) return VIDEO_REFUSALS.tooLarge(limits.maxSide);
    return VIDEO_REFUSALS.unreadable;
  };
  // Every decoder of the upload: no frame above the cap's area is made.
  const decode = ['-max_pixels', String(limits.maxSide * limits.maxSide), ...inputOf(container.demuxer, source)];
  const outputSeconds = String(limits.maxSeconds + SEGMENT_SECONDS);

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
    return refuse(reasonOf(error), error);
  }
  const video = probe.streams?.find((stream) => stream.codec_type === 'video');
  const duration = Number(probe.format?.duration);
  if (!container.formats.test(probe.format?.format_name ?? '') || !video?.width || !video.height)
    return refuse(VIDEO_REFUSALS.unreadable);
  if (!Number.isFinite(duration) || duration <= 0) return refuse(VIDEO_REFUSALS.unreadable);
  // The header's claims, refused at once when they already say too much (the decoder checks the rest).
  if (duration > limits.maxSeconds) return refuse(VIDEO_REFUSALS.tooLong(limits.maxSeconds));
  if (video.width > limits.maxSide || video.height > limits.maxSide)
    return refuse(VIDEO_REFUSALS.tooLarge(limits.maxSide));
  const hasAudio = probe.streams?.some((stream) => stream.codec_type === 'audio') ?? false;

  // The poster: a frame a little in (not the black first one), as PNG, then the picture path.
  let posterPng: Buffer;
  try {
    posterPng = await run(
      'ffmpeg',
      [
        '-v',
        'error',
        '-ss',
        String(Math.min(1, duration / 2)),
        ...decode,
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
    return refuse(reasonOf(error), error);
  }
  const frame = pngSize(posterPng);
  if (!frame) return refuse(VIDEO_REFUSALS.unreadable, new Error('the poster frame is no PNG'));
  if (frame.width > limits.maxSide || frame.height > limits.maxSide)
    return refuse(VIDEO_REFUSALS.tooLarge(limits.maxSide));
  const poster = await processImage(posterPng, 'image/png', pictures);
  if (!poster.ok) return refuse(VIDEO_REFUSALS.unreadable, new Error(poster.reason));

  // ffmpeg turns frames by the stream's rotation, so the poster's height is the picture's.
  const sourceHeight = poster.height;
  const renditions = RENDITIONS.filter((r, i) => i === 0 || r.height <= sourceHeight).map((r) => ({
    ...r,
    height: Math.min(r.height, sourceHeight - (sourceHeight % 2)),
  }));
  const files: VideoFile[] = [];
  const master = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  const ladder = join(work, 'ladder');
  await mkdir(ladder);
  let measured = 0;
  for (const rendition of renditions) {
    const folder = join(ladder, rendition.name);
    await mkdir(folder);
    // Frame-exact keyframes every SEGMENT_SECONDS (forced, no scene-cut ones), so every segment starts on one.
    const args = [
      '-v',
      'error',
      ...decode,
      '-t',
      outputSeconds,
      '-map',
      '0:v:0',
      ...(hasAudio ? ['-map', '0:a:0'] : []),
      '-vf',
      `scale=-2:${rendition.height}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-profile:v',
      'main',
      '-pix_fmt',
      'yuv420p',
      '-b:v',
      `${rendition.videoKbps}k`,
      '-maxrate',
      `${Math.round(rendition.videoKbps * 1.2)}k`,
      '-bufsize',
      `${rendition.videoKbps * 2}k`,
      '-force_key_frames',
      `expr:gte(t,n_forced*${SEGMENT_SECONDS})`,
      '-sc_threshold',
      '0',
      ...(hasAudio ? ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : []),
      '-f',
      'hls',
      '-hls_time',
      String(SEGMENT_SECONDS),
      '-hls_playlist_type',
      'vod',
      '-hls_segment_type',
      'fmp4',
      '-hls_fmp4_init_filename',
      'init.mp4',
      '-hls_segment_filename',
      join(folder, 'seg%03d.m4s'),
      join(folder, 'index.m3u8'),
    ];
    try {
      await run('ffmpeg', args, {
        deadline: limits.deadline,
        maxStdoutBytes: 0,
        outputSize: () => sizeOf(ladder),
        maxOutputBytes: limits.maxOutputBytes,
      });
    } catch (error) {
      return refuse(reasonOf(error), error);
    }
    // Between two looks at the folder ffmpeg may have written a little more: counted once more whole.
    if ((await sizeOf(ladder)) > limits.maxOutputBytes) return refuse(VIDEO_REFUSALS.tooMuch);
    const seconds = playlistSeconds(await readFile(join(folder, 'index.m3u8'), 'latin1'));
    if (seconds > limits.maxSeconds) return refuse(VIDEO_REFUSALS.tooLong(limits.maxSeconds));
    measured = Math.max(measured, seconds);
    for (const name of (await readdir(folder)).sort()) {
      const contentType = name.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp4';
      files.push({ name: `${rendition.name}/${name}`, contentType, path: join(folder, name) });
    }
    const width = Math.round((poster.width * rendition.height) / poster.height / 2) * 2;
    const bandwidth = (rendition.videoKbps * 1.2 + (hasAudio ? 128 : 0)) * 1000;
    master.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${Math.round(bandwidth)},RESOLUTION=${width}x${rendition.height},CODECS="avc1.4d401f${hasAudio ? ',mp4a.40.2' : ''}"`,
      `${rendition.name}/index.m3u8`,
    );
  }
  // The master playlist last: whoever finds it finds every rendition it names.
  const masterPath = join(ladder, 'master.m3u8');
  await writeFile(masterPath, `${master.join('\n')}\n`);
  files.push({ name: 'master.m3u8', contentType: 'application/vnd.apple.mpegurl', path: masterPath });
  return {
    ok: true,
    width: poster.width,
    height: poster.height,
    durationSeconds: measured,
    poster: {
      width: poster.width,
      height: poster.height,
      placeholder: poster.placeholder,
      outputs: poster.outputs,
      previews: poster.previews,
    },
    files,
  };
}
