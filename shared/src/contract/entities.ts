/**
 * Entities of SPEC.md section 3 as they travel over the wire, plus the entities of the calls the
 * spec implies (events, posts, profiles, orders, chat). Timestamps are ISO 8601 strings in UTC.
 */

export const ROLES = ['EVENT_ORGANIZER', 'MEDIA', 'DRIVER'] as const;
export type Role = (typeof ROLES)[number];

export const NOTIFICATION_STATUSES = ['NEW', 'UNREAD', 'READ'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** GET /v2/userInfo, and the user part of log in and sign up. */
export interface UserInfo {
  roles: Role[];
  profileName: string;
  profilePicture: string | null;
  username: string;
}

/** The signed-in user's own profile, with the fields settings can change. */
export interface OwnProfile extends UserInfo {
  email: string;
  bio: string;
  createdAt: string;
}

export const CART_ITEM_TYPES = ['CONTENT'] as const;
export type CartItemType = (typeof CART_ITEM_TYPES)[number];

/** Spec: a cart item is its identifier; the rest lets /cart show it without another call. */
export interface CartItem {
  identifier: string;
  itemType: CartItemType;
  name: string;
  thumbnailUrl: string | null;
  /** The item's picture (a photo, a video's poster) as the media pipeline made it; null until then. */
  image: ResponsiveImage | null;
  eventName: string | null;
  /** The server's price, in minor units of `currency`. */
  priceCents: number;
  currency: string;
}

/** A picture as the server made it, for `<picture>`: one `srcset` per format, best first, and the fallback `src`. */
export interface ResponsiveImage {
  width: number;
  height: number;
  /** A tiny blurred image (a data: URL) shown until the picture arrives. */
  placeholder: string;
  sources: { type: string; srcset: string }[];
  src: string;
}

export interface ContentItem {
  name: string;
  contentIdentifier: string;
  /** Image file for photos, HLS playlist (.m3u8) for videos. */
  contentUrl: string;
  contentType: string;
  metadata: { 'Content-Type': string };
  width: number;
  height: number;
  thumbnailUrl: string | null;
  /** Relative to the files host's media folder; with filename, feeds GET /download. */
  filePath: string;
  filename: string;
  eventName: string | null;
  eventIdentifier: string | null;
  photographer: string;
  profileName: string | null;
  iconUrl: string | null;
  canAddToCart: boolean;
  /** The server's price, in minor units of `currency`. */
  priceCents: number;
  currency: string;
  /** A photo, or a video's poster, as the media pipeline made it (widths and formats); null until then. */
  image: ResponsiveImage | null;
  /**
   * The media pipeline is making its files from the upload: contentUrl is empty and thumbnailUrl
   * null until it has (a photo shows its processing state, a video "Video preview is processing").
   */
  processing: boolean;
  /**
   * A video for sale that the reader neither owns nor bought: `image` is its poster's watermarked
   * preview and contentUrl is empty (its ladder is the buyer's). Bought, contentUrl is its ladder
   * by a short-lived signed link.
   */
  locked: boolean;
  /**
   * The file as its creator uploaded it (a camera's JPEG, metadata and all; a video's source), as
   * an attachment by a short-lived signed link: its owner's, and its buyers' (bound to the buyer's
   * account, as on their Purchases page); null for everyone else.
   */
  originalUrl: string | null;
}

export interface Notification {
  id: number;
  status: NotificationStatus;
  content: string;
  link: string | null;
  timestamp: string;
}

export interface MessageNotification {
  /**
   * The chat message that made this entry, on its live message (chatNotifications/{profileName})
   * only: delivery is at least once, and a page drops a message id it has had (issue 40, item 3).
   */
  messageId?: number;
  profileName: string;
  name: string;
  profilePicture: string | null;
  content: string;
  status: NotificationStatus;
  timestamp: string;
}

export interface SearchResult {
  name: string;
  iconUrl: string | null;
  urlLink: string;
}

export interface ChatWindowEntry {
  profileName: string;
  username: string;
  profilePicture: string | null;
}

export interface ChatMessage {
  id: number;
  fromProfileName: string;
  toProfileName: string;
  content: string;
  timestamp: string;
}

export interface EventSummary {
  eventIdentifier: string;
  name: string;
  description: string;
  location: string;
  startsAt: string;
  coverUrl: string | null;
  /** The cover as the media pipeline made it; null until then. */
  cover: ResponsiveImage | null;
  organizer: string;
  organizerProfileName: string;
  itemCount: number;
}

/** An event as its organizer sees it on their events page. */
export interface OwnEvent extends EventSummary {
  /** Listed and public; false for a draft (or a withdrawn event), whose page only its organizer sees. */
  published: boolean;
  /** A cover was uploaded and its media job has not made it yet: `cover` is still the one before. */
  coverProcessing: boolean;
}

/**
 * What an organizer writes of an event. `startsAt` is ISO 8601; `description` may be empty. The
 * event's identifier (its address) is made from the name when it is created and kept after.
 */
export interface EventDraft {
  name: string;
  startsAt: string;
  location: string;
  description?: string;
}

export interface Post {
  id: number;
  author: ChatWindowEntry;
  text: string;
  createdAt: string;
  /** A post may show one content item (photo or video). */
  contentItem: ContentItem | null;
}

export interface PublicProfile {
  profileName: string;
  username: string;
  profilePicture: string | null;
  bio: string;
  roles: Role[];
  memberSince: string;
}

export interface MediaPackage {
  id: number;
  name: string;
  /** What is included. */
  description: string;
  priceCents: number;
  /** Edited photos delivered. */
  photoCount: number;
  videoMinutes: number;
  /** Hours of coverage; 0 when the package does not say. */
  hours: number;
  /** False once its photographer withdrew it: listed to its owner only, and not bookable. */
  active: boolean;
}

export interface DiscountCode {
  id: number;
  code: string;
  /** 1-100 for a percent code; 0 for an amount code. */
  percentOff: number;
  /** What an amount code takes off, in cents; null for a percent code. */
  amountOffCents: number | null;
  expiresAt: string | null;
  /** Paid purchases and bookings it may take off; null: no limit. */
  maxUses: number | null;
  timesUsed: number;
  /** False once its owner withdrew it: refused wherever it is typed. */
  active: boolean;
}

/**
 * A media package as its owner writes it (create, or replace on update). Money in cents; counts
 * are whole numbers. `active` defaults to true on create.
 */
export interface MediaPackageDraft {
  name: string;
  description?: string;
  priceCents: number;
  hours: number;
  photoCount: number;
  videoMinutes?: number;
  active?: boolean;
}

/**
 * A discount code as its owner writes it (create, or replace on update): exactly one of
 * `percentOff` (1-100) and `amountOffCents`; `expiresAt` (an instant, or a date meaning that day's
 * end in UTC) and `maxUses` absent for none.
 */
export interface DiscountCodeDraft {
  code: string;
  percentOff?: number;
  amountOffCents?: number;
  expiresAt?: string;
  maxUses?: number;
  active?: boolean;
}

export interface ContactMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
}
