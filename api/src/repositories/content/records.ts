import type { Db } from '../../db/database.js';
import { parseMedia, type TargetMedia } from '../../media/derivatives.js';

/** An event's cover as stored: a seeded file, or what the media job made of it (null before). */
export interface EventCover {
  path: string | null;
  media: TargetMedia | null;
}

/** A photo or video as stored, with its event (if any) and its owner. */
export interface ItemRecord {
  id: number;
  identifier: string;
  name: string;
  contentType: string;
  width: number;
  height: number;
  filePath: string;
  filename: string;
  streamPath: string | null;
  thumbnailPath: string | null;
  forSale: boolean;
  priceCents: number;
  currency: string;
  ownerId: number;
  /** What the media job made of it; null before. */
  media: TargetMedia | null;
  eventName: string | null;
  eventIdentifier: string | null;
  ownerUsername: string;
  ownerProfileName: string;
  ownerPicturePath: string | null;
}

/** An item as one reader reads it: whether a paid purchase of theirs granted it to them. */
export interface SeenItem extends ItemRecord {
  viewerBought: boolean;
}

/** An event as stored, with its organizer and how many items it shows. */
export interface EventRecord {
  identifier: string;
  name: string;
  description: string;
  location: string;
  startsAt: string;
  cover: EventCover;
  published: boolean;
  /** The key of an uploaded cover waiting for its media job; null for none. */
  coverSource: string | null;
  organizerId: number;
  organizer: string;
  organizerProfileName: string;
  itemCount: number;
}

/** Every content-item query selects these columns, so one mapper reads them all. */
export const itemQuery = (db: Db) =>
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

export const toItemRecord = (row: ItemRow): ItemRecord => ({
  id: row.id,
  identifier: row.identifier,
  name: row.name,
  contentType: row.content_type,
  width: row.width,
  height: row.height,
  filePath: row.file_path,
  filename: row.filename,
  streamPath: row.stream_path,
  thumbnailPath: row.thumbnail_path,
  forSale: row.for_sale === 1,
  priceCents: row.price_cents,
  currency: row.currency,
  ownerId: row.owner_id,
  media: parseMedia(row.media),
  eventName: row.event_name,
  eventIdentifier: row.event_identifier,
  ownerUsername: row.owner_username,
  ownerProfileName: row.owner_profile_name,
  ownerPicturePath: row.owner_picture,
});

/** Every event query selects these columns, so one mapper reads them all. */
export const eventQuery = (db: Db) =>
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

export const coverOf = (row: { cover_path: string | null; cover_media: string | null }): EventCover => ({
  path: row.cover_path,
  media: parseMedia(row.cover_media),
});

export const toEventRecord = (row: EventRow): EventRecord => ({
  identifier: row.identifier,
  name: row.name,
  description: row.description,
  location: row.location,
  startsAt: row.starts_at,
  cover: coverOf(row),
  published: row.published === 1,
  coverSource: row.cover_source,
  organizerId: row.organizer_id,
  organizer: row.organizer,
  organizerProfileName: row.organizer_profile_name,
  itemCount: Number(row.item_count ?? 0),
});
