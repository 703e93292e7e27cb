// The watcher service's heartbeat, in the store: whether one runs decides whether `--watch`
// judges itself or only follows. It is a hint, not state: a watcher wrongly thought dead only
// makes `--watch` evaluate too, and watchStep appends each evaluation once whoever runs it.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownerGone, thisProcess } from './process-identity.mjs';

const HEARTBEAT_FILE = '.watcher.json';

/** @typedef {import('./process-identity.mjs').LockOwner & { time: string, staleAfterMs: number }} Heartbeat */

/** Says a watcher service runs on this store, until `staleAfterMs` from now. @param {string} store @param {number} staleAfterMs */
export function writeHeartbeat(store, staleAfterMs) {
  /** @type {Heartbeat} */
  const beat = { ...thisProcess(), time: new Date().toISOString(), staleAfterMs };
  mkdirSync(store, { recursive: true });
  const tmp = join(store, `${HEARTBEAT_FILE}.${randomBytes(6).toString('hex')}`);
  writeFileSync(tmp, JSON.stringify(beat));
  renameSync(tmp, join(store, HEARTBEAT_FILE));
}

/** @param {string} store @returns {Heartbeat | null} */
function readHeartbeat(store) {
  try {
    return JSON.parse(readFileSync(join(store, HEARTBEAT_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Whether a watcher service runs on this store: its heartbeat is recent and, on this host, its
 * process is alive (one killed here is known dead at once).
 * @param {string} store @param {number} [now]
 */
export function serviceRuns(store, now = Date.now()) {
  const beat = readHeartbeat(store);
  return Boolean(beat && !ownerGone(beat) && now - Date.parse(beat.time) < beat.staleAfterMs);
}

/** Takes this process's heartbeat away as it stops (another service's is left). @param {string} store */
export function clearHeartbeat(store) {
  const beat = readHeartbeat(store);
  const me = thisProcess();
  if (beat?.id === me.id && beat.pid === me.pid) rmSync(join(store, HEARTBEAT_FILE), { force: true });
}
