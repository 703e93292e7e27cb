import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Schema } from '../../db/schema.js';
import { type Derivative, parseMedia, type TargetMedia } from '../../media/derivatives.js';
import { contentTypeOf, isPrivateKey } from '../../files/paths.js';

/**
 * A photo or video whose media job has yet to run: none made yet, or one for sale made before
 * previews were (its pictures, and a video's ladder, are unmarked and public; media/jobs.ts makes
 * them again). Every photo or video for sale made since has `unmarked` in its media
 * (media/derivatives.ts).
 */
const waitingForMedia = (eb: ExpressionBuilder<Schema, 'content_items'>) =>
  eb.or([eb('media', 'is', null), eb.and([eb('for_sale', '=', 1), eb('media', 'not like', '%"unmarked":%')])]);

/** The media pipeline's side of content: the sources waiting for their jobs, and what the jobs made. */
export function contentMediaRepository(db: Db) {
  return {
    /**
     * A photo or video whose media are not made yet (waitingForMedia), with where its source is,
     * whether it is for sale, and the media a new run replaces (a photo or video for sale made before
     * previews were; null for none); undefined once they are made.
     */
    async contentSource(
      contentIdentifier: string,
    ): Promise<{ key: string; contentType: string; forSale: boolean; replaces: TargetMedia | null } | undefined> {
      const row = await db
        .selectFrom('content_items')
        .select(['file_path', 'content_type', 'for_sale', 'media'])
        .where('identifier', '=', contentIdentifier)
        .where(waitingForMedia)
        .executeTakeFirst();
      return (
        row && {
          key: row.file_path,
          contentType: row.content_type,
          forSale: row.for_sale === 1,
          replaces: parseMedia(row.media),
        }
      );
    },

    /** An item's file as its creator uploaded it: where it is stored, its type and its name; undefined for no such item. */
    async original(identifier: string): Promise<{ key: string; contentType: string; fileName: string } | undefined> {
      const row = await db
        .selectFrom('content_items')
        .select(['file_path', 'content_type', 'filename'])
        .where('identifier', '=', identifier)
        .executeTakeFirst();
      return row && { key: row.file_path, contentType: row.content_type, fileName: row.filename };
    },

    /**
     * A photo or video for sale's private files: its unmarked pictures and a video's ladder, each
     * named as a link names it ('1920.jpg', '360p/index.m3u8'); none for another item.
     */
    async privateFiles(identifier: string): Promise<Derivative[]> {
      const row = await db
        .selectFrom('content_items')
        .select('media')
        .where('identifier', '=', identifier)
        .executeTakeFirst();
      const media = parseMedia(row?.media ?? null);
      const ladder = media?.video?.files.filter((f) => isPrivateKey(f.key)) ?? [];
      return [...(media?.unmarked ?? []), ...ladder];
    },

    /** An event's cover whose pictures are not made yet; undefined once they are (or without a cover). */
    async coverSource(eventIdentifier: string): Promise<{ key: string; contentType: string } | undefined> {
      const row = await db
        .selectFrom('events')
        .select('cover_path')
        .where('identifier', '=', eventIdentifier)
        .where('cover_media', 'is', null)
        .executeTakeFirst();
      // The server named the cover's key (the seed): its extension is the type it wrote.
      return row?.cover_path ? { key: row.cover_path, contentType: contentTypeOf(row.cover_path) } : undefined;
    },

    /** Records what was made of a photo, a video or a cover, once: false when another worker did first (or it was made already). */
    async setPublicMedia(kind: 'content' | 'cover', identifier: string, media: TargetMedia): Promise<boolean> {
      const json = JSON.stringify(media);
      const result =
        kind === 'content'
          ? await db
              .updateTable('content_items')
              .set({ media: json })
              .where('identifier', '=', identifier)
              .where(waitingForMedia)
              .executeTakeFirst()
          : await db
              .updateTable('events')
              .set({ cover_media: json })
              .where('identifier', '=', identifier)
              .where('cover_media', 'is', null)
              .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** What is waiting for its media: photos, videos and covers without. */
    async unprocessed(): Promise<{ content: string[]; covers: string[] }> {
      const items = await db.selectFrom('content_items').select('identifier').where(waitingForMedia).execute();
      const events = await db
        .selectFrom('events')
        .select('identifier')
        .where('cover_media', 'is', null)
        .where('cover_path', 'is not', null)
        .execute();
      return { content: items.map((r) => r.identifier), covers: events.map((r) => r.identifier) };
    },
  };
}
