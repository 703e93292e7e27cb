import type { ChatWindowEntry } from '../contract/entities.js';

/** The event a page sends to open a chat window, which the header (which owns the windows) answers. */
export const OPEN_CHAT_EVENT = 'marketplace:open-chat';

/** Asks the header to open a chat with `entry` (a "Message" button on someone's page). */
export function requestChat(entry: ChatWindowEntry): void {
  window.dispatchEvent(new CustomEvent<ChatWindowEntry>(OPEN_CHAT_EVENT, { detail: entry }));
}
