/** Live channel contract (SPEC.md section 4): topic names and their JSON payloads. */
import type { MessageNotification, Notification } from './entities.js';

export const LIVE_TOPICS = {
  notifications: (profileName: string) => `notifications/${profileName}`,
  chatNotifications: (profileName: string) => `chatNotifications/${profileName}`,
  /** Every logged-in page's, the same for all: a remote's release was rolled back (issue 39, item 6). */
  rollbacks: (_profileName?: string) => 'platform/rollbacks',
} as const;

/**
 * A rollback, announced by the release commands through the API as soon as the release store
 * says it: the version taken away, and the one browsers get instead. A page running it reads the
 * discovery document again and switches; the document stays the truth (a page without a live
 * connection learns the same on focus, on a slot's Retry or at its next navigation).
 */
export interface RollbackAnnouncement {
  remote: string;
  version: string;
  to: string | null;
}

export interface LivePayloads {
  notifications: Notification;
  chatNotifications: MessageNotification;
  rollbacks: RollbackAnnouncement;
}

/** Path of the websocket the embedded broker listens on, under the API origin. */
export const LIVE_WEBSOCKET_PATH = '/mqtt';

/** A payload larger than this is not one the server sends; clients drop it unread. */
export const LIVE_MAX_PAYLOAD_BYTES = 16 * 1024;
