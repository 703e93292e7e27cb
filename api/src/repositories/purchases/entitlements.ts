import type { Db } from '../../db/database.js';
import type { PurchaseRecord } from './records.js';

/** What buyers own: granted by a paid purchase, listed, and downloaded. */
export function entitlementsRepository(db: Db) {
  return {
    /** The buyer owns each line's item from now (an item held already stays as it was). */
    async grant(purchase: Pick<PurchaseRecord, 'id' | 'buyerId' | 'lines'>, now: Date): Promise<void> {
      await db
        .insertInto('entitlements')
        .values(
          purchase.lines.map((line) => ({
            user_id: purchase.buyerId,
            content_identifier: line.identifier,
            purchase_id: purchase.id,
            granted_at: now.toISOString(),
          })),
        )
        .onConflict((oc) => oc.columns(['user_id', 'content_identifier']).doNothing())
        .execute();
    },

    /** Which of these items `userId` owns (an entitlement: a paid purchase of theirs granted it). */
    async ownedAmong(userId: number, identifiers: readonly string[]): Promise<Set<string>> {
      if (identifiers.length === 0) return new Set();
      const rows = await db
        .selectFrom('entitlements')
        .select('content_identifier')
        .where('user_id', '=', userId)
        .where('content_identifier', 'in', identifiers)
        .execute();
      return new Set(rows.map((row) => row.content_identifier));
    },

    /** What a user owns: each item with its file and the purchase that granted it, newest first. */
    async owned(userId: number) {
      return db
        .selectFrom('entitlements as en')
        .innerJoin('content_items as ci', 'ci.identifier', 'en.content_identifier')
        .innerJoin('purchases as p', 'p.id', 'en.purchase_id')
        .innerJoin('users as u', 'u.id', 'ci.owner_id')
        .leftJoin('events as e', 'e.id', 'ci.event_id')
        .select([
          'ci.identifier',
          'ci.name',
          'ci.content_type',
          'ci.file_path',
          'ci.filename',
          'ci.media',
          'ci.thumbnail_path',
          'e.name as event_name',
          'u.username as seller_name',
          'p.purchase_number',
          'en.granted_at',
        ])
        .where('en.user_id', '=', userId)
        .orderBy('en.granted_at', 'desc')
        .orderBy('ci.identifier')
        .execute();
    },

    /** An owned item's original file, for its download; null when the user does not own it. */
    async ownedFile(userId: number, identifier: string) {
      const row = await db
        .selectFrom('entitlements as en')
        .innerJoin('content_items as ci', 'ci.identifier', 'en.content_identifier')
        .select(['ci.file_path', 'ci.filename', 'ci.content_type'])
        .where('en.user_id', '=', userId)
        .where('en.content_identifier', '=', identifier)
        .executeTakeFirst();
      return row ?? null;
    },
  };
}
