import type { Db } from '../../db/database.js';
import type { SessionUser } from '../../http/env.js';
import { likeIgnoringCase } from '../sql.js';
import type { PurchasesRepository } from '../purchases.js';
import { type ItemRecord, itemQuery, type SeenItem, toItemRecord } from './records.js';

/** Items as `viewer` reads them: with whether a paid purchase of theirs granted each. */
export type SeenBy = (items: readonly ItemRecord[], viewer: SessionUser | null) => Promise<SeenItem[]>;

/** Asks what the viewer bought once for a page's items rather than once per item. */
export const seenByViewer =
  (purchases: Pick<PurchasesRepository, 'ownedAmong'>): SeenBy =>
  async (items, viewer) => {
    const candidates = items.filter((item) => item.forSale && item.ownerId !== viewer?.id).map((i) => i.identifier);
    const bought: ReadonlySet<string> =
      viewer && candidates.length > 0 ? await purchases.ownedAmong(viewer.id, candidates) : new Set();
    return items.map((item) => ({ ...item, viewerBought: bought.has(item.identifier) }));
  };

/** Photos and videos: found by name, listed by event or by owner, and their terms of sale. */
export function itemsRepository(db: Db, seenBy: SeenBy) {
  return {
    /** Photos and videos whose name contains the LIKE pattern (any case), newest first, outside draft events. */
    async searchItems(likePattern: string, limit: number): Promise<ItemRecord[]> {
      const rows = await itemQuery(db)
        .where((eb) => likeIgnoringCase(eb.ref('ci.name'), likePattern))
        .where((eb) => eb.or([eb('ci.event_id', 'is', null), eb('e.published', '=', 1)]))
        .orderBy('ci.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toItemRecord);
    },

    async itemsOfEvent(eventIdentifier: string, viewer: SessionUser | null): Promise<SeenItem[]> {
      const rows = await itemQuery(db).where('e.identifier', '=', eventIdentifier).orderBy('ci.id').execute();
      return seenBy(rows.map(toItemRecord), viewer);
    },

    async itemsOwnedBy(userId: number, viewer: SessionUser | null): Promise<SeenItem[]> {
      const rows = await itemQuery(db).where('ci.owner_id', '=', userId).orderBy('ci.id').execute();
      return seenBy(rows.map(toItemRecord), viewer);
    },

    /** Whether an item can be sold at all, and who may not buy it (its owner); undefined for no such item. */
    async saleTerms(identifier: string): Promise<{ ownerId: number; forSale: boolean } | undefined> {
      const row = await db
        .selectFrom('content_items')
        .select(['owner_id', 'for_sale'])
        .where('identifier', '=', identifier)
        .executeTakeFirst();
      return row && { ownerId: row.owner_id, forSale: row.for_sale === 1 };
    },
  };
}
