import { useCallback, useSyncExternalStore } from 'react';

/** Every kept draft's sessionStorage key starts with this, whichever remote or version wrote it. */
export const KEPT_DRAFT_PREFIX = 'draft:';

/**
 * How long typing must pause before the draft is written to sessionStorage: a write per key
 * (each a synchronous storage call on the main thread) would slow every keystroke.
 */
export const KEPT_DRAFT_WRITE_DELAY_MS = 500;

/**
 * Drafts this page holds that sessionStorage does not: typed and not yet written, or refused by
 * it (private mode, storage turned off, a full quota). null: cleared, although an older copy may
 * still sit in sessionStorage. Every remote of the page reads them through the shell's one copy
 * of this module.
 */
const held = new Map<string, string | null>();
/** Keys whose held text waits for its write. */
const unwritten = new Set<string>();
let writeTimer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Map<string, Set<() => void>>();

/** Call inside a try: reading `window.sessionStorage` itself throws where storage is blocked (a SecurityError). */
function storage(): Storage | null {
  return typeof window === 'undefined' ? null : window.sessionStorage;
}

function read(key: string): string | null {
  if (held.has(key)) return held.get(key) ?? null;
  try {
    return storage()?.getItem(KEPT_DRAFT_PREFIX + key) ?? null;
  } catch {
    return null;
  }
}

/** Writes one key's held text to sessionStorage; where that fails the text stays held, for this page. */
function store(key: string): void {
  unwritten.delete(key);
  const value = held.get(key) ?? null;
  try {
    const kept = storage();
    if (!kept) throw new Error('no sessionStorage');
    if (value === null) kept.removeItem(KEPT_DRAFT_PREFIX + key);
    else kept.setItem(KEPT_DRAFT_PREFIX + key, value);
    held.delete(key);
  } catch {
    // Still held: this page keeps showing it, and the next change tries again.
  }
}

/** Writes every draft typed since the last write: once typing pauses, and as the page is left. */
function writeAll(): void {
  if (writeTimer !== null) clearTimeout(writeTimer);
  writeTimer = null;
  [...unwritten].forEach(store);
}

let leaving = false;
/** The page being left (closed, reloaded, sent to the back-forward cache) or hidden (a phone may end it unseen). */
function writeOnLeaving(): void {
  if (leaving || typeof window === 'undefined') return;
  leaving = true;
  window.addEventListener('pagehide', writeAll);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') writeAll();
  });
}

/** Sets the text at once for every component showing it; sessionStorage gets it once typing pauses. */
function set(key: string, value: string): void {
  held.set(key, value);
  unwritten.add(key);
  writeOnLeaving();
  if (writeTimer !== null) clearTimeout(writeTimer);
  writeTimer = setTimeout(writeAll, KEPT_DRAFT_WRITE_DELAY_MS);
  notify(key);
}

/** Forgets the text, in sessionStorage too, at once: a sent message must never come back. */
function clear(key: string): void {
  held.set(key, null);
  store(key);
  notify(key);
}

function notify(key: string): void {
  listeners.get(key)?.forEach((listener) => listener());
}

/**
 * For tests: forgets the drafts held here and their pending writes, so that a test's typing is
 * neither shown nor written in the next test (which clears sessionStorage for a fresh start).
 */
export function resetKeptDrafts(): void {
  if (writeTimer !== null) clearTimeout(writeTimer);
  writeTimer = null;
  held.clear();
  unwritten.clear();
}

function subscribe(key: string, listener: () => void): () => void {
  const forKey = listeners.get(key) ?? new Set();
  listeners.set(key, forKey);
  forKey.add(listener);
  return () => {
    forKey.delete(listener);
    if (forKey.size === 0) listeners.delete(key);
    // The last component showing it is gone (a remount, the page moving on): written now.
    if (!listeners.has(key) && unwritten.has(key)) store(key);
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
 * Every change shows at once; sessionStorage is written once typing has paused for
 * KEPT_DRAFT_WRITE_DELAY_MS, when the last component using the key unmounts, and when the page
 * is left or hidden.
 *
 * A page rendered on the server renders `initial`, and hydration shows the kept text after it
 * (useSyncExternalStore's server snapshot); a tree mounted in the browser shows it at once.
 */
export function useKeptDraft(
  key: string,
  initial = '',
): [value: string, setValue: (value: string) => void, clear: () => void] {
  const value = useSyncExternalStore(
    useCallback((listener: () => void) => subscribe(key, listener), [key]),
    () => read(key) ?? initial,
    () => initial,
  );
  const setValue = useCallback((next: string) => set(key, next), [key]);
  // Callable after unmount too: a message sent just before a remount must still clear its draft.
  const forget = useCallback(() => clear(key), [key]);
  return [value, setValue, forget];
}
