// `pnpm release <remote> --watch`: follows a canary's evaluations as the history records them,
// running the watcher's step itself while no watcher service runs on the store.
import { canaryState, isStart, lastEvaluation } from './canary-state.mjs';
import { readDiscovery } from './discovery.mjs';
import { readHistory } from './history.mjs';
import { describe, watchStep } from './watch-step.mjs';

/**
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./canary.mjs').Decision} Decision
 * @typedef {import('./watch-step.mjs').Announce} Announce
 */

/** @param {HistoryEntry} e @returns {Decision} */
const decisionOf = (e) =>
  /** @type {Decision} */ ({
    action: e.decision,
    reason: e.reason ?? '',
    ...(e.percent === undefined ? {} : { percent: e.percent }),
  });

/**
 * Follows `remote`'s canary (`pnpm release <remote> --watch`): prints each evaluation as it is
 * appended to the history, until the canary is promoted, rolled back or held inconclusive, or
 * ends otherwise. While `judgeHere()` says so (no watcher service runs on the store), it runs the
 * evaluations itself, with the same step the service runs, so either can take over from the other.
 * Stopping it (Ctrl-C) stops nothing the store holds: a service goes on judging.
 *
 * @param {{ store: string, remote: string, readFigures: (since: string) => Promise<import('./figures.mjs').VersionFigures[]>, judgeHere?: () => boolean, pollMs?: number, sleep?: (ms: number) => Promise<void>, log?: (line: string) => void, now?: () => number, announce?: Announce, pager?: import('./webhook.mjs').Pager }} options
 * @returns {Promise<Decision | null>} the final decision, or null when the canary ended otherwise
 */
export async function followCanary({
  store,
  remote,
  readFigures,
  judgeHere = () => true,
  pollMs = 500,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  log = console.log,
  now = Date.now,
  announce,
  pager,
}) {
  const history = readHistory(store);
  let following = canaryState(readDiscovery(store), history, remote)?.version ?? '';
  // The last evaluation so far is printed too: where a canary under way stands.
  const lastSoFar = history.findLastIndex((e) => e.remote === remote && e.action === 'watch' && e.to === following);
  let printed =
    lastSoFar >= 0 && lastSoFar > history.findLastIndex((e) => isStart(e, remote, following))
      ? lastSoFar
      : history.length;
  /** @type {boolean | null} */
  let judging = null;
  for (;;) {
    const here = judgeHere();
    if (here !== judging) {
      log(
        here
          ? `no watcher service runs on this store: judging ${remote}'s canary here (closing this leaves it unjudged until a service or another --watch runs; its policy is kept in the store)`
          : `the watcher service judges ${remote}'s canary: following its evaluations (closing this does not stop them)`,
      );
      judging = here;
    }
    if (here) await watchStep({ store, remote, readFigures, now, log, announce, pager });
    const history = readHistory(store);
    for (const e of history.slice(printed))
      if (e.remote === remote && (e.action === 'watch' || (e.action === 'unreadable' && e.result === 'canary')))
        log(describe(e));
    printed = history.length;
    const doc = readDiscovery(store);
    const state = canaryState(doc, history, remote);
    if (state?.version === following) {
      if (state.held && state.last) return decisionOf(state.last);
      if (!state.policy) {
        log(`${remote}'s canary ${following} has no watcher's policy: pnpm release ${remote} --watch gives it one`);
        return null;
      }
    } else {
      // The canary followed ended: by its watcher's decision, or otherwise.
      const last = following ? lastEvaluation(history, remote, following) : undefined;
      const live = doc.remotes[remote]?.live?.version;
      if (last?.decision === 'promote' && live === following) return decisionOf(last);
      if (last?.decision === 'rollback' && live !== following) return decisionOf(last);
      if (state?.policy) {
        // Released with its own watch meanwhile: it is judged from its own start.
        log(`${remote}'s canary is now ${state.version}: following it from its own start`);
        following = state.version;
        continue;
      }
      log(
        state
          ? `${remote}'s canary is now ${state.version}, which no watcher judges: stopped following (pnpm release ${remote} --watch to judge it)`
          : `${remote} has no canary under way any more: stopped watching`,
      );
      return null;
    }
    await sleep(pollMs);
  }
}
