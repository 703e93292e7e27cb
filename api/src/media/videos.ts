import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
  bytes: Buffer;
}

export type VideoResult =
  | {
      ok: true;
      width: number;
      height: number;
      durationSeconds: number;
      /** The poster frame, made like any picture (media/images.ts), with its watermarked preview when asked for. */
      poster: { width: number; height: number; placeholder: string; outputs: ImageOutput[]; previews: ImageOutput[] };
      /** Every file of the HLS ladder, each rendition's before the master playlist, which comes last. */
      files: VideoFile[];
    }
  | { ok: false; reason: string };

/** Runs a program with an argument array (no shell), answering its stdout; rejects with its stderr's last line on failure. */
function run(program: string, args: string[], timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else {
        const last = err.trim().split('\n').at(-1) ?? '';
        reject(new Error(`${program} ${signal ? `was stopped (${signal})` : `exited with ${code}`}: ${last}`));
      }
    });
  });
}

interface Probe {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; width?: number; height?: number; tags?: { rotate?: string } }[];
}

/**
 * Probes, then remakes the video in the file `source` with Debian's ffmpeg (driven with argument arrays, never a shell):
 * a poster frame through the picture path, and an HLS ladder in fMP4 segments of
 * SEGMENT_SECONDS with a keyframe at each (360p first, then 720p; none above the source), the
 * master playlist last. The poster is made as `pictures` says (a video for sale's: with its
 * watermarked preview, as a photo for sale's). A file ffprobe does not read as the declared container, without a video
 * stream, or longer than MAX_VIDEO_SECONDS is refused with the reason; nothing of it is made.
 */
export async function processVideo(
  source: string,
  declaredType: string,
  pictures: PictureSet = PAGE_PICTURES,
): Promise<VideoResult> {
  const container = CONTAINERS[declaredType];
  if (!container) return { ok: false, reason: `Files of type ${declaredType} are not accepted` };
  const notIt = { ok: false as const, reason: `This file is not a ${container.label} video` };
  const work = await mkdtemp(join(tmpdir(), 'media-video-'));
  try {
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
        60_000,
      );
      probe = JSON.parse(json.toString()) as Probe;
    } catch (error) {
      // No ffprobe on this machine is ours to fix, not the uploader's: a failed attempt (retried).
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') throw error;
      return notIt;
    }
    const video = probe.streams?.find((stream) => stream.codec_type === 'video');
    const duration = Number(probe.format?.duration);
    if (!container.formats.test(probe.format?.format_name ?? '') || !video?.width || !video.height) return notIt;
    if (!Number.isFinite(duration) || duration <= 0) return notIt;
    if (duration > MAX_VIDEO_SECONDS)
      return {
        ok: false,
        reason: `This video lasts ${Math.round(duration)} s; at most ${MAX_VIDEO_SECONDS} s are accepted`,
      };
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
          ...inputOf(container.demuxer, source),
          '-frames:v',
          '1',
          '-f',
          'image2',
          '-c:v',
          'png',
          'pipe:1',
        ],
        120_000,
      );
    } catch (error) {
      return { ok: false, reason: `This video could not be read (${error instanceof Error ? error.message : ''})` };
    }
    const poster = await processImage(posterPng, 'image/png', pictures);
    if (!poster.ok) return { ok: false, reason: `This video's frames could not be read` };

    // ffmpeg turns frames by the stream's rotation, so the poster's height is the picture's.
    const sourceHeight = poster.height;
    const renditions = RENDITIONS.filter((r, i) => i === 0 || r.height <= sourceHeight).map((r) => ({
      ...r,
      height: Math.min(r.height, sourceHeight - (sourceHeight % 2)),
    }));
    const files: VideoFile[] = [];
    const master = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
    for (const rendition of renditions) {
      const folder = join(work, rendition.name);
      await mkdir(folder);
      // Frame-exact keyframes every SEGMENT_SECONDS (forced, no scene-cut ones), so every segment starts on one.
      const args = [
        '-v',
        'error',
        ...inputOf(container.demuxer, source),
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
        await run('ffmpeg', args, 30 * 60_000);
      } catch (error) {
        return {
          ok: false,
          reason: `This video could not be transcoded (${error instanceof Error ? error.message : ''})`,
        };
      }
      for (const name of (await readdir(folder)).sort()) {
        const contentType = name.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp4';
        files.push({ name: `${rendition.name}/${name}`, contentType, bytes: await readFile(join(folder, name)) });
      }
      const width = Math.round((poster.width * rendition.height) / poster.height / 2) * 2;
      const bandwidth = (rendition.videoKbps * 1.2 + (hasAudio ? 128 : 0)) * 1000;
      master.push(
        `#EXT-X-STREAM-INF:BANDWIDTH=${Math.round(bandwidth)},RESOLUTION=${width}x${rendition.height},CODECS="avc1.4d401f${hasAudio ? ',mp4a.40.2' : ''}"`,
        `${rendition.name}/index.m3u8`,
      );
    }
    // The master playlist last: whoever finds it finds every rendition it names.
    files.push({
      name: 'master.m3u8',
      contentType: 'application/vnd.apple.mpegurl',
      bytes: Buffer.from(`${master.join('\n')}\n`),
    });
    return {
      ok: true,
      width: poster.width,
      height: poster.height,
      durationSeconds: duration,
      poster: {
        width: poster.width,
        height: poster.height,
        placeholder: poster.placeholder,
        outputs: poster.outputs,
        previews: poster.previews,
      },
      files,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
