import type { Db } from '../../db/database.js';
import { parseMedia, type TargetMedia } from '../../media/derivatives.js';

/** An organizer's cover uploads: where the next one goes, and the cover made of it. */
export function coverUploadsRepository(db: Db) {
  return {
    /** Names where the organizer's next cover upload goes; answers the key it replaces (an upload never made, or not yet processed), if any. */
    async startCoverUpload(organizerId: number, identifier: string, key: string): Promise<string | null | undefined> {
      const row = await db
        .selectFrom('events')
        .select('cover_source')
        .where('identifier', '=', identifier)
        .where('organizer_id', '=', organizerId)
        .executeTakeFirst();
      if (!row) return undefined;
      await db
        .updateTable('events')
        .set({ cover_source: key })
        .where('identifier', '=', identifier)
        .where('organizer_id', '=', organizerId)
        .execute();
      return row.cover_source;
    },

    /** The key an event's uploaded cover waits under for its media job; undefined for none. */
    async uploadedCover(identifier: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('events')
        .select('cover_source')
        .where('identifier', '=', identifier)
        .executeTakeFirst();
      return row?.cover_source ?? undefined;
    },

    /**
     * Records the cover made of the upload at `source`, once, in place of the one before: the
     * media it replaced (null for none) or undefined when another worker (or a newer upload) came first.
     */
    async setUploadedCover(
      identifier: string,
      source: string,
      media: TargetMedia,
    ): Promise<{ replaced: TargetMedia | null } | undefined> {
      const before = await db
        .selectFrom('events')
        .select('cover_media')
        .where('identifier', '=', identifier)
        .executeTakeFirst();
      const result = await db
        .updateTable('events')
        .set({ cover_media: JSON.stringify(media), cover_path: null, cover_source: null })
        .where('identifier', '=', identifier)
        .where('cover_source', '=', source)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n ? { replaced: parseMedia(before?.cover_media ?? null) } : undefined;
    },

    /** Forgets an uploaded cover the media job refused: false when a newer upload replaced it meanwhile. */
    async dropCoverSource(identifier: string, source: string): Promise<boolean> {
      const result = await db
        .updateTable('events')
        .set({ cover_source: null })
        .where('identifier', '=', identifier)
        .where('cover_source', '=', source)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
