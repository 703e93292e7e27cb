import type { Db } from '../../db/database.js';
import type { SessionUser } from '../../http/env.js';
import { type Page, pageOf, pageWindow, likeIgnoringCase } from '../sql.js';
import { coverOf, type EventCover, type EventRecord, eventQuery, toEventRecord } from './records.js';

/** What an organizer writes of an event. */
interface EventDraft {
  name: string;
  startsAt: string;
  location: string;
  description?: string;
}

/** Events: the published list, one event as a reader or its organizer reads it, and an organizer's writes. */
export function eventsRepository(db: Db) {
  return {
    /** Newest first. */
    async events(pageNo: number, limit: number): Promise<Page<EventRecord>> {
      const { limit: rows, offset } = pageWindow(pageNo, limit);
      const found = await eventQuery(db)
        .where('e.published', '=', 1)
        .orderBy('e.starts_at', 'desc')
        .orderBy('e.id')
        .limit(rows)
        .offset(offset)
        .execute();
      const { items: page, more } = pageOf(found, limit);
      return { items: page.map(toEventRecord), more };
    },

    /** A published event, or a draft to its organizer; undefined to anyone else (as for no such event). */
    async event(identifier: string, viewer: SessionUser | null): Promise<EventRecord | undefined> {
      const row = await eventQuery(db)
        .where('e.identifier', '=', identifier)
        .where((eb) =>
          viewer ? eb.or([eb('e.published', '=', 1), eb('e.organizer_id', '=', viewer.id)]) : eb('e.published', '=', 1),
        )
        .executeTakeFirst();
      return row && toEventRecord(row);
    },

    /**
     * The organizer's events, drafts too, newest first, each with the key of a cover upload
     * waiting for its media job (`coverSource`): whether it arrived is the file store's to say.
     */
    async eventsOrganizedBy(userId: number): Promise<EventRecord[]> {
      const rows = await eventQuery(db).where('e.organizer_id', '=', userId).orderBy('e.starts_at', 'desc').execute();
      return rows.map(toEventRecord);
    },

    /** One event, drafts too, whoever organizes it; undefined for no such event. */
    async ownEvent(identifier: string): Promise<EventRecord | undefined> {
      const row = await eventQuery(db).where('e.identifier', '=', identifier).executeTakeFirst();
      return row && toEventRecord(row);
    },

    /** The identifiers in use that start with `stem` (a new event's identifier is made unique among them). */
    async identifiersLike(stem: string): Promise<string[]> {
      const rows = await db
        .selectFrom('events')
        .select('identifier')
        // A slug has no LIKE wildcards (routes/events.ts slugOf).
        .where('identifier', 'like', `${stem}%`)
        .execute();
      return rows.map((row) => row.identifier);
    },

    /** A new event, a draft; throws a unique violation when another took the identifier meanwhile. */
    async addEvent(organizerId: number, identifier: string, draft: EventDraft): Promise<void> {
      await db
        .insertInto('events')
        .values({
          identifier,
          name: draft.name,
          description: draft.description ?? '',
          location: draft.location,
          starts_at: draft.startsAt,
          cover_path: null,
          organizer_id: organizerId,
          published: 0,
        })
        .execute();
    },

    /** Changes the organizer's event: false when it is not theirs (or not there). */
    async updateEvent(organizerId: number, identifier: string, draft: EventDraft): Promise<boolean> {
      const result = await db
        .updateTable('events')
        .set({
          name: draft.name,
          description: draft.description ?? '',
          location: draft.location,
          starts_at: draft.startsAt,
        })
        .where('identifier', '=', identifier)
        .where('organizer_id', '=', organizerId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async setPublished(organizerId: number, identifier: string, published: boolean): Promise<boolean> {
      const result = await db
        .updateTable('events')
        .set({ published: published ? 1 : 0 })
        .where('identifier', '=', identifier)
        .where('organizer_id', '=', organizerId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Published events whose name contains the LIKE pattern (any case), newest first, with their covers. */
    async searchEvents(
      likePattern: string,
      limit: number,
    ): Promise<{ identifier: string; name: string; cover: EventCover }[]> {
      const rows = await db
        .selectFrom('events')
        .select(['identifier', 'name', 'cover_path', 'cover_media'])
        .where('published', '=', 1)
        .where((eb) => likeIgnoringCase(eb.ref('name'), likePattern))
        .orderBy('starts_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ identifier: row.identifier, name: row.name, cover: coverOf(row) }));
    },
  };
}
