import { randomBytes } from 'node:crypto';
import { PAGES } from '@marketplace/shared/platform';
import { otherParty } from '../domain/orders.js';
import type { FileStore } from '../files/store.js';
import { contentTypeOf, unmarkedFolder } from '../files/paths.js';
import { notifyUser, type Services } from '../services.js';
import { type Derivative, derivativeFolder, largestJpeg, type TargetMedia } from './derivatives.js';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  AVATAR_PICTURES,
  FORMAT_TYPES,
  type ImageFormat,
  type ImageResult,
  ORDER_PICTURES,
  PAGE_PICTURES,
  type PictureSet,
  SALE_PICTURES,
} from './images.js';
import { processImageApart } from './decoderProcess.js';
import { defaultVideoLimits, processVideo, type VideoResult } from './videos.js';
import { DEFAULT_QUEUE_OPTIONS, type JobTimeLimit, jobTimeLimit } from './queueOptions.js';
import { uploadLimit, type WorkerConfig } from '../config.js';
import type { DeadLetterHandler, JobHandler, JobQueue } from './queue.js';

/** What a media worker uses: the API's storage, the file store, the live outbox and the queue (for later jobs), wherever it runs. */
export type WorkerServices = Pick<Services, 'repos' | 'files' | 'media'> & { config: WorkerConfig };

/** The largest public source a job reads (a camera's frame is 10 to 30 MB). */
const PUBLIC_SOURCE_MAX_BYTES = 100 * 1024 * 1024;

/** What the uploader reads when every attempt failed for a reason of ours, not of the file. */
export const PROCESSING_FAILED = 'This file could not be processed: please upload it again';

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
type Made =
  { ok: true; media: TargetMedia; stored: Derivative[]; deferred: ImageFormat[] } | { ok: false; reason: string };

/**
 * Decodes a stored source as its declared type and remakes it (a picture: media/images.ts; a
 * video: its poster and HLS ladder, media/videos.ts), storing what was made under `folder` (new to
 * each run). A photo or video made with a preview (one for sale) has its watermarked preview
 * stored there and its unmarked pictures (and a video's ladder) under `privateFolder`, which
 * nothing serves publicly: its owner and buyers reach them by signed links. A refused
 * source is an answer; storage failing throws, and what this run stored goes.
 */
