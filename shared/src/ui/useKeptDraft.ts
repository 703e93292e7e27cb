import { useCallback, useSyncExternalStore } from 'react';

/** Every kept draft's sessionStorage key starts with this, whichever remote or version wrote it. */
export const KEPT_DRAFT_PREFIX = 'draft:';

/**
 * Drafts this page holds where sessionStorage refused them (private mode, storage turned off, a
 * full quota). null: cleared, although an older copy may still sit in sessionStorage.
 */
const unsaved = new Map<string, string | null>();
const listeners = new Map<string, Set<() => void>>();

/** Call inside a try: reading `window.sessionStorage` itself throws where storage is blocked (a SecurityError). */
function storage(): Storage | null {
  return typeof window === 'undefined' ? null : window.sessionStorage;
}

function read(key: string): string | null {
  if (unsaved.has(key)) return unsaved.get(key) ?? null;
  try {
    return storage()?.getItem(KEPT_DRAFT_PREFIX + key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    const kept = storage();
    if (!kept) throw new Error('no sessionStorage');
    if (value === null) kept.removeItem(KEPT_DRAFT_PREFIX + key);
    else kept.setItem(KEPT_DRAFT_PREFIX + key, value);
    unsaved.delete(key);
  } catch {
    unsaved.set(key, value);
  }
  listeners.get(key)?.forEach((notify) => notify());
}

function subscribe(key: string, notify: () => void): () => void {
  const forKey = listeners.get(key) ?? new Set();
  listeners.set(key, forKey);
  forKey.add(notify);
  return () => {
    forKey.delete(notify);
    if (forKey.size === 0) listeners.delete(key);
  };
}

/**
 * Text the user is typing (a chat message, a search) that outlives the component: when the shell
 * switches a remote to another version (a rollback), the remote's tree remounts and its state is
 * gone, but this tab's sessionStorage is not. Both versions run on the shell's copy of this package,
 * so they read the same keys. Key by whatever the text belongs to (the user, the conversation) so
 * it never shows elsewhere; call `clear` once the text is used (sent, followed), so it never comes
 * back. Without sessionStorage it keeps the text for this page only, and never throws.
 *
 * A page rendered on the server renders `initial`, and hydration shows the kept text after it
 * (useSyncExternalStore's server snapshot); a tree mounted in the browser shows it at once.
 */
export function useKeptDraft(
  key: string,
  initial = '',
): [value: string, setValue: (value: string) => void, clear: () => void] {
  const value = useSyncExternalStore(
    useCallback((notify: () => void) => subscribe(key, notify), [key]),
    () => read(key) ?? initial,
    () => initial,
  );
  const setValue = useCallback((next: string) => write(key, next), [key]);
  // Callable after unmount too: a message sent just before a remount must still clear its draft.
  const clear = useCallback(() => write(key, null), [key]);
  return [value, setValue, clear];
}
