import { PAGES } from '@marketplace/shared/platform';
import { otherParty } from '../domain/orders.js';
import type { FileStore } from '../files/store.js';
import { notifyUser, type Services } from '../services.js';
import { type Derivative, derivativeFolder, type TargetMedia } from './derivatives.js';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { type ImageResult, processImage } from './images.js';
import { processVideo, type VideoResult } from './videos.js';
import { uploadLimit } from '../config.js';
import type { DeadLetterHandler, JobHandler, JobQueue, MediaJob } from './queue.js';

/** What a media worker uses: the API's storage, the file store and the live outbox, wherever it runs. */
export type WorkerServices = Pick<Services, 'repos' | 'files' | 'config' | 'relay'>;

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
 * The media job of an order target: decode the file it came with as its declared type and remake
 * it (a picture: media/images.ts; a video: its poster and HLS ladder, media/videos.ts), store what was made in a folder of this run's own, then end the target's
 * processing in one conditional update, with the notice to the order's other party in the same
 * transaction. A second worker running the same job finds it finished and removes what it made;
 * a refused file ends the target as failed with the reason, told to the uploader, and its bytes
 * go. Storage failing throws: the queue retries.
 */
export function mediaJobs(services: WorkerServices): { handle: JobHandler; deadLetter: DeadLetterHandler } {
  const { repos, files, config, relay } = services;

  const fail = async (job: MediaJob, reason: string) => {
    const target = await repos.orders.processingTarget(job.targetIdentifier);
    if (!target) return;
    const failed = await repos.transaction(async (tx) => {
      if (!(await tx.orders.finishProcessing(target.targetId, { state: 'failed', reason }))) return false;
      await notifyUser(
        { repos: tx, relay },
        target.uploaderId,
        `Your upload "${target.fileName}" on order ${target.orderId} was refused: ${reason}.`,
        PAGES.eventOrder.href({ orderId: target.orderId }),
      );
      return true;
    });
    if (!failed) return;
    relay.kick();
    // Nothing of a refused file is kept: it was never served, and is nobody's to download.
    await files.remove(target.sourceKey);
  };

  const handle: JobHandler = async (job) => {
    const target = await repos.orders.processingTarget(job.targetIdentifier);
    // Finished by another worker, or removed: nothing to do.
    if (!target) return;
    const limit = uploadLimit(config, target.contentType);
    const isVideo = target.contentType.startsWith('video/');
    let result: ImageResult | VideoResult;
    if (isVideo) {
      const work = await mkdtemp(join(tmpdir(), 'media-source-'));
      try {
        const source = join(work, 'source');
        const copied = await copyStored(files, target.sourceKey, limit, source);
        if (copied === undefined) throw new Error(`the file of ${job.targetIdentifier} is not in the store`);
        if (copied === 'too large') return fail(job, `The file is larger than ${limit} bytes`);
        result = await processVideo(source, target.contentType);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    } else {
      const bytes = await readStored(files, target.sourceKey, limit);
      if (bytes === undefined) throw new Error(`the file of ${job.targetIdentifier} is not in the store`);
      if (bytes === 'too large') return fail(job, `The file is larger than ${limit} bytes`);
      result = await processImage(bytes, target.contentType);
    }
    if (!result.ok) return fail(job, result.reason);

    const folder = derivativeFolder(target.orderId, target.targetIdentifier);
    const derivatives: Derivative[] = [];
    const videoFiles: Derivative[] = [];
    const store = async (
      list: Derivative[],
      made: { name: string; contentType: string; bytes: Buffer },
      width: number,
    ) => {
      const key = `${folder}/${made.name}`;
      await files.put(key, made.bytes, made.contentType);
      list.push({ name: made.name, key, contentType: made.contentType, width });
    };
    try {
      const pictures = 'poster' in result ? result.poster : result;
      for (const output of pictures.outputs) await store(derivatives, output, output.width);
      // The ladder's files in the order they were made: the master playlist, last, is stored last.
      if ('files' in result) for (const file of result.files) await store(videoFiles, file, result.width);
      const media: TargetMedia = {
        width: pictures.width,
        height: pictures.height,
        placeholder: pictures.placeholder,
        derivatives,
        ...('files' in result && { video: { durationSeconds: result.durationSeconds, files: videoFiles } }),
      };
      const finished = await repos.transaction(async (tx) => {
        if (!(await tx.orders.finishProcessing(target.targetId, { state: 'ready', media }))) return false;
        const order = await tx.orders.byRowId(target.orderRowId);
        if (order)
          await notifyUser(
            { repos: tx, relay },
            otherParty(order, target.uploaderId),
            `New upload "${target.fileName}" on order ${order.orderId}.`,
            PAGES.eventOrder.href({ orderId: order.orderId }),
          );
        return true;
      });
      if (finished) {
        relay.kick();
        return;
      }
    } catch (error) {
      await Promise.all([...derivatives, ...videoFiles].map((d) => files.remove(d.key).catch(() => undefined)));
      throw error;
    }
    // Another worker finished it first (or it was removed): what this run made is nobody's.
    await Promise.all([...derivatives, ...videoFiles].map((d) => files.remove(d.key)));
  };

  return { handle, deadLetter: (job) => fail(job, PROCESSING_FAILED) };
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
