import { z } from 'zod';
import type { Post, SearchResult } from '@marketplace/shared/contract';
import { PAGES } from '@marketplace/shared/platform';
import { notFound } from '../http/errors.js';
import { fields, type Router } from '../http/route.js';
import {
  CONTENT_ITEM_SELECT,
  type ContentItemRow,
  EVENT_SELECT,
  type EventRow,
  findUserByProfileName,
  mediaUrl,
  page,
  rolesOf,
  toChatEntry,
  toContentItem,
  toEventSummary,
  type UserRow,
} from '../model.js';
import type { Services } from '../services.js';

const DEFAULT_LIST_LIMIT = 12;
const SEARCH_LIMIT_PER_KIND = 5;

/** Public browsing: search, events, an event's items, community posts, a creator's page. */
export function registerBrowseRoutes(r: Router, { db, config }: Services): void {
  r.visitor('search', z.object({ query: z.string().max(100, 'must be at most 100 characters') }), ({ query }) => {
    const q = query.trim();
    if (!q) return { searchResults: [] };
    // LIKE wildcards typed by the user are matched literally.
    const pattern = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const people = db
      .prepare(
        "SELECT profile_name, username, profile_picture FROM users WHERE username LIKE ? ESCAPE '\\' OR profile_name LIKE ? ESCAPE '\\' ORDER BY username LIMIT ?",
      )
      .all(pattern, pattern, SEARCH_LIMIT_PER_KIND) as { profile_name: string; username: string; profile_picture: string | null }[];
    const events = db
      .prepare("SELECT identifier, name, cover_path FROM events WHERE name LIKE ? ESCAPE '\\' ORDER BY starts_at DESC LIMIT ?")
      .all(pattern, SEARCH_LIMIT_PER_KIND) as { identifier: string; name: string; cover_path: string | null }[];
    const searchResults: SearchResult[] = [
      ...people.map((p) => ({ name: p.username, iconUrl: mediaUrl(config, p.profile_picture), urlLink: PAGES.creator.href({ profileName: p.profile_name }) })),
      ...events.map((e) => ({ name: e.name, iconUrl: mediaUrl(config, e.cover_path), urlLink: PAGES.event.href({ eventIdentifier: e.identifier }) })),
    ];
    return { searchResults };
  });

  r.visitor('getEvents', z.object({ pageNo: fields.pageNo(), limit: fields.limit() }), ({ pageNo = 0, limit = DEFAULT_LIST_LIMIT }) => {
    const rows = db.prepare(`${EVENT_SELECT} ORDER BY e.starts_at DESC, e.id LIMIT ? OFFSET ?`).all(limit + 1, pageNo * limit) as EventRow[];
    const { items, more } = page(rows, limit);
    return { events: items.map((row) => toEventSummary(config, row)), more };
  });

  r.visitor('getEvent', z.object({ eventIdentifier: fields.text(100) }), ({ eventIdentifier }, { user }) => {
    const row = db.prepare(`${EVENT_SELECT} WHERE e.identifier = ?`).get(eventIdentifier) as EventRow | undefined;
    if (!row) throw notFound('Event');
    const items = db.prepare(`${CONTENT_ITEM_SELECT} WHERE e.identifier = ? ORDER BY ci.id`).all(eventIdentifier) as ContentItemRow[];
    return { event: toEventSummary(config, row), contentItems: items.map((item) => toContentItem(config, item, user)) };
  });

  r.visitor('getPosts', z.object({ pageNo: fields.pageNo(), limit: fields.limit() }), ({ pageNo = 0, limit = DEFAULT_LIST_LIMIT }, { user }) => {
    const rows = db
      .prepare(
        `SELECT p.id, p.text, p.created_at, p.content_item_id, u.id AS author_id, u.profile_name, u.username, u.profile_picture
         FROM posts p JOIN users u ON u.id = p.author_id ORDER BY p.created_at DESC, p.id DESC LIMIT ? OFFSET ?`,
      )
      .all(limit + 1, pageNo * limit) as ({ text: string; created_at: string; content_item_id: number | null; author_id: number } & UserRow & { id: number })[];
    const { items, more } = page(rows, limit);
    const itemStmt = db.prepare(`${CONTENT_ITEM_SELECT} WHERE ci.id = ?`);
    const posts: Post[] = items.map((row) => {
      const item = row.content_item_id === null ? undefined : (itemStmt.get(row.content_item_id) as ContentItemRow | undefined);
      return {
        id: row.id,
        author: toChatEntry(config, { ...row, id: row.author_id }),
        text: row.text,
        createdAt: row.created_at,
        contentItem: item ? toContentItem(config, item, user) : null,
      };
    });
    return { posts, more };
  });

  r.visitor('getProfile', z.object({ profileName: fields.text(30) }), ({ profileName }, { user }) => {
    const row = findUserByProfileName(db, profileName);
    if (!row) throw notFound('Profile');
    const extra = db.prepare('SELECT bio, created_at FROM users WHERE id = ?').get(row.id) as { bio: string; created_at: string };
    const items = db.prepare(`${CONTENT_ITEM_SELECT} WHERE ci.owner_id = ? ORDER BY ci.id`).all(row.id) as ContentItemRow[];
    return {
      profile: {
        profileName: row.profile_name,
        username: row.username,
        profilePicture: mediaUrl(config, row.profile_picture),
        bio: extra.bio,
        roles: rolesOf(db, row.id),
        memberSince: extra.created_at,
      },
      contentItems: items.map((item) => toContentItem(config, item, user)),
    };
  });
}
