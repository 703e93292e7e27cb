import type { Db } from '../../db/database.js';
import { contentTypeOf } from '../../files/paths.js';

/** Profile pictures as the media pipeline makes them: the sources waiting, and what was made. */
export function avatarsRepository(db: Db) {
  return {
    /** A profile picture's source waiting for its media job; undefined once it is made (or without one). */
    async avatarSource(profileName: string): Promise<{ key: string; contentType: string } | undefined> {
      const row = await db
        .selectFrom('users')
        .select('profile_picture_source')
        .where('profile_name', '=', profileName)
        .executeTakeFirst();
      // The server named the source's key (the seed): its extension is the type it wrote.
      const key = row?.profile_picture_source;
      return key ? { key, contentType: contentTypeOf(key) } : undefined;
    },

    /**
     * Serves what the media job made of the picture from `source` (`shownKey`), once: false when
     * another worker did first or the source changed meanwhile.
     */
    async setAvatar(profileName: string, source: string, shownKey: string): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ profile_picture: shownKey, profile_picture_source: null })
        .where('profile_name', '=', profileName)
        .where('profile_picture_source', '=', source)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The profile names whose picture waits for its media job. */
    async avatarsWaiting(): Promise<string[]> {
      const rows = await db
        .selectFrom('users')
        .select('profile_name')
        .where('profile_picture_source', 'is not', null)
        .execute();
      return rows.map((r) => r.profile_name);
    },
  };
}
