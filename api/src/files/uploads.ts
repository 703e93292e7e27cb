import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { messageOf } from '@marketplace/shared/errors';
import type { UploadSlot } from '../repositories/orders/index.js';
import { uploadLimit } from '../config.js';
import type { Services } from '../services.js';
import { matchesDeclaredType, orderFileKey } from './paths.js';
import { VIDEO_UPLOAD_URL_SECONDS } from './presigned.js';

/** Enough leading bytes to recognise every uploadable type (matchesDeclaredType). */
export const SIGNATURE_BYTES = 12;

/**
 * Receives an upload's body into the file at `path`, streamed (a video may be hundreds of MB):
 * its size and first bytes, for uploadProblem. Past `maxBytes` nothing more is written, but the
 * rest is read to its end, so the client gets the 413 and its reason rather than a reset.
 */
export async function receiveUpload(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  path: string,
): Promise<{ size: number; leading: Uint8Array }> {
  const out = createWriteStream(path);
  let size = 0;
  const leading: number[] = [];
  try {
    if (body)
      for await (const chunk of body) {
        size += chunk.byteLength;
        if (leading.length < SIGNATURE_BYTES) leading.push(...chunk.subarray(0, SIGNATURE_BYTES - leading.length));
        if (size <= maxBytes && !out.write(chunk)) await once(out, 'drain');
      }
  } finally {
    out.end();
    await finished(out);
  }
  return { size, leading: Uint8Array.from(leading) };
}

/** Why a file cannot be its target's, with the answer's status, or null when it can. */
export function uploadProblem(
  slot: Pick<UploadSlot, 'contentType'>,
  file: { size: number; leading: Uint8Array },
  maxBytes: number,
): { status: 400 | 413; reason: string } | null {
  if (file.size === 0) return { status: 400, reason: 'The file is empty' };
  if (file.size > maxBytes) return { status: 413, reason: `The file is larger than ${maxBytes} bytes` };
  if (!matchesDeclaredType(file.leading, slot.contentType))
    return {
      status: 400,
      reason: `The file is not a ${slot.contentType} ${slot.contentType.startsWith('video/') ? 'video' : 'image'}`,
    };
  return null;
}

/** What became of a completed upload: recorded (its media job queued), the target already had its file, or the order closed meanwhile. */
export type Completion = 'recorded' | 'taken' | 'closed';

/**
 * Records a target's stored file, while the order is open (its row held, so a cancel racing the
 * upload comes before or after it), and queues its media job (media/jobs.ts), which tells the
 * order's other party once the file is ready. Of two instances (or requests) completing the same
 * target at once, one records it. A job lost between the commit and the queue (the process
 * died) is queued again by the sweep.
 */
export async function completeUpload(
  services: Services,
  slot: UploadSlot,
  key: string,
  sizeBytes: number,
): Promise<Completion> {
  const order = await services.repos.orders.byRowId(slot.orderRowId);
  if (!order) return 'closed';
  const completion = await services.repos.transaction(async (tx): Promise<Completion> => {
    if (!(await tx.orders.holdIfOpen(order.rowId))) return 'closed';
    return (await tx.orders.markUploaded(slot.targetId, key, sizeBytes)) ? 'recorded' : 'taken';
  });
  if (completion === 'recorded')
    await services.media.send({ kind: 'target', id: slot.targetIdentifier }).catch((error: unknown) => {
      console.error(`[media] could not queue ${slot.targetIdentifier} (the sweep will): ${messageOf(error)}`);
    });
  return completion;
}

/**
 * With an object store the browser sends a target's file straight to the store (a presigned
 * PUT to the target's quarantine key), so the API learns of it by looking: a waiting target whose
 * quarantined object exists is copied, by the store, to a new key only the server knows
 * (orderFileKey); the copy is checked like a PUT to the API would be (size, and leading bytes
 * against the declared type, since a store need not enforce the signed type) and, if good,
 * recorded as the target's file. The presigned URL may write the quarantine key again while it
 * lasts, but never what is served: the copy is checked after it was made, and a copy is never
 * replaced. A file that fails the check is left in quarantine for the uploader to send again; the
 * sweep removes it once the URL has expired (dropAbandonedUploads). Run when an order is read and
 * by the periodic sweep, so the other party hears of the upload even if the uploader never reads
 * the order again.
 */
export async function settleUploads(services: Services, orderRowId?: number, limit = 500): Promise<void> {
  const { files, repos, config } = services;
  if (files.kind === 'local') return;
  for (const slot of await repos.orders.pendingUploads(uploadHorizon(), orderRowId, limit)) {
    if ((await files.size(slot.key)) === undefined) continue;
    const copy = orderFileKey(slot.orderId, slot.targetIdentifier, slot.contentType);
    try {
      await files.copy(slot.key, copy);
    } catch (error) {
      // Another reader (request or instance) settled it between the look and the copy, removing it.
      if ((await files.size(slot.key)) === undefined) continue;
      throw error;
    }
    const size = (await files.size(copy)) ?? 0;
    const leading = size > 0 ? await files.leading(copy, SIGNATURE_BYTES) : new Uint8Array();
    const problem = uploadProblem(slot, { size, leading }, uploadLimit(config, slot.contentType));
    if (problem) console.warn(`[files] the upload for ${slot.targetIdentifier} is not counted: ${problem.reason}`);
    if (problem || (await completeUpload(services, slot, copy, size)) !== 'recorded') {
      // Refused, or another instance (or request) recorded its own copy first.
      await files.remove(copy);
      continue;
    }
    await files.remove(slot.key);
  }
}

/**
 * Targets added before this (ISO) were abandoned: their upload has expired (the longest, a
 * video's, whatever the target's type), with a minute for an upload begun just before.
 */
const uploadHorizon = () => new Date(Date.now() - (VIDEO_UPLOAD_URL_SECONDS + 60) * 1000).toISOString();

/**
 * Removes up to `limit` targets whose upload URL expired without a file being counted, with any
 * object sent to their key (one that failed the check): nothing can be sent there any more.
 * Answers how many went.
 */
export async function dropAbandonedUploads(services: Services, limit: number): Promise<number> {
  const { files, repos } = services;
  if (files.kind === 'local') return 0;
  const abandoned = await repos.orders.abandonedUploads(uploadHorizon(), limit);
  for (const slot of abandoned) {
    await files.remove(slot.key);
    await repos.orders.removeTarget(slot.targetId);
  }
  return abandoned.length;
}

/**
 * Removes what waits in quarantine (quarantineKey) for no upload: an object whose target was
 * accepted, refused and dropped, or removed, or whose upload URL has expired. The presigned URL
 * can write its key again after the upload was accepted (until it expires), so an object's write
 * time says nothing: what is kept is decided by the targets still waiting for a file within their
 * upload window, read after the listing, so a target added meanwhile (not listed) is never
 * touched. Answers how many went.
 */
export async function dropStrayQuarantine(services: Services, limit = 10_000): Promise<number> {
  const { files, repos } = services;
  if (files.kind === 'local') return 0;
  const listed = await files.keysUnder('quarantine/');
  if (listed.length === 0) return 0;
  const waiting = await repos.orders.pendingUploads(uploadHorizon(), undefined, limit);
  // More waiting uploads than were read: which of the rest wait is unknown, so nothing is removed.
  if (waiting.length >= limit) return 0;
  const kept = new Set(waiting.map((slot) => slot.key));
  let removed = 0;
  for (const key of listed) {
    if (kept.has(key)) continue;
    await files.remove(key);
    removed += 1;
  }
  return removed;
}
