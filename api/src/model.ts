/** Row-to-contract mappers used by more than one route, so each shape is built in one place. */
import type { ChatWindowEntry, ContentItem, EventSummary, Role, UserInfo } from '@marketplace/shared/contract';
import { FILES_PATHS } from '@marketplace/shared/contract';
import type { ApiConfig } from './config.js';
import type { Db } from './db/database.js';
import type { SessionUser } from './http/env.js';

export function mediaUrl(config: ApiConfig, relativePath: string | null): string | null {
  if (!relativePath) return null;
  return `${config.filesOrigin}${FILES_PATHS.media}/${relativePath.split('/').map(encodeURIComponent).join('/')}`;
}

export function rolesOf(db: Db, userId: number): Role[] {
  const rows = db.prepare('SELECT role FROM user_roles WHERE user_id = ? ORDER BY role').all(userId) as { role: Role }[];
  return rows.map((r) => r.role);
}

export function toUserInfo(config: ApiConfig, user: Pick<SessionUser, 'profileName' | 'username' | 'profilePicturePath' | 'roles'>): UserInfo {
  return {
    roles: user.roles,
    profileName: user.profileName,
    profilePicture: mediaUrl(config, user.profilePicturePath),
    username: user.username,
  };
}

export interface UserRow {
  id: number;
  profile_name: string;
  username: string;
  profile_picture: string | null;
}

export function findUserByProfileName(db: Db, profileName: string): UserRow | undefined {
  return db.prepare('SELECT id, profile_name, username, profile_picture FROM users WHERE profile_name = ?').get(profileName) as
    | UserRow
    | undefined;
}

export function toChatEntry(config: ApiConfig, row: UserRow): ChatWindowEntry {
  return { profileName: row.profile_name, username: row.username, profilePicture: mediaUrl(config, row.profile_picture) };
}

/** Columns every content-item query selects, so toContentItem can map any of them. */
export const CONTENT_ITEM_SELECT = `
  SELECT ci.id, ci.identifier, ci.name, ci.content_type, ci.width, ci.height, ci.file_path, ci.filename, ci.stream_path,
         ci.thumbnail_path, ci.for_sale, ci.price_cents, ci.owner_id,
         e.name AS event_name, e.identifier AS event_identifier,
         u.username AS owner_username, u.profile_name AS owner_profile_name, u.profile_picture AS owner_picture
  FROM content_items ci
  JOIN users u ON u.id = ci.owner_id
  LEFT JOIN events e ON e.id = ci.event_id`;

export interface ContentItemRow {
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

export function toContentItem(config: ApiConfig, row: ContentItemRow, viewer: SessionUser | null): ContentItem {
  return {
    name: row.name,
    contentIdentifier: row.identifier,
    contentUrl: mediaUrl(config, row.stream_path ?? row.file_path) ?? '',
    contentType: row.content_type,
    metadata: { 'Content-Type': row.content_type },
    width: row.width,
    height: row.height,
    thumbnailUrl: mediaUrl(config, row.thumbnail_path),
    filePath: row.file_path,
    filename: row.filename,
    eventName: row.event_name,
    eventIdentifier: row.event_identifier,
    photographer: row.owner_username,
    profileName: row.owner_profile_name,
    iconUrl: mediaUrl(config, row.owner_picture),
    // Nobody buys their own work.
    canAddToCart: row.for_sale === 1 && row.owner_id !== viewer?.id,
    priceCents: row.price_cents,
  };
}

export const EVENT_SELECT = `
  SELECT e.identifier, e.name, e.description, e.location, e.starts_at, e.cover_path,
         u.username AS organizer, u.profile_name AS organizer_profile_name,
         (SELECT COUNT(*) FROM content_items ci WHERE ci.event_id = e.id) AS item_count
  FROM events e JOIN users u ON u.id = e.organizer_id`;

export interface EventRow {
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

export function toEventSummary(config: ApiConfig, row: EventRow): EventSummary {
  return {
    eventIdentifier: row.identifier,
    name: row.name,
    description: row.description,
    location: row.location,
    startsAt: row.starts_at,
    coverUrl: mediaUrl(config, row.cover_path),
    organizer: row.organizer,
    organizerProfileName: row.organizer_profile_name,
    itemCount: row.item_count,
  };
}

/** Reads one page of `limit` rows plus one, to tell whether more exist without a COUNT. */
export function page<T>(rows: T[], limit: number): { items: T[]; more: boolean } {
  return { items: rows.slice(0, limit), more: rows.length > limit };
}

export const nowIso = () => new Date().toISOString();
