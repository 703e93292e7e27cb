// Who holds something in the store (its lock, the watcher's heartbeat), and whether that holder
// still runs.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** This process, told apart from an earlier one with the same pid (a container's node is always PID 1). */
export const PROCESS_ID = randomBytes(8).toString('hex');

/** @typedef {{ host: string, pid: number, id: string }} LockOwner */

/**
 * Whether the process `owner` names has ended: only answerable on the same host (a container has
 * its own host name and process numbers). The same pid with another id is an earlier process.
 * @param {LockOwner} owner
 */
export function ownerGone(owner) {
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return owner.id !== PROCESS_ID;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'ESRCH';
  }
}

/** Who this process is, as a lock's owner file or the watcher's heartbeat names it. @returns {LockOwner} */
export const thisProcess = () => ({ host: hostname(), pid: process.pid, id: PROCESS_ID });
