/**
 * What every media job does with a source (media/jobs.ts): read it from the store, decode and
 * remake it (pictures in a child process, a video's poster and HLS ladder from a file on disk),
 * and store what was made; and remove it again when the run's result is not recorded.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FileStore } from '../../files/fileStore.js';
import { processImageApart } from '../decoderProcess.js';
import type { Derivative, TargetMedia } from '../derivatives.js';
import type { ImageResult } from '../images.js';
import { type ImageFormat, PAGE_PICTURES, type PictureSet } from '../pictureSets.js';
import { DEFAULT_QUEUE_OPTIONS, type JobTimeLimit, jobTimeLimit } from '../queueOptions.js';
import { defaultVideoLimits } from '../videoLimits.js';
import { processVideo, type VideoResult } from '../videos.js';

/** The largest public source a job reads (a camera's frame is 10 to 30 MB). */
export const PUBLIC_SOURCE_MAX_BYTES = 100 * 1024 * 1024;

/** A stored file's bytes, or undefined when it is gone; one larger than `maxBytes` is not read whole. */
async function readStored(
  files: FileStore,
  key: string,
  maxBytes: number,
): Promise<Uint8Array | 'too large' | undefined> {
  const file = await files.open(key);
  if (!file) return undefined;
  if (file.size > maxBytes) {
    await file.body.cancel();
    return 'too large';
  }
  return new Uint8Array(await new Response(file.body).arrayBuffer());
}

/** A stored file copied to `path` (a video, up to hundreds of MB, is streamed, never held in memory). */
async function copyStored(
  files: FileStore,
  key: string,
  maxBytes: number,
  path: string,
): Promise<'copied' | 'too large' | undefined> {
  const file = await files.open(key);
  if (!file) return undefined;
  if (file.size > maxBytes) {
    await file.body.cancel();
    return 'too large';
  }
  await pipeline(Readable.fromWeb(file.body as NodeReadableStream<Uint8Array>), createWriteStream(path));
  return 'copied';
}

/**
 * What one run of a job made of a source and stored (`media`), and the formats it left for a
 * later run (the set's `defer`); or why the source was refused.
 */
export type Made =
  { ok: true; media: TargetMedia; stored: Derivative[]; deferred: ImageFormat[] } | { ok: false; reason: string };

/**
 * Decodes a stored source as its declared type and remakes it (a picture: media/images.ts; a
 * video: its poster and HLS ladder, media/videos.ts), storing what was made under `folder` (new to
 * each run). A photo or video made with a preview (one for sale) has its watermarked preview
 * stored there and its unmarked pictures (and a video's ladder) under `privateFolder`, which
 * nothing serves publicly: its owner and buyers reach them by signed links. A refused
 * source is an answer; storage failing throws, and what this run stored goes.
 */
export async function makeMedia(
  files: FileStore,
  source: { key: string; contentType: string },
  limit: number,
  folder: string,
  pictures: PictureSet = PAGE_PICTURES,
  privateFolder?: string,
  lanes?: number,
  timeLimit: JobTimeLimit = jobTimeLimit(Date.now(), DEFAULT_QUEUE_OPTIONS.jobTimeoutMs),
): Promise<Made> {
  const made = await decodeAndStore(files, source, limit, folder, pictures, privateFolder, lanes, timeLimit);
  // Past its time to record, a run records nothing: pg-boss may soon start the job again.
  if (made.ok && Date.now() > timeLimit.recordBy) {
    await removeAll(files, made.stored);
    throw new Error('The media job ran past its time to record what it made');
  }
  return made;
}

