import type { ExpressionBuilder } from 'kysely';
import type { ContentItem, EventSummary, OwnEvent, Post } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import type { Schema } from '../db/schema.js';
import type { SessionUser } from '../http/env.js';
import { type Page, pageOf, pageWindow, likeIgnoringCase } from './sql.js';
import type { FileUrls } from './urls.js';
import {
  type Derivative,
  largestJpeg,
  MASTER_PLAYLIST,
  parseMedia,
  pictureOf,
  type TargetMedia,
  thumbnailJpeg,
  unmarkedOf,
} from '../media/derivatives.js';
import { contentTypeOf, isPrivateKey } from '../files/paths.js';
import { ORIGINAL_FILE } from '../files/contentFileLinks.js';
import type { PurchasesRepository } from './purchases.js';
import type { UsersRepository } from './users.js';

/** An event as a search hit. */
export interface EventRef {
  identifier: string;
  name: string;
  coverUrl: string | null;
}

/** A photo or video as a search hit: where it is shown (its event, else its creator's page) and its thumbnail. */
export interface ItemRef {
  identifier: string;
  name: string;
  eventIdentifier: string | null;
  ownerProfileName: string;
  thumbnailUrl: string | null;
}

export type ContentRepository = ReturnType<typeof contentRepository>;

/**
 * A photo or video whose media job has yet to run: none made yet, or one for sale made before
 * previews were (its pictures, and a video's ladder, are unmarked and public; media/jobs.ts makes
 * them again). Every photo or video for sale made since has `unmarked` in its media
 * (media/derivatives.ts).
 */
const waitingForMedia = (eb: ExpressionBuilder<Schema, 'content_items'>) =>
  eb.or([eb('media', 'is', null), eb.and([eb('for_sale', '=', 1), eb('media', 'not like', '%"unmarked":%')])]);

