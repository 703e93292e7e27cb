import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RENDITIONS, type VideoLimits } from './videoLimits.js';
import { refusedRun, VIDEO_REFUSALS, VideoRefused } from './videoRefusals.js';
import { run } from './videoRun.js';

/** Each HLS segment's length, and so the keyframe interval (a segment starts on one). */
export const SEGMENT_SECONDS = 2;

export interface VideoFile {
  /** Its path within the video's folder, e.g. '360p/seg001.m4s' or 'master.m3u8'. */
  name: string;
  contentType: string;
  /** Where it was written, in the caller's work folder: read one file at a time as it is stored. */
  path: string;
}

/** The bytes of every file under `folder` (the ladder being written). */
async function sizeOf(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
  return total;
}

/** A media playlist's length: the sum of its segments' EXTINF, as the muxer measured them. */
const playlistSeconds = (text: string) =>
  [...text.matchAll(/^#EXTINF:([\d.]+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);

/** What the ladder is made of: the upright picture's size (the poster's) and whether there is sound. */
export interface LadderSource {
  decoder: string[];
  outputSeconds: string;
  width: number;
  height: number;
  hasAudio: boolean;
}

/**
 * Transcodes the video into an HLS ladder under `work`/ladder: fMP4 segments of SEGMENT_SECONDS
 * with a keyframe at each, 360p first, then 720p (none above the source), the master playlist last.
 * Refused (VideoRefused) when a run fails or is stopped, when the ladder passes `maxOutputBytes`
 * (watched while ffmpeg writes) or when its segments' lengths sum past `maxSeconds`. Answers the
 * files and the length measured.
 */
export async function transcodeLadder(
  source: LadderSource,
  work: string,
  limits: VideoLimits,
): Promise<{ files: VideoFile[]; durationSeconds: number }> {
  const { decoder, outputSeconds, hasAudio } = source;
  const sourceHeight = source.height;
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
      ...decoder,
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
      refusedRun(error, limits.maxSide);
    }
    // Between two looks at the folder ffmpeg may have written a little more: counted once more whole.
    if ((await sizeOf(ladder)) > limits.maxOutputBytes) throw new VideoRefused(VIDEO_REFUSALS.tooMuch);
    const seconds = playlistSeconds(await readFile(join(folder, 'index.m3u8'), 'latin1'));
    if (seconds > limits.maxSeconds) throw new VideoRefused(VIDEO_REFUSALS.tooLong(limits.maxSeconds));
    measured = Math.max(measured, seconds);
    for (const name of (await readdir(folder)).sort()) {
      const contentType = name.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp4';
      files.push({ name: `${rendition.name}/${name}`, contentType, path: join(folder, name) });
    }
    const width = Math.round((source.width * rendition.height) / source.height / 2) * 2;
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
  return { files, durationSeconds: measured };
}