async function decodeAndStore(
  files: FileStore,
  source: { key: string; contentType: string },
  limit: number,
  folder: string,
  pictures: PictureSet,
  privateFolder: string | undefined,
  lanes: number | undefined,
  timeLimit: JobTimeLimit,
): Promise<Made> {
  if (!source.contentType.startsWith('video/'))
    return storeMedia(
      files,
      await decodePicture(files, source, limit, pictures, lanes, timeLimit.decodeBy),
      folder,
      privateFolder,
    );
  // The source and the ladder made of it live on disk until stored, then go.
  const work = await mkdtemp(join(tmpdir(), 'media-source-'));
  try {
    const path = join(work, 'source');
    const copied = await copyStored(files, source.key, limit, path);
    if (copied === undefined) throw new Error(`${source.key} is not in the store`);
    if (copied === 'too large') return { ok: false, reason: `The file is larger than ${limit} bytes` };
    const result = await processVideo(path, source.contentType, work, pictures, defaultVideoLimits(timeLimit.decodeBy));
    return await storeMedia(files, result, folder, privateFolder);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A stored picture decoded and remade (media/images.ts), in a child process of its own. */
async function decodePicture(
  files: FileStore,
  source: { key: string; contentType: string },
  limit: number,
  pictures: PictureSet,
  lanes: number | undefined,
  decodeBy: number,
): Promise<ImageResult> {
  const bytes = await readStored(files, source.key, limit);
  if (bytes === undefined) throw new Error(`${source.key} is not in the store`);
  if (bytes === 'too large') return { ok: false, reason: `The file is larger than ${limit} bytes` };
  // In a child process under a memory limit: a decoder crashing or blowing up ends only it.
  return processImageApart(bytes, source.contentType, pictures, lanes, decodeBy);
}

/**
 * What was made of a source, stored under `folder` (and `privateFolder`, see makeMedia); a video's
 * ladder is read from disk one file at a time as it is stored, so memory holds one file of it.
 */
async function storeMedia(
  files: FileStore,
  result: ImageResult | VideoResult,
  folder: string,
  privateFolder?: string,
): Promise<Made> {
  if (!result.ok) return result;

  const stored: Derivative[] = [];
  const derivatives: Derivative[] = [];
  const unmarked: Derivative[] = [];
  const videoFiles: Derivative[] = [];
  const store = async (
    list: Derivative[],
    made: { name: string; contentType: string; bytes: Buffer },
    width: number,
    into = folder,
  ) => {
    const key = `${into}/${made.name}`;
    await files.put(key, made.bytes, made.contentType);
    const derivative = { name: made.name, key, contentType: made.contentType, width };
    stored.push(derivative);
    list.push(derivative);
  };
  try {
    const made = 'poster' in result ? result.poster : result;
    const { previews } = made;
    if (previews.length > 0) {
      // The unmarked pictures only where no public URL reaches (a public folder would hand them to anyone).
      if (!privateFolder) throw new Error('A preview was made without a private folder for its unmarked pictures');
      for (const output of previews) await store(derivatives, output, output.width);
      for (const output of made.outputs) await store(unmarked, output, output.width, privateFolder);
    } else for (const output of made.outputs) await store(derivatives, output, output.width);
    // The ladder's files in the order they were made: the master playlist, last, is stored last. A
    // video for sale's (previewed) ladder is what a buyer pays for: private, like its unmarked poster.
    const ladderFolder = previews.length > 0 ? privateFolder : folder;
    if ('files' in result)
      for (const file of result.files)
        await store(videoFiles, { ...file, bytes: await readFile(file.path) }, result.width, ladderFolder);
    const media: TargetMedia = {
      width: made.width,
      height: made.height,
      placeholder: made.placeholder,
      derivatives,
      ...(unmarked.length > 0 && { unmarked }),
      ...('files' in result && { video: { durationSeconds: result.durationSeconds, files: videoFiles } }),
    };
    return { ok: true, media, stored, deferred: 'poster' in result ? [] : result.deferred };
  } catch (error) {
    await removeAll(files, stored);
    throw error;
  }
}

/** Every file a run stored, as its media name them. */
export const madeFiles = (media: TargetMedia): Derivative[] => [
  ...media.derivatives,
  ...(media.unmarked ?? []),
  ...(media.video?.files ?? []),
];

/** Removes what a run stored, as far as the store lets it (a failure here must not hide the first one). */
export const removeAll = (files: FileStore, stored: Derivative[]) =>
  Promise.all(stored.map((d) => files.remove(d.key).catch(() => undefined)));
