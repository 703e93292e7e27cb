import { createStore } from 'zustand/vanilla';
import { apiCall, type ChatWindowEntry } from '@marketplace/shared';

export interface ChatState {
  /** Open windows, oldest first. */
  chats: ChatWindowEntry[];
  /** Opens a window unless that profile's window is already open (SPEC.md section 4). */
  open(entry: ChatWindowEntry): void;
  /** Removes the window here and tells the server it is closed. */
  close(profileName: string): void;
  /** Forgets every window locally (after logout). */
  reset(): void;
}

/**
 * The header's chat windows. Only the header shows them, so this store is the header's own, not
 * part of the shared session store that other teams' remotes depend on.
 */
export const chatStore = createStore<ChatState>()((set, get) => ({
  chats: [],
  open(entry) {
    if (get().chats.some((c) => c.profileName === entry.profileName)) return;
    set({ chats: [...get().chats, entry] });
  },
  close(profileName) {
    set({ chats: get().chats.filter((c) => c.profileName !== profileName) });
    void apiCall('closeChat', { profileName }).catch(() => undefined);
  },
  reset() {
    set({ chats: [] });
  },
}));
