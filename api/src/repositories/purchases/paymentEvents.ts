import type { Db } from '../../db/database.js';
import { nowIso } from '../sql.js';

/** The payment provider's events acted on, by their ids: a replay is recognised. */
export function paymentEventsRepository(db: Db) {
  return {
    /**
     * Records a payment event by its id; false when it was recorded before (a replay, or the same
     * event delivered twice at once: the key decides, and the second waits for the first's commit).
     */
    async recordEvent(eventId: string, type: string, purchaseNumber: string | null, outcome: string): Promise<boolean> {
      const inserted = await db
        .insertInto('payment_events')
        .values({ event_id: eventId, type, purchase_number: purchaseNumber, outcome, received_at: nowIso() })
        .onConflict((oc) => oc.column('event_id').doNothing())
        .returning('event_id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async setEventOutcome(eventId: string, outcome: string): Promise<void> {
      await db.updateTable('payment_events').set({ outcome }).where('event_id', '=', eventId).execute();
    },
  };
}
