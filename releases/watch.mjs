// The canary watcher (issue "Releases that watch themselves", item 4): every interval, the real-
// user figures of a remote's canary and of its live version since the canary started are judged
// by decideCanary (canary.mjs) and the decision is carried out: wait, hold, step the share up,
// promote, or roll back. Every evaluation goes into the history with its figures.
import { decideCanary } from './canary.mjs';
import { figuresOf } from './figures.mjs';
import {
  appendHistory,
  promote,
  readDiscovery,
  readHistory,
  rollback,
  setCanaryShare,
  withStoreLock,
} from './store.mjs';

/**
 * When the canary under way started: its `canary` line in the history.
 * @param {import('./store.mjs').HistoryEntry[]} history @param {string} remote @param {string} version
 */
export function canaryStart(history, remote, version) {
  const started = history.findLast(
    (e) => e.remote === remote && e.action === 'canary' && e.result === 'canary' && e.to === version,
  );
  return started?.time ?? new Date(Date.now() - 86_400_000).toISOString();
}

/** @param {import('./figures.mjs').VersionFigures} f @returns {import('./store.mjs').Figures} */
const sample = (f) => ({ loads: f.loads, errorLoads: f.errorLoads, errorRate: f.errorRate, p75: f.p75 });

/**
 * Watches `remote`'s canary until it is promoted or rolled back (by this watcher or by hand).
 *
 * @param {{ store: string, remote: string, policy: import('./canary.mjs').Policy, readFigures: (since: string) => Promise<import('./figures.mjs').VersionFigures[]>, sleep?: (ms: number) => Promise<void>, log?: (line: string) => void }} options
 * @returns {Promise<import('./canary.mjs').Decision | null>} the final decision, or null when the canary ended otherwise
 */
export async function watchCanary({
  store,
  remote,
  policy,
  readFigures,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  log = console.log,
}) {
  let healthy = 0;
  /** The canary the healthy count is about: a new canary released meanwhile starts from nothing. */
  let watching = '';
  for (;;) {
    await sleep(policy.intervalSeconds * 1000);
    const entry = readDiscovery(store).remotes[remote];
    if (!entry?.canary || !entry.live) {
      log(`${remote} has no canary under way any more: stopped watching`);
      return null;
    }
    const { canary: canaryPointer, live: livePointer } = entry;
    if (canaryPointer.version !== watching) {
      if (watching) log(`${remote}'s canary is now ${canaryPointer.version}: judging it from its own start`);
      watching = canaryPointer.version;
      healthy = 0;
    }
    /** @type {import('./figures.mjs').VersionFigures[]} */
    let all;
    try {
      all = await readFigures(canaryStart(readHistory(store), remote, canaryPointer.version));
    } catch (error) {
      // The API may be restarting: this interval decides nothing, the next tries again.
      log(
        `figures unavailable (${error instanceof Error ? error.message : String(error)}): trying again next interval`,
      );
      continue;
    }
    const canary = sample(figuresOf(all, remote, canaryPointer.version));
    const live = sample(figuresOf(all, remote, livePointer.version));
    const decision = decideCanary({ canary, live, percent: canaryPointer.percent, healthy, policy });
    await withStoreLock(store, () =>
      appendHistory(store, {
        time: new Date().toISOString(),
        remote,
        action: 'watch',
        from: livePointer.version,
        to: canaryPointer.version,
        result: 'canary',
        percent: canaryPointer.percent,
        decision: decision.action,
        reason: decision.reason,
        figures: { canary, live },
      }),
    );
    log(
      `${remote} canary ${canaryPointer.version} at ${canaryPointer.percent} %: ${decision.action}: ${decision.reason}`,
    );
    // Each change applies only to the canary judged: one released meanwhile is judged next round.
    const judged = { store, remote, reason: `watcher: ${decision.reason}`, canaryVersion: canaryPointer.version };
    try {
      if (decision.action === 'rollback') {
        await rollback(judged);
        return decision;
      }
      if (decision.action === 'promote') {
        await promote(judged);
        return decision;
      }
      if (decision.action === 'step' && decision.percent !== undefined) {
        await setCanaryShare({ ...judged, percent: decision.percent });
        healthy = 0;
      } else if (decision.action === 'hold') {
        healthy += 1;
      }
    } catch (error) {
      log(error instanceof Error ? error.message : String(error));
    }
  }
}
