import type { Db } from '../db/database.js';
import { coverUploadsRepository } from './content/covers.js';
import { eventsRepository } from './content/events.js';
import { itemsRepository, seenByViewer } from './content/items.js';
import { contentMediaRepository } from './content/media.js';
import { postsRepository } from './content/posts.js';
import type { PurchasesRepository } from './purchases.js';

export type ContentRepository = ReturnType<typeof contentRepository>;

/**
 * Events, the photos and videos in them, and community posts, as stored: each item with whether
 * the reader bought it. What a page shows of them (files, signed links, pictures) is views/content.ts's.
 */
export function contentRepository(db: Db, purchases: Pick<PurchasesRepository, 'ownedAmong'>) {
  const seenBy = seenByViewer(purchases);
  return {
    ...contentMediaRepository(db),
    ...eventsRepository(db),
    ...coverUploadsRepository(db),
    ...itemsRepository(db, seenBy),
    ...postsRepository(db, seenBy),
  };
}
