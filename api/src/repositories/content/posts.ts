import type { Db } from '../../db/database.js';
import type { SessionUser } from '../../http/env.js';
import { type Page, pageOf, pageWindow } from '../sql.js';
import type { UserRef } from '../users/ref.js';
import type { SeenBy } from './items.js';
import { itemQuery, type SeenItem, toItemRecord } from './records.js';

/** A community post with its author and the item it shows, as one reader reads it. */
export interface PostRecord {
  id: number;
  author: UserRef;
  text: string;
  createdAt: string;
  item: SeenItem | null;
}

/** Community posts. */
export function postsRepository(db: Db, seenBy: SeenBy) {
  return {
    /** Newest first, each with its author and the item it shows, if any. */
    async posts(pageNo: number, limit: number, viewer: SessionUser | null): Promise<Page<PostRecord>> {
      const { limit: rows, offset } = pageWindow(pageNo, limit);
      const found = await db
        .selectFrom('posts as p')
        .innerJoin('users as u', 'u.id', 'p.author_id')
        .select([
          'p.id',
          'p.text',
          'p.created_at',
          'p.content_item_id',
          'u.id as author_id',
          'u.profile_name',
          'u.username',
          'u.profile_picture',
        ])
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(rows)
        .offset(offset)
        .execute();
      const { items: page, more } = pageOf(found, limit);
      const itemIds = page.map((row) => row.content_item_id).filter((id): id is number => id !== null);
      const shownRows = itemIds.length ? await itemQuery(db).where('ci.id', 'in', itemIds).execute() : [];
      const shown = await seenBy(shownRows.map(toItemRecord), viewer);
      const itemById = new Map(shown.map((item) => [item.id, item]));
      const posts = page.map((row): PostRecord => ({
        id: row.id,
        author: {
          id: row.author_id,
          profileName: row.profile_name,
          username: row.username,
          profilePicturePath: row.profile_picture,
        },
        text: row.text,
        createdAt: row.created_at,
        item: row.content_item_id === null ? null : (itemById.get(row.content_item_id) ?? null),
      }));
      return { items: posts, more };
    },
  };
}
