// The canary watcher (issue "Releases that watch themselves", item 4): every interval, the real-
// user figures of a remote's canary and of its live version since the canary started are judged
// by decideCanary (canary.mjs), together with those of every earlier evaluation of that canary
// (kept in the history), and the decision is carried out: wait, hold, step the share up, promote,
// roll back, or stop at the deadline with the canary held where it is (inconclusive). Every
// evaluation goes into the history with its figures and evidence.
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

/**
 * The earlier evaluations of a canary, oldest first, from the history's `watch` lines since its
 * `canary` line: the judge's tests are products over every interval, so it needs each one's
 * figures, and reading them from the store (not the watcher's memory) lets a watcher started
 * again go on where the last one stopped.
 * @param {import('./store.mjs').HistoryEntry[]} history @param {string} remote @param {string} version
 * @returns {import('./canary.mjs').Look[]}
 */
export function looksOf(history, remote, version) {
  const start = history.findLastIndex(
    (e) => e.remote === remote && e.action === 'canary' && e.result === 'canary' && e.to === version,
  );
  return history
    .slice(start + 1)
    .flatMap((e) =>
      e.remote === remote && e.action === 'watch' && e.to === version && e.figures && e.percent !== undefined
        ? [{ percent: e.percent, canary: e.figures.canary, live: e.figures.live }]
        : [],
    );
}

/** @param {import('./figures.mjs').VersionFigures} f @returns {import('./figures.mjs').Sample} */
const sample = (f) => ({ loads: f.loads, errorLoads: f.errorLoads, p75: f.p75 });

/** Evidence as the history keeps it: 3 digits, and finite (JSON has no Infinity). @param {import('./canary.mjs').Evidence} evidence */
const kept = (evidence) =>
  /** @type {import('./canary.mjs').Evidence} */ (
    Object.fromEntries(Object.entries(evidence).map(([k, v]) => [k, Number(Math.min(v, 1e300).toPrecision(3))]))
  );

/**
 * Watches `remote`'s canary until it is promoted, rolled back (by this watcher or by hand), or
 * inconclusive at the policy's deadline (then left at its share for the releaser).
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
  /** The canary watched: one released meanwhile is judged from its own start (its own looks). */
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
    }
    /** @type {import('./figures.mjs').VersionFigures[]} */
    let all;
    const history = readHistory(store);
    try {
      all = await readFigures(canaryStart(history, remote, canaryPointer.version));
    } catch (error) {
      // The API may be restarting: this interval decides nothing, the next tries again.
      log(
        `figures unavailable (${error instanceof Error ? error.message : String(error)}): trying again next interval`,
      );
      continue;
    }
    const canary = sample(figuresOf(all, remote, canaryPointer.version));
    const live = sample(figuresOf(all, remote, livePointer.version));
    const looks = [
      ...looksOf(history, remote, canaryPointer.version),
      { percent: canaryPointer.percent, canary, live },
    ];
    const decision = decideCanary({ looks, policy });
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
        ...(decision.evidence ? { evidence: kept(decision.evidence) } : {}),
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
      // Inconclusive: the canary stays at its share and the releaser is told (the caller's exit).
      if (decision.action === 'inconclusive') return decision;
      if (decision.action === 'step' && decision.percent !== undefined)
        await setCanaryShare({ ...judged, percent: decision.percent });
    } catch (error) {
      log(error instanceof Error ? error.message : String(error));
    }
  }
}
