/** Live channel contract (SPEC.md section 4): topic names and their JSON payloads. */
import type { MessageNotification, Notification } from './entities.js';

export const LIVE_TOPICS = {
  notifications: (profileName: string) => `notifications/${profileName}`,
  chatNotifications: (profileName: string) => `chatNotifications/${profileName}`,
} as const;

export interface LivePayloads {
  notifications: Notification;
  chatNotifications: MessageNotification;
}

/** Path of the websocket the embedded broker listens on, under the API origin. */
export const LIVE_WEBSOCKET_PATH = '/mqtt';

/** A payload larger than this is not one the server sends; clients drop it unread. */
export const LIVE_MAX_PAYLOAD_BYTES = 16 * 1024;