/** Events, the photos and videos in them, and community posts. Items are shaped for the viewer. */
export function contentRepository(db: Db, urls: FileUrls, users: UsersRepository, purchases: PurchasesRepository) {
  /** Every content-item query selects these columns, so one mapper reads them all. */
  const itemQuery = () =>
    db
      .selectFrom('content_items as ci')
      .innerJoin('users as u', 'u.id', 'ci.owner_id')
      .leftJoin('events as e', 'e.id', 'ci.event_id')
      .select([
        'ci.id',
        'ci.identifier',
        'ci.name',
        'ci.content_type',
        'ci.width',
        'ci.height',
        'ci.file_path',
        'ci.filename',
        'ci.stream_path',
        'ci.thumbnail_path',
        'ci.for_sale',
        'ci.price_cents',
        'ci.currency',
        'ci.owner_id',
        'ci.media',
        'e.name as event_name',
        'e.identifier as event_identifier',
        'u.username as owner_username',
        'u.profile_name as owner_profile_name',
        'u.profile_picture as owner_picture',
      ]);
  type ItemRow = Awaited<ReturnType<ReturnType<typeof itemQuery>['executeTakeFirstOrThrow']>>;

  const eventQuery = () =>
    db
      .selectFrom('events as e')
      .innerJoin('users as u', 'u.id', 'e.organizer_id')
      .select((eb) => [
        'e.identifier',
        'e.name',
        'e.description',
        'e.location',
        'e.starts_at',
        'e.cover_path',
        'e.cover_media',
        'e.published',
        'e.cover_source',
        'e.organizer_id',
        'u.username as organizer',
        'u.profile_name as organizer_profile_name',
        eb
          .selectFrom('content_items as ci')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('ci.event_id', '=', 'e.id')
          .as('item_count'),
      ]);
  type EventRow = Awaited<ReturnType<ReturnType<typeof eventQuery>['executeTakeFirstOrThrow']>>;

  /** Public media's files are served at their immutable /media URLs. */
  const publicUrl = (d: Derivative) => urls.media(d.key) ?? '';

  /**
   * What a page shows of an item: the files the media job made, once it made them; before that,
   * a seeded file served as it is (the API's tests), or nothing while the source waits where it is
   * never served (`sources/`): the item is processing. A photo for sale is its watermarked preview,
   * but to its owner and its buyers (`unmarked`): its unmarked pictures, by signed links.
   */
  const shownFiles = (row: ItemRow, unmarked: boolean) => {
    const media = parseMedia(row.media);
    if (media) {
      const clean = unmarked ? unmarkedOf(media) : null;
      const shown = clean ?? media;
      const urlOf = clean ? (d: Derivative) => urls.contentFile(row.identifier, d.name) : publicUrl;
      const largest = largestJpeg(shown);
      const thumbnail = thumbnailJpeg(shown);
      const master = media.video?.files.find((f) => f.name === MASTER_PLAYLIST);
      // A video for sale's ladder is private: its owner and buyers play it by a signed link, and
      // everyone else is shown its poster's preview (locked). One made before previews were has
      // a public ladder until its job runs again: shown to them only, meanwhile.
      const madeBefore = master !== undefined && row.for_sale === 1 && !media.unmarked;
      const ladder = !master
        ? null
        : !isPrivateKey(master.key) && (unmarked || !madeBefore)
          ? (urls.media(master.key) ?? '')
          : clean
            ? urls.contentFile(row.identifier, master.name)
            : '';
      return {
        contentUrl: ladder ?? (largest ? urlOf(largest) : ''),
        locked: ladder === '',
        thumbnailUrl: thumbnail ? urlOf(thumbnail) : null,
        width: media.width,
        height: media.height,
        // A key /download serves, so a public one (of a photo for sale, the preview's) whoever reads it.
        filePath: media.video ? '' : (largestJpeg(media)?.key ?? ''),
        image: pictureOf(shown, urlOf),
        processing: false,
      };
    }
    const waiting = isPrivateKey(row.file_path);
    return {
      contentUrl: waiting ? '' : (urls.media(row.stream_path ?? row.file_path) ?? ''),
      thumbnailUrl: waiting ? null : urls.media(row.thumbnail_path),
      width: row.width,
      height: row.height,
      filePath: waiting ? '' : row.file_path,
      image: null,
      locked: false,
      processing: waiting,
    };
  };

  /** An event's cover: the pictures made of it; before that, a seeded one, or none while its source waits in `sources/`. */
  const shownCover = (row: Pick<EventRow, 'cover_path' | 'cover_media'>) => {
    const media = parseMedia(row.cover_media);
    if (media) return { coverUrl: urls.media(largestJpeg(media)?.key ?? null), cover: pictureOf(media, publicUrl) };
    return {
      coverUrl: row.cover_path && !isPrivateKey(row.cover_path) ? urls.media(row.cover_path) : null,
      cover: null,
    };
  };

  /**
   * The items of `rows` the viewer bought, asked once for a page's items rather than once per item.
   */
  const boughtAmong = async (rows: readonly ItemRow[], viewer: SessionUser | null): Promise<ReadonlySet<string>> => {
    const candidates = rows.filter((row) => row.for_sale === 1 && row.owner_id !== viewer?.id).map((r) => r.identifier);
    if (!viewer || candidates.length === 0) return new Set();
    return purchases.ownedAmong(viewer.id, candidates);
  };

  /** The rows as `viewer` sees them: an item for sale unmarked to its owner and to whoever bought it. */
  const toItems = async (rows: readonly ItemRow[], viewer: SessionUser | null): Promise<ContentItem[]> => {
    const bought = await boughtAmong(rows, viewer);
    return rows.map((row) => {
      const owns = row.owner_id === viewer?.id;
      // The original: the owner's by a link to the item's file; a buyer's by a link bound to the
      // buyer, which another account's session cannot use and which is checked against what they own.
      const originalUrl = owns
        ? urls.contentFile(row.identifier, ORIGINAL_FILE)
        : viewer && bought.has(row.identifier)
          ? urls.purchased(viewer.id, row.identifier)
          : null;
      return toItem(row, viewer, owns || bought.has(row.identifier), originalUrl);
    });
  };

  const toItem = (
    row: ItemRow,
    viewer: SessionUser | null,
    unmarked: boolean,
    originalUrl: string | null,
  ): ContentItem => ({
    name: row.name,
    contentIdentifier: row.identifier,
    contentType: row.content_type,
    metadata: { 'Content-Type': row.content_type },
    ...shownFiles(row, unmarked),
    originalUrl,
    filename: row.filename,
    eventName: row.event_name,
    eventIdentifier: row.event_identifier,
    photographer: row.owner_username,
    profileName: row.owner_profile_name,
    iconUrl: urls.media(row.owner_picture),
    // Nobody buys their own work.
    canAddToCart: row.for_sale === 1 && row.owner_id !== viewer?.id,
    priceCents: row.price_cents,
    currency: row.currency,
  });

  const toEvent = (row: EventRow): EventSummary => ({
    eventIdentifier: row.identifier,
    name: row.name,
    description: row.description,
    location: row.location,
    startsAt: row.starts_at,
    ...shownCover(row),
    organizer: row.organizer,
    organizerProfileName: row.organizer_profile_name,
    itemCount: Number(row.item_count ?? 0),
  });

  const toOwnEvent = (row: EventRow, coverProcessing: boolean): OwnEvent => ({
    ...toEvent(row),
    published: row.published === 1,
    coverProcessing,
  });

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

    /** Newest first. */
    async events(pageNo: number, limit: number): Promise<Page<EventSummary>> {
      const { limit: rows, offset } = pageWindow(pageNo, limit);
      const found = await eventQuery()
        .where('e.published', '=', 1)
        .orderBy('e.starts_at', 'desc')
        .orderBy('e.id')
        .limit(rows)
        .offset(offset)
        .execute();
      const { items: page, more } = pageOf(found, limit);
      return { items: page.map(toEvent), more };
    },

    /** A published event, or a draft to its organizer; undefined to anyone else (as for no such event). */
    async event(identifier: string, viewer: SessionUser | null): Promise<EventSummary | undefined> {
      const row = await eventQuery()
        .where('e.identifier', '=', identifier)
        .where((eb) =>
          viewer ? eb.or([eb('e.published', '=', 1), eb('e.organizer_id', '=', viewer.id)]) : eb('e.published', '=', 1),
        )
        .executeTakeFirst();
      return row && toEvent(row);
    },

    /**
     * The organizer's events, drafts too, newest first, each with the key of a cover upload
     * waiting for its media job (null for none): whether it arrived is the file store's to say.
     */
    async eventsOrganizedBy(userId: number): Promise<{ event: OwnEvent; coverSource: string | null }[]> {
      const rows = await eventQuery().where('e.organizer_id', '=', userId).orderBy('e.starts_at', 'desc').execute();
      return rows.map((row) => ({ event: toOwnEvent(row, row.cover_source !== null), coverSource: row.cover_source }));
    },

    /** One event as its organizer sees it; undefined for no such event. */
    async ownEvent(identifier: string): Promise<(OwnEvent & { organizerId: number }) | undefined> {
      const row = await eventQuery().where('e.identifier', '=', identifier).executeTakeFirst();
      return row && { ...toOwnEvent(row, row.cover_source !== null), organizerId: row.organizer_id };
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
    async addEvent(
      organizerId: number,
      identifier: string,
      draft: { name: string; startsAt: string; location: string; description?: string },
    ): Promise<void> {
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
    async updateEvent(
      organizerId: number,
      identifier: string,
      draft: { name: string; startsAt: string; location: string; description?: string },
    ): Promise<boolean> {
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

    /**
     * Events whose name contains the LIKE pattern (any case), newest first, each with the cover
     * URL the events list and the event page show (the media pipeline's, never a waiting source).
     */
    async searchEvents(likePattern: string, limit: number): Promise<EventRef[]> {
      const rows = await db
        .selectFrom('events')
        .select(['identifier', 'name', 'cover_path', 'cover_media'])
        .where('published', '=', 1)
        .where((eb) => likeIgnoringCase(eb.ref('name'), likePattern))
        .orderBy('starts_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ identifier: row.identifier, name: row.name, coverUrl: shownCover(row).coverUrl }));
    },

    /**
     * Photos and videos whose name contains the LIKE pattern (any case), newest first, outside
     * draft events, each with the thumbnail a visitor's gallery shows (a preview of one for sale).
     */
    async searchItems(likePattern: string, limit: number): Promise<ItemRef[]> {
      const rows = await itemQuery()
        .where((eb) => likeIgnoringCase(eb.ref('ci.name'), likePattern))
        .where((eb) => eb.or([eb('ci.event_id', 'is', null), eb('e.published', '=', 1)]))
        .orderBy('ci.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        identifier: row.identifier,
        name: row.name,
        eventIdentifier: row.event_identifier,
        ownerProfileName: row.owner_profile_name,
        thumbnailUrl: shownFiles(row, false).thumbnailUrl,
      }));
    },

    async itemsOfEvent(eventIdentifier: string, viewer: SessionUser | null): Promise<ContentItem[]> {
      const rows = await itemQuery().where('e.identifier', '=', eventIdentifier).orderBy('ci.id').execute();
      return toItems(rows, viewer);
    },

    async itemsOwnedBy(userId: number, viewer: SessionUser | null): Promise<ContentItem[]> {
      const rows = await itemQuery().where('ci.owner_id', '=', userId).orderBy('ci.id').execute();
      return toItems(rows, viewer);
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

    /** Community posts, newest first, each with its author and the item it shows, if any. */
    async posts(pageNo: number, limit: number, viewer: SessionUser | null): Promise<Page<Post>> {
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
      const shownRows = itemIds.length ? await itemQuery().where('ci.id', 'in', itemIds).execute() : [];
      const shown = await toItems(shownRows, viewer);
      const itemById = new Map(shownRows.map((row, i) => [row.id, shown[i]]));
      const posts = page.map((row): Post => {
        const item = row.content_item_id === null ? undefined : itemById.get(row.content_item_id);
        return {
          id: row.id,
          author: users.chatEntry({
            id: row.author_id,
            profileName: row.profile_name,
            username: row.username,
            profilePicturePath: row.profile_picture,
          }),
          text: row.text,
          createdAt: row.created_at,
          contentItem: item ?? null,
        };
      });
      return { items: posts, more };
    },
  };
}
