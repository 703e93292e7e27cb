import type { ContentItem, EventSummary, Post } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import type { SessionUser } from '../http/env.js';
import { type Page, pageOf, pageWindow } from './sql.js';
import type { FileUrls } from './urls.js';
import type { UsersRepository } from './users.js';

/** Columns every content-item query selects, so one mapper reads them all. */
const CONTENT_ITEM_SELECT = `
  SELECT ci.id, ci.identifier, ci.name, ci.content_type, ci.width, ci.height, ci.file_path, ci.filename, ci.stream_path,
         ci.thumbnail_path, ci.for_sale, ci.price_cents, ci.owner_id,
         e.name AS event_name, e.identifier AS event_identifier,
         u.username AS owner_username, u.profile_name AS owner_profile_name, u.profile_picture AS owner_picture
  FROM content_items ci
  JOIN users u ON u.id = ci.owner_id
  LEFT JOIN events e ON e.id = ci.event_id`;

interface ContentItemRow {
  id: number;
  identifier: string;
  name: string;
  content_type: string;
  width: number;
  height: number;
  file_path: string;
  filename: string;
  stream_path: string | null;
  thumbnail_path: string | null;
  for_sale: number;
  price_cents: number;
  owner_id: number;
  event_name: string | null;
  event_identifier: string | null;
  owner_username: string;
  owner_profile_name: string | null;
  owner_picture: string | null;
}

const EVENT_SELECT = `
  SELECT e.identifier, e.name, e.description, e.location, e.starts_at, e.cover_path,
         u.username AS organizer, u.profile_name AS organizer_profile_name,
         (SELECT COUNT(*) FROM content_items ci WHERE ci.event_id = e.id) AS item_count
  FROM events e JOIN users u ON u.id = e.organizer_id`;

interface EventRow {
  identifier: string;
  name: string;
  description: string;
  location: string;
  starts_at: string;
  cover_path: string | null;
  organizer: string;
  organizer_profile_name: string;
  item_count: number;
}

/** An event as a search hit. */
export interface EventRef {
  identifier: string;
  name: string;
  coverUrl: string | null;
}

export type ContentRepository = ReturnType<typeof contentRepository>;

/** Events, the photos and videos in them, and community posts. Items are shaped for the viewer. */
export function contentRepository(db: Db, urls: FileUrls, users: UsersRepository) {
  const toItem = (row: ContentItemRow, viewer: SessionUser | null): ContentItem => ({
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
    itemCount: row.item_count,
  });

  const items = (where: string, param: string | number, viewer: SessionUser | null): ContentItem[] =>
    (db.prepare(`${CONTENT_ITEM_SELECT} WHERE ${where} ORDER BY ci.id`).all(param) as ContentItemRow[]).map((row) =>
      toItem(row, viewer),
    );

  return {
    /** Newest first. */
    events(pageNo: number, limit: number): Page<EventSummary> {
      const rows = db
        .prepare(`${EVENT_SELECT} ORDER BY e.starts_at DESC, e.id LIMIT ? OFFSET ?`)
        .all(...pageWindow(pageNo, limit)) as EventRow[];
      const { items: page, more } = pageOf(rows, limit);
      return { items: page.map(toEvent), more };
    },

    event(identifier: string): EventSummary | undefined {
      const row = db.prepare(`${EVENT_SELECT} WHERE e.identifier = ?`).get(identifier) as EventRow | undefined;
      return row && toEvent(row);
    },

    eventsOrganizedBy(userId: number): EventSummary[] {
      return (
        db.prepare(`${EVENT_SELECT} WHERE e.organizer_id = ? ORDER BY e.starts_at DESC`).all(userId) as EventRow[]
      ).map(toEvent);
    },

    /** Events whose name contains the LIKE pattern, newest first. */
    searchEvents(likePattern: string, limit: number): EventRef[] {
      return (
        db
          .prepare(
            "SELECT identifier, name, cover_path FROM events WHERE name LIKE ? ESCAPE '\\' ORDER BY starts_at DESC LIMIT ?",
          )
          .all(likePattern, limit) as { identifier: string; name: string; cover_path: string | null }[]
      ).map((row) => ({ identifier: row.identifier, name: row.name, coverUrl: urls.media(row.cover_path) }));
    },

    itemsOfEvent: (eventIdentifier: string, viewer: SessionUser | null) =>
      items('e.identifier = ?', eventIdentifier, viewer),

    itemsOwnedBy: (userId: number, viewer: SessionUser | null) => items('ci.owner_id = ?', userId, viewer),

    /** Whether an item can be sold at all, and who may not buy it (its owner); undefined for no such item. */
    saleTerms(identifier: string): { ownerId: number; forSale: boolean } | undefined {
      const row = db.prepare('SELECT owner_id, for_sale FROM content_items WHERE identifier = ?').get(identifier) as
        { owner_id: number; for_sale: number } | undefined;
      return row && { ownerId: row.owner_id, forSale: row.for_sale === 1 };
    },

    /** Community posts, newest first, each with its author and the item it shows, if any. */
    posts(pageNo: number, limit: number, viewer: SessionUser | null): Page<Post> {
      const rows = db
        .prepare(
          `SELECT p.id, p.text, p.created_at, p.content_item_id, u.id AS author_id, u.profile_name, u.username, u.profile_picture
           FROM posts p JOIN users u ON u.id = p.author_id ORDER BY p.created_at DESC, p.id DESC LIMIT ? OFFSET ?`,
        )
        .all(...pageWindow(pageNo, limit)) as {
        id: number;
        text: string;
        created_at: string;
        content_item_id: number | null;
        author_id: number;
        profile_name: string;
        username: string;
        profile_picture: string | null;
      }[];
      const { items: page, more } = pageOf(rows, limit);
      const itemStmt = db.prepare(`${CONTENT_ITEM_SELECT} WHERE ci.id = ?`);
      const posts = page.map((row): Post => {
        const item =
          row.content_item_id === null ? undefined : (itemStmt.get(row.content_item_id) as ContentItemRow | undefined);
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
