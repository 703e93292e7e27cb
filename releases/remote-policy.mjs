// A remote's own canary policy, kept in the store: the policy its next canaries are released
// with (`pnpm release <remote> --policy [options]`), the defaults where it says nothing. A canary
// under way keeps the rule it started with (canary-state.mjs, givenPolicy).
import { DEFAULT_POLICY } from './canary-policy.mjs';
import { appendHistory, readHistory } from './history.mjs';
import { withStoreLock } from './lock.mjs';

/**
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./canary-policy.mjs').Policy} Policy
 */

/**
 * The policy `remote`'s next canary starts from: the last one set for it, else the defaults.
 * @param {HistoryEntry[]} history @param {string} remote @returns {Policy}
 */
export function remotePolicy(history, remote) {
  return (
    history.findLast((e) => e.remote === remote && e.action === 'policy' && e.to === null)?.policy ?? DEFAULT_POLICY
  );
}

/**
 * Sets `remote`'s policy for the canaries released after: a `policy` line naming no version.
 * @param {{ store: string, remote: string, policy: Policy }} options @returns {Promise<HistoryEntry>}
 */
export function setRemotePolicy({ store, remote, policy }) {
  return withStoreLock(store, () => {
    /** @type {HistoryEntry} */
    const entry = {
      time: new Date().toISOString(),
      remote,
      action: 'policy',
      from: null,
      to: null,
      result: 'set',
      reason: "the policy of the remote's canaries released after this",
      policy,
    };
    appendHistory(store, entry);
    return entry;
  });
}

/** The policy of `remote`'s canaries as the store holds it. @param {string} store @param {string} remote */
export const storedPolicy = (store, remote) => remotePolicy(readHistory(store), remote);
