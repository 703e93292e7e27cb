import type { ContentItem, EventSummary, Post } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import type { SessionUser } from '../http/env.js';
import { type Page, pageOf, pageWindow, likeIgnoringCase } from './sql.js';
import type { FileUrls } from './urls.js';
import type { UsersRepository } from './users.js';

/** An event as a search hit. */
export interface EventRef {
  identifier: string;
  name: string;
  coverUrl: string | null;
}

export type ContentRepository = ReturnType<typeof contentRepository>;

/** Events, the photos and videos in them, and community posts. Items are shaped for the viewer. */
export function contentRepository(db: Db, urls: FileUrls, users: UsersRepository) {
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
        'ci.owner_id',
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
        'u.username as organizer',
        'u.profile_name as organizer_profile_name',
        eb
          .selectFrom('content_items as ci')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('ci.event_id', '=', 'e.id')
          .as('item_count'),
      ]);
  type EventRow = Awaited<ReturnType<ReturnType<typeof eventQuery>['executeTakeFirstOrThrow']>>;

  const toItem = (row: ItemRow, viewer: SessionUser | null): ContentItem => ({
    name: row.name,
    contentIdentifier: row.identifier,
    contentUrl: urls.media(row.stream_path ?? row.file_path) ?? '',
    contentType: row.content_type,
    metadata: { 'Content-Type': row.content_type },
    width: row.width,
    height: row.height,
    thumbnailUrl: urls.media(row.thumbnail_path),
    filePath: row.file_path,
    filename: row.filename,
    eventName: row.event_name,
    eventIdentifier: row.event_identifier,
    photographer: row.owner_username,
    profileName: row.owner_profile_name,
    iconUrl: urls.media(row.owner_picture),
    // Nobody buys their own work.
    canAddToCart: row.for_sale === 1 && row.owner_id !== viewer?.id,
    priceCents: row.price_cents,
  });

  const toEvent = (row: EventRow): EventSummary => ({
    eventIdentifier: row.identifier,
    name: row.name,
    description: row.description,
    location: row.location,
    startsAt: row.starts_at,
    coverUrl: urls.media(row.cover_path),
    organizer: row.organizer,
    organizerProfileName: row.organizer_profile_name,
    itemCount: Number(row.item_count ?? 0),
  });

  return {
    /** Newest first. */
    async events(pageNo: number, limit: number): Promise<Page<EventSummary>> {
      const { limit: rows, offset } = pageWindow(pageNo, limit);
      const found = await eventQuery()
        .orderBy('e.starts_at', 'desc')
        .orderBy('e.id')
        .limit(rows)
        .offset(offset)
        .execute();
      const { items: page, more } = pageOf(found, limit);
      return { items: page.map(toEvent), more };
    },

    async event(identifier: string): Promise<EventSummary | undefined> {
      const row = await eventQuery().where('e.identifier', '=', identifier).executeTakeFirst();
      return row && toEvent(row);
    },

    async eventsOrganizedBy(userId: number): Promise<EventSummary[]> {
      const rows = await eventQuery().where('e.organizer_id', '=', userId).orderBy('e.starts_at', 'desc').execute();
      return rows.map(toEvent);
    },

    /** Events whose name contains the LIKE pattern (any case), newest first. */
    async searchEvents(likePattern: string, limit: number): Promise<EventRef[]> {
      const rows = await db
        .selectFrom('events')
        .select(['identifier', 'name', 'cover_path'])
        .where((eb) => likeIgnoringCase(eb.ref('name'), likePattern))
        .orderBy('starts_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ identifier: row.identifier, name: row.name, coverUrl: urls.media(row.cover_path) }));
    },

    async itemsOfEvent(eventIdentifier: string, viewer: SessionUser | null): Promise<ContentItem[]> {
      const rows = await itemQuery().where('e.identifier', '=', eventIdentifier).orderBy('ci.id').execute();
      return rows.map((row) => toItem(row, viewer));
    },

    async itemsOwnedBy(userId: number, viewer: SessionUser | null): Promise<ContentItem[]> {
      const rows = await itemQuery().where('ci.owner_id', '=', userId).orderBy('ci.id').execute();
      return rows.map((row) => toItem(row, viewer));
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
      const shown = itemIds.length ? await itemQuery().where('ci.id', 'in', itemIds).execute() : [];
      const itemById = new Map(shown.map((item) => [item.id, item]));
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
          contentItem: item ? toItem(item, viewer) : null,
        };
      });
      return { items: posts, more };
    },
  };
}
