import { PAGES } from '@marketplace/shared/platform';
import { otherParty } from '../domain/orders.js';
import type { UploadSlot } from '../repositories/orders.js';
import { notifyUser, type Services } from '../services.js';
import { matchesImageType } from './paths.js';
import { UPLOAD_URL_SECONDS } from './store.js';

/** Enough leading bytes to recognise every uploadable image type (matchesImageType). */
export const SIGNATURE_BYTES = 12;

/** Why a file cannot be its target's, with the answer's status, or null when it can. */
export function uploadProblem(
  slot: UploadSlot,
  file: { size: number; leading: Uint8Array },
  maxBytes: number,
): { status: 400 | 413; reason: string } | null {
  if (file.size === 0) return { status: 400, reason: 'The file is empty' };
  if (file.size > maxBytes) return { status: 413, reason: `The file is larger than ${maxBytes} bytes` };
  if (!matchesImageType(file.leading, slot.contentType))
    return { status: 400, reason: `The file is not a ${slot.contentType} image` };
  return null;
}

/**
 * Records a target's stored file and tells the order's other party. Of two instances (or
 * requests) completing the same target at once, one records it and notifies; false for the other.
 */
export async function completeUpload(services: Services, slot: UploadSlot, sizeBytes: number): Promise<boolean> {
  const order = await services.repos.orders.byRowId(slot.orderRowId);
  if (!order) return false;
  return services.repos.transaction(async (tx) => {
    if (!(await tx.orders.markUploaded(slot.targetId, slot.key, sizeBytes))) return false;
    await notifyUser(
      { repos: tx, live: services.live },
      otherParty(order, slot.uploaderId),
      `New upload "${slot.fileName}" on order ${order.orderId}.`,
      PAGES.eventOrder.href({ orderId: order.orderId }),
    );
    return true;
  });
}

/**
 * With an object store the browser sends a target's file straight to the store (a presigned
 * PUT), so the API learns of it by looking: a waiting target whose object exists is checked
 * like a PUT to the API would be (size, and leading bytes against the declared type, since a
 * store need not enforce the signed type) and completed, or its object removed so the upload
 * may be tried again while its URL lasts. Run when an order is read and by the periodic sweep,
 * so the other party hears of the upload even if the uploader never reads the order again.
 */
export async function settleUploads(services: Services, orderRowId?: number): Promise<void> {
  const { files, repos, config } = services;
  if (files.kind === 'local') return;
  // A minute past the URL's life: a PUT begun just before it expired has arrived by then.
  const since = new Date(Date.now() - (UPLOAD_URL_SECONDS + 60) * 1000).toISOString();
  for (const slot of await repos.orders.pendingUploads(since, orderRowId)) {
    const size = await files.size(slot.key);
    if (size === undefined) continue;
    const leading = size > 0 ? await files.leading(slot.key, SIGNATURE_BYTES) : new Uint8Array();
    const problem = uploadProblem(slot, { size, leading }, config.uploadMaxBytes);
    if (problem) {
      console.warn(`[files] refused the upload for ${slot.targetIdentifier}: ${problem.reason}`);
      await files.remove(slot.key);
      continue;
    }
    await completeUpload(services, slot, size);
  }
}
