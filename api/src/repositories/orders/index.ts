import type { Db } from '../../db/database.js';
import { orderProcessing } from './processing.js';
import { orderReads } from './reads.js';
import { orderTargets } from './targets.js';
import { orderTransitions } from './transitions.js';
import { orderUploads } from './uploads.js';

export type { ReadyFile, TargetRecord, TransitionData, UploadSlot } from './records.js';

export type OrdersRepository = ReturnType<typeof ordersRepository>;

/**
 * Event orders and their targets (reference pictures and deliverables, uploaded to the files
 * host), as stored. What a party or a sharing-link holder is shown of them (signed links,
 * pictures, the page) is views/orders.ts's.
 */
export function ordersRepository(db: Db) {
  return {
    ...orderReads(db),
    ...orderTransitions(db),
    ...orderTargets(db),
    ...orderUploads(db),
    ...orderProcessing(db),
  };
}
