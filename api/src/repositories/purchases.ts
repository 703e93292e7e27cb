import type { Db } from '../db/database.js';
import { cartLinesRepository } from './purchases/cart.js';
import { discountCodesRepository } from './purchases/codes.js';
import { entitlementsRepository } from './purchases/entitlements.js';
import { purchaseHistoryRepository } from './purchases/history.js';
import { paymentEventsRepository } from './purchases/paymentEvents.js';
import { purchaseRecordsRepository } from './purchases/records.js';

export type PurchasesRepository = ReturnType<typeof purchasesRepository>;

/**
 * Buying items: a cart as checkout prices it, its discount code, the purchase from open to paid,
 * the payment events acted on, what buyers own and what sellers sold. A purchase as the contract
 * shows it is views/purchases.ts's.
 */
export function purchasesRepository(db: Db) {
  return {
    ...cartLinesRepository(db),
    ...discountCodesRepository(db),
    ...purchaseRecordsRepository(db),
    ...paymentEventsRepository(db),
    ...entitlementsRepository(db),
    ...purchaseHistoryRepository(db),
  };
}
