/**
 * Guards for JSON that arrives from the network outside a request the client made (live
 * messages): a payload that fails its guard is dropped, never handed to React.
 */
import { NOTIFICATION_STATUSES, type MessageNotification, type Notification } from './entities.js';
import type { LivePayloads, RollbackAnnouncement } from './live.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isStatus = (v: unknown) => (NOTIFICATION_STATUSES as readonly unknown[]).includes(v);

export function isNotification(v: unknown): v is Notification {
  return (
    isRecord(v) &&
    Number.isInteger(v.id) &&
    isStatus(v.status) &&
    isString(v.content) &&
    isNullableString(v.link) &&
    isString(v.timestamp)
  );
}

export function isMessageNotification(v: unknown): v is MessageNotification {
  return (
    isRecord(v) &&
    isString(v.profileName) &&
    isString(v.name) &&
    isNullableString(v.profilePicture) &&
    isString(v.content) &&
    isStatus(v.status) &&
    isString(v.timestamp)
  );
}

export function isRollbackAnnouncement(v: unknown): v is RollbackAnnouncement {
  return isRecord(v) && isString(v.remote) && isString(v.version) && isNullableString(v.to);
}

export const LIVE_GUARDS: { [K in keyof LivePayloads]: (v: unknown) => v is LivePayloads[K] } = {
  notifications: isNotification,
  chatNotifications: isMessageNotification,
  rollbacks: isRollbackAnnouncement,
};
