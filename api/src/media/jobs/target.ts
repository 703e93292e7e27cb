import { PAGES } from '@marketplace/shared/platform';
import { uploadLimit } from '../../config.js';
import { otherParty } from '../../domain/orders.js';
import { notifyUser } from '../../services.js';
import { derivativeFolder } from '../derivatives.js';
import { ORDER_PICTURES, PAGE_PICTURES } from '../pictureSets.js';
import type { JobRun, WorkerServices } from './context.js';
import { formatsMissing } from './formats.js';
import { makeMedia, removeAll } from './make.js';

/** What the uploader reads when every attempt failed for a reason of ours, not of the file. */
export const PROCESSING_FAILED = 'This file could not be processed: please upload it again';

/**
 * Ends a target's processing as failed with `reason`, told to the uploader in the same
 * transaction; its source goes (a refused file was never served, and is nobody's to download).
 */
export async function failTarget({ repos, files }: WorkerServices, targetIdentifier: string, reason: string) {
  const target = await repos.orders.processingTarget(targetIdentifier);
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
  if (failed) await files.remove(target.sourceKey);
}

/**
 * An order target's file: its pictures (a video's poster and ladder) made in its own folder, then
 * the target ends its processing with the notice to the order's other party in one transaction;
 * a refused file ends the target as failed (failTarget). A picture is shown once its WebP and JPEG
 * are made; its later formats follow in a job of the later lane (formatsJob).
 */
export const targetJob: JobRun = async (services, targetIdentifier, timeLimit) => {
  const { repos, files, config, media } = services;
  const target = await repos.orders.processingTarget(targetIdentifier);
  if (!target) {
    // Finished (by this job's run that stopped before queuing its later formats, or by another
    // worker), or removed: at most the later formats to queue.
    const ready = await repos.orders.filesOf(targetIdentifier);
    if (formatsMissing(ready?.media ?? null).length > 0) await media.send({ kind: 'formats', id: targetIdentifier });
    return;
  }
  const made = await makeMedia(
    files,
    { key: target.sourceKey, contentType: target.contentType },
    uploadLimit(config, target.contentType),
    derivativeFolder(target.orderId, target.targetIdentifier),
    target.contentType.startsWith('video/') ? PAGE_PICTURES : ORDER_PICTURES,
    undefined,
    undefined,
    timeLimit,
  );
  if (!made.ok) return failTarget(services, targetIdentifier, made.reason);
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
  if (made.deferred.length > 0) await media.send({ kind: 'formats', id: targetIdentifier });
};
