// A canary given a watcher's policy after it started: a `policy` line in the history, from which
// the watcher judges it.
import { canaryState } from './canary-state.mjs';
import { readDiscovery } from './discovery.mjs';
import { appendHistory, readHistory } from './history.mjs';
import { withStoreLock } from './lock.mjs';

/**
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./canary-policy.mjs').Policy} Policy
 */

/**
 * Gives the canary under way a watcher's policy (`pnpm release <remote> --watch` on a canary
 * released without one, or held inconclusive: "watch again with a later deadline"): a `policy`
 * line, from which the watcher judges it again, its evaluations so far kept.
 * @param {{ store: string, remote: string, policy: Policy }} options
 * @returns {Promise<HistoryEntry>}
 */
export function watchWith({ store, remote, policy }) {
  return withStoreLock(store, () => {
    const state = canaryState(readDiscovery(store), readHistory(store), remote);
    if (!state) throw new Error(`${remote} has no canary under way`);
    /** @type {HistoryEntry} */
    const entry = {
      time: new Date().toISOString(),
      remote,
      action: 'policy',
      from: state.live,
      to: state.version,
      result: 'canary',
      percent: state.percent,
      reason: `watched every ${policy.intervalSeconds} s, inconclusive after ${policy.deadlineIntervals} evaluations`,
      policy,
    };
    appendHistory(store, entry);
    return entry;
  });
}
