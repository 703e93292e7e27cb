// The store's lock: one release (or one watcher's evaluation) at a time, as a lock directory
// created atomically that names its holder.
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ownerGone, PROCESS_ID, thisProcess } from './process-identity.mjs';

/** @typedef {import('./process-identity.mjs').LockOwner} LockOwner */

const LOCK_DIR = '.lock';
/** Held while a lock left by a dead holder is broken, so that two waiters never both break it. */
const BREAK_DIR = '.lock-break';
const OWNER_FILE = 'owner.json';
/**
 * A lock older than this is broken whoever holds it: its holder is on another host (another
 * container), where its process cannot be asked after, and no release holds it this long.
 */
const STALE_LOCK_MS = 10 * 60_000;
/**
 * How often a holder marks its lock as still held (its folder's time), so that work longer than
 * STALE_LOCK_MS (a slow gate, a smoke load on a loaded machine) is never taken for abandoned.
 */
export const LOCK_REFRESH_MS = 60_000;
/** A lock without its owner file this long was left by a process killed as it took it. */
const UNOWNED_LOCK_MS = 5_000;

/**
 * The stores whose lock the current task holds (its async context): a store function called
 * inside `withStoreLock`'s work (the watcher's rollback after its evaluation) runs in that lock
 * instead of waiting for itself. `held` turns false when the work ends, for anything it left running.
 * @type {AsyncLocalStorage<{ store: string, held: boolean }>}
 */
const lockHeld = new AsyncLocalStorage();

/** @param {string} file @returns {LockOwner | null} */
function readOwner(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Whether the lock folder was left by a holder that cannot release it any more. @param {string} lock */
function abandoned(lock) {
  let age;
  try {
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return false; // released meanwhile
  }
  if (age > STALE_LOCK_MS) return true;
  const owner = readOwner(join(lock, OWNER_FILE));
  return owner ? ownerGone(owner) : age > UNOWNED_LOCK_MS;
}

/**
 * Breaks the lock when its holder died (killed holding it: the watcher service is restarted at
 * once and must not wait out STALE_LOCK_MS), holding a second lock so that two waiters never both
 * break it: one could otherwise remove the lock the other has just taken.
 * @param {string} store
 */
function breakAbandoned(store) {
  const lock = join(store, LOCK_DIR);
  const breaking = join(store, BREAK_DIR);
  if (!abandoned(lock)) return;
  try {
    mkdirSync(breaking);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    // Another waiter breaks it; one that died breaking it leaves its folder, gone after a while.
    try {
      if (Date.now() - statSync(breaking).mtimeMs > UNOWNED_LOCK_MS) rmSync(breaking, { recursive: true, force: true });
    } catch {
      // Removed meanwhile.
    }
    return;
  }
  try {
    // Looked at again: while we held no lock the holder may have released it and another taken it.
    if (abandoned(lock)) rmSync(lock, { recursive: true, force: true });
  } finally {
    rmSync(breaking, { recursive: true, force: true });
  }
}

/**
 * Runs `work` holding the store's lock, so two releases (or two watchers' evaluations) never
 * interleave: the second waits. The lock folder is created atomically and names its holder; one
 * whose holder died is broken (at once on the same host, else when stale). Called again inside
 * `work`, it runs at once (the lock is already this task's).
 *
 * @template T
 * @param {string} store
 * @param {() => Promise<T> | T} work
 * @returns {Promise<T>}
 */
export async function withStoreLock(store, work) {
  const context = lockHeld.getStore();
  if (context?.held && context.store === resolve(store)) return work();
  mkdirSync(store, { recursive: true });
  const lock = join(store, LOCK_DIR);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      breakAbandoned(store);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const held = { store: resolve(store), held: true };
  let named = false;
  /** Whether the lock is still this process's (not broken as stale meanwhile and taken by another). */
  const ours = () => {
    const owner = named ? readOwner(join(lock, OWNER_FILE)) : null;
    return owner?.id === PROCESS_ID && owner.pid === process.pid;
  };
  const refresh = setInterval(() => {
    try {
      if (ours()) utimesSync(lock, new Date(), new Date());
    } catch {
      // Gone meanwhile: the work's end finds it so.
    }
  }, LOCK_REFRESH_MS);
  refresh.unref();
  try {
    writeFileSync(join(lock, OWNER_FILE), JSON.stringify(thisProcess()));
    named = true;
    return await lockHeld.run(held, work);
  } finally {
    clearInterval(refresh);
    held.held = false;
    // Not a lock broken as stale meanwhile and taken by another process: that one is theirs.
    if (!named || ours()) rmSync(lock, { recursive: true, force: true });
  }
}