async function makeMedia(
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
const madeFiles = (media: TargetMedia): Derivative[] => [
  ...media.derivatives,
  ...(media.unmarked ?? []),
  ...(media.video?.files ?? []),
];

/** Removes what a run stored, as far as the store lets it (a failure here must not hide the first one). */
const removeAll = (files: FileStore, stored: Derivative[]) =>
  Promise.all(stored.map((d) => files.remove(d.key).catch(() => undefined)));

/**
 * The media jobs: an order target's file, an event's photo or video, an event's cover, a profile picture. Each
 * makes its media (makeMedia) in a folder of its run's own, then records it in one conditional
 * update: a second worker running the same job finds it recorded and removes what it made.
 * An order target's job ends its processing with the notice to the order's other party in the
 * same transaction; a refused file ends the target as failed with the reason, told to the
 * uploader, and its bytes go. Storage failing throws: the queue retries.
 */
export function mediaJobs(services: WorkerServices): { handle: JobHandler; deadLetter: DeadLetterHandler } {
  const { repos, files, config, media } = services;

  const fail = async (job: { targetIdentifier: string }, reason: string) => {
    const target = await repos.orders.processingTarget(job.targetIdentifier);
    if (!target) return;
    const failed = await repos.transaction(async (tx) => {
      if (!(await tx.orders.finishProcessing(target.targetId, { state: 'failed', reason }))) return false;
      await notifyUser(
        tx,
        target.uploaderId,
        `Your upload "${target.fileName}" on order ${target.orderId} was refused: ${reason.replace(/\.$/, '')}.`,
        PAGES.eventOrder.href({ orderId: target.orderId }),
      );
      return true;
    });
    if (!failed) return;
    // Nothing of a refused file is kept: it was never served, and is nobody's to download.
    await files.remove(target.sourceKey);
  };

  /**
   * An event's photo, video or cover (public media), stored under
   * `media/<kind>/<identifier>/<random>/` (a new folder each run: immutable URLs). A photo or video
   * for sale is stored there as its watermarked preview, and unmarked (with a video's ladder) under
   * `unmarked/` (files/paths.ts); one made before previews were is made again, and its public
   * files go once the new ones are recorded. A source that does not decode is the seed's or an operator's mistake:
   * logged, and the item stays processing (or as it was).
   */
  const publicJob = async (kind: 'content' | 'cover', identifier: string, timeLimit: JobTimeLimit) => {
    // A cover is nothing anyone buys, and is made once.
    const source =
      kind === 'content'
        ? await repos.content.contentSource(identifier)
        : await repos.content
            .coverSource(identifier)
            .then((cover) => cover && { ...cover, forSale: false, replaces: null });
    if (!source) return;
    const limit = source.contentType.startsWith('video/') ? config.videoUploadMaxBytes : PUBLIC_SOURCE_MAX_BYTES;
    const run = randomBytes(9).toString('base64url');
    const folder = `media/${kind}/${identifier}/${run}`;
    const made = source.forSale
      ? await makeMedia(
          files,
          source,
          limit,
          folder,
          SALE_PICTURES,
          unmarkedFolder(identifier, run),
          undefined,
          timeLimit,
        )
      : await makeMedia(files, source, limit, folder, PAGE_PICTURES, undefined, undefined, timeLimit);
    if (!made.ok) return console.error(`[media] the ${kind} source of ${identifier} was refused: ${made.reason}`);
    if (await repos.content.setPublicMedia(kind, identifier, made.media)) {
      if (source.replaces) await removeAll(files, madeFiles(source.replaces));
      return;
    }
    // Another worker recorded its own first.
    await removeAll(files, made.stored);
  };

  /**
   * An event's cover: one its organizer uploaded (routes/events.ts), made into pictures under
   * `media/cover/<identifier>/<random>/` and shown in place of the one before, whose files go, as
   * does the upload; a file that does not decode as its type is forgotten (the cover stays as it
   * was). Without an upload, the seed's cover (publicJob).
   */
  const coverJob = async (identifier: string, timeLimit: JobTimeLimit) => {
    const key = await repos.content.uploadedCover(identifier);
    if (!key) return publicJob('cover', identifier, timeLimit);
    const folder = `media/cover/${identifier}/${randomBytes(9).toString('base64url')}`;
    const made = await makeMedia(
      files,
      { key, contentType: contentTypeOf(key) },
      PUBLIC_SOURCE_MAX_BYTES,
      folder,
      PAGE_PICTURES,
      undefined,
      undefined,
      timeLimit,
    );
    if (!made.ok) {
      console.error(`[media] the uploaded cover of ${identifier} was refused: ${made.reason}`);
      if (await repos.content.dropCoverSource(identifier, key)) await files.remove(key);
      return;
    }
    const recorded = await repos.content.setUploadedCover(identifier, key, made.media);
    // Another worker recorded it first, or a newer upload replaced it meanwhile.
    if (!recorded) return void (await removeAll(files, made.stored));
    if (recorded.replaced) await removeAll(files, madeFiles(recorded.replaced));
    await files.remove(key);
  };

  /**
   * A user's profile picture (public media): a square JPEG under `media/avatar/<profile
   * name>/<random>/`, then served as the user's picture in place of the source, once.
   */
  const avatarJob = async (profileName: string, timeLimit: JobTimeLimit) => {
    const source = await repos.users.avatarSource(profileName);
    if (!source) return;
    const folder = `media/avatar/${profileName}/${randomBytes(9).toString('base64url')}`;
    const made = await makeMedia(
      files,
      source,
      PUBLIC_SOURCE_MAX_BYTES,
      folder,
      AVATAR_PICTURES,
      undefined,
      undefined,
      timeLimit,
    );
    if (!made.ok) return console.error(`[media] the picture of ${profileName} was refused: ${made.reason}`);
    const shown = largestJpeg(made.media);
    if (shown && (await repos.users.setAvatar(profileName, source.key, shown.key))) return;
    await removeAll(files, made.stored);
  };

  /**
   * The formats of a ready target's picture that are in none of its derivatives (those its first
   * run deferred); none for a video, or a target uploaded before the pipeline.
   */
  const formatsMissing = (media: TargetMedia | null): ImageFormat[] =>
    !media || media.video || media.derivatives.length === 0
      ? []
      : ORDER_PICTURES.formats.filter((f) => !media.derivatives.some((d) => d.contentType === FORMAT_TYPES[f]));

  /**
   * An order picture's formats its first run left out (its AVIF, media/images.ts ORDER_PICTURES),
   * made from the source in a folder of this run's own beside the first run's, and added to the
   * target's media once stored, so its `<picture>` never names a file not written. Of two runs, or
   * a run and the target's removal, one adds them; the other run removes what it made.
   */
  const formatsJob = async (targetIdentifier: string, timeLimit: JobTimeLimit) => {
    const ready = await repos.orders.filesOf(targetIdentifier);
    const missing = formatsMissing(ready?.media ?? null);
    const shown = ready?.media;
    const first = shown?.derivatives[0];
    if (!ready || !shown || !first || missing.length === 0) return;
    const folder = `${posix.dirname(posix.dirname(first.key))}/${randomBytes(9).toString('base64url')}`;
    const made = await makeMedia(
      files,
      { key: ready.key, contentType: ready.contentType },
      uploadLimit(config, ready.contentType),
      folder,
      { ...PAGE_PICTURES, formats: missing },
      undefined,
      // One encode at a time: an upload's first pictures, made meanwhile, get the other core.
      1,
      timeLimit,
    );
    // It was made once from this source: shown as it is.
    if (!made.ok) return console.error(`[media] the later formats of ${targetIdentifier} were refused: ${made.reason}`);
    try {
      if (await repos.orders.addDerivatives(targetIdentifier, shown, made.media.derivatives)) return;
    } catch (error) {
      await removeAll(files, made.stored);
      throw error;
    }
    await removeAll(files, made.stored);
  };

  const handle: JobHandler = async (job) => {
    const timeLimit = jobTimeLimit(Date.now(), config.mediaQueue.jobTimeoutMs);
    if ('contentIdentifier' in job) return publicJob('content', job.contentIdentifier, timeLimit);
    if ('coverOf' in job) return coverJob(job.coverOf, timeLimit);
    if ('avatarOf' in job) return avatarJob(job.avatarOf, timeLimit);
    if ('formatsOf' in job) return formatsJob(job.formatsOf, timeLimit);
    const target = await repos.orders.processingTarget(job.targetIdentifier);
    if (!target) {
      // Finished (by this job's run that stopped before queuing its later formats, or by another
      // worker), or removed: at most the later formats to queue.
      const ready = await repos.orders.filesOf(job.targetIdentifier);
      if (formatsMissing(ready?.media ?? null).length > 0) await media.send({ formatsOf: job.targetIdentifier });
      return;
    }
    const made = await makeMedia(
      files,
      { key: target.sourceKey, contentType: target.contentType },
      uploadLimit(config, target.contentType),
      derivativeFolder(target.orderId, target.targetIdentifier),
      // A picture is shown once its WebP and JPEG are made; its AVIF follows (formatsJob).
      target.contentType.startsWith('video/') ? PAGE_PICTURES : ORDER_PICTURES,
      undefined,
      undefined,
      timeLimit,
    );
    if (!made.ok) return fail(job, made.reason);
    let finished: boolean;
    try {
      finished = await repos.transaction(async (tx) => {
        if (!(await tx.orders.finishProcessing(target.targetId, { state: 'ready', media: made.media }))) return false;
        const order = await tx.orders.byRowId(target.orderRowId);
        if (order)
          await notifyUser(
            tx,
            otherParty(order, target.uploaderId),
            `New upload "${target.fileName}" on order ${order.orderId}.`,
            PAGES.eventOrder.href({ orderId: order.orderId }),
          );
        return true;
      });
    } catch (error) {
      await removeAll(files, made.stored);
      throw error;
    }
    if (!finished) {
      // Another worker finished it first (or it was removed): what this run made is nobody's.
      await removeAll(files, made.stored);
      return;
    }
    // Failing here fails the job: its next attempt finds the target ready and queues them.
    if (made.deferred.length > 0) await media.send({ formatsOf: job.targetIdentifier });
  };

  return {
    handle,
    deadLetter: async (job, error) => {
      if ('targetIdentifier' in job) return fail(job, PROCESSING_FAILED);
      // Public media stay as they were (an item processing, a user without a picture) until a later
      // start queues them again; an order picture without its later formats is shown in the others.
      console.error(`[media] ${JSON.stringify(job)} failed every attempt: ${error}`);
    },
  };
}

/**
 * Queues the media job of every event photo, cover and profile picture whose pictures are not
 * made yet, and of every order file waiting for its job (at start, with the demo data). The profile pictures first: they are small, and a member's header shows one.
 */
export async function queuePublicMedia(queue: JobQueue, services: WorkerServices): Promise<number> {
  const avatars = await services.repos.users.avatarsWaiting();
  const { content, covers } = await services.repos.content.unprocessed();
  for (const avatarOf of avatars) await queue.send({ avatarOf });
  for (const contentIdentifier of content) await queue.send({ contentIdentifier });
  for (const coverOf of covers) await queue.send({ coverOf });
  // And the demo orders' deliverables, waiting like an upload whose file came.
  const targets = await services.repos.orders.processingSince('9999', 1000);
  for (const targetIdentifier of targets) await queue.send({ targetIdentifier });
  return avatars.length + content.length + covers.length + targets.length;
}

/** Queues the media job of each target whose file came but whose job may have been lost (sent by the sweep). */
export async function resendStalled(queue: JobQueue, services: WorkerServices, before: string, limit: number) {
  const stalled = await services.repos.orders.processingSince(before, limit);
  let sent = 0;
  for (const targetIdentifier of stalled) {
    if (await queue.pending({ targetIdentifier })) continue;
    await queue.send({ targetIdentifier });
    sent++;
  }
  return sent;
}
