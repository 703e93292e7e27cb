// A canary as the release store tells it: its start, policy, evaluations so far and when the next
// is due, and an evaluation a killed watcher left unfinished. Read from the discovery document and
// the history alone, never from a watcher's memory, so that any watcher goes on at the same step.
import { keepingRule } from './canary-policy.mjs';
import { NOTE_ACTIONS } from './history.mjs';

/**
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./canary-policy.mjs').Policy} Policy
 */

/** Whether `e` is the `canary` line that started `remote`'s canary `version`. @param {HistoryEntry} e @param {string} remote @param {string} version */
export const isStart = (e, remote, version) =>
  e.remote === remote && e.action === 'canary' && e.result === 'canary' && e.to === version;

/**
 * When the canary under way started: its `canary` line in the history.
 * @param {HistoryEntry[]} history @param {string} remote @param {string} version
 */
export function canaryStart(history, remote, version) {
  const started = history.findLast((e) => isStart(e, remote, version));
  return started?.time ?? new Date(Date.now() - 86_400_000).toISOString();
}

/**
 * The policy a canary is judged under, from its `canary` line and `policy` lines in order: the
 * last one's pace, shares, deadline and bake, under the rule (alphas, margins) of the first
 * (keepingRule). Evaluations record the policy they used; they do not give one.
 * @param {HistoryEntry[]} lines @returns {Policy | null}
 */
export function givenPolicy(lines) {
  /** @type {Policy | null} */
  let policy = null;
  for (const e of lines)
    if ((e.action === 'canary' || e.action === 'policy') && e.policy)
      policy = policy ? keepingRule(policy, e.policy) : e.policy;
  return policy;
}

/** @param {HistoryEntry} e @returns {e is HistoryEntry & { figures: NonNullable<HistoryEntry['figures']>, percent: number }} */
const isLook = (e) => e.action === 'watch' && Boolean(e.figures) && e.percent !== undefined;

/**
 * The earlier evaluations of a canary, oldest first, from the history's `watch` lines since its
 * `canary` line: the judge's tests are products over every interval, so it needs each one's
 * figures, and reading them from the store (not the watcher's memory) lets a watcher started
 * again go on where the last one stopped.
 * @param {HistoryEntry[]} history @param {string} remote @param {string} version
 * @returns {import('./canary.mjs').Look[]}
 */
export function looksOf(history, remote, version) {
  const start = history.findLastIndex((e) => isStart(e, remote, version));
  return history
    .slice(start + 1)
    .flatMap((e) =>
      e.remote === remote && e.to === version && isLook(e)
        ? [{ percent: e.percent, canary: e.figures.canary, live: e.figures.live }]
        : [],
    );
}

/**
 * A remote's canary as the store tells it, all a watcher needs to take the next step.
 * @typedef {object} CanaryState
 * @property {string} version the canary's version
 * @property {string} live the live version beside it
 * @property {number} percent its share now
 * @property {string} start when it started (its `canary` line): the figures are read since then
 * @property {Policy | null} policy the watcher's policy (its `canary` line's, or the last `policy` line's since, under the rule of the first: givenPolicy); null: a canary nobody watches, ended by hand
 * @property {string} watchedSince when that policy was given
 * @property {import('./canary.mjs').Look[]} looks every evaluation so far, oldest first
 * @property {HistoryEntry | undefined} last the last evaluation
 * @property {boolean} held inconclusive at the deadline under the policy now given: the watcher leaves it to the releaser
 * @property {number} attempts its evaluations and the tries whose figures could not be read (`unreadable`)
 * @property {number} due when the next evaluation is due (ms since the epoch)
 */

/**
 * @param {import('./store.mjs').Discovery} doc @param {HistoryEntry[]} history @param {string} remote
 * @returns {CanaryState | null} null when the remote has no canary
 */
export function canaryState(doc, history, remote) {
  const entry = doc.remotes[remote];
  if (!entry?.canary || !entry.live) return null;
  const { version, percent } = entry.canary;
  const startIndex = history.findLastIndex((e) => isStart(e, remote, version));
  const started = history[startIndex];
  const mine = history.slice(startIndex + 1).filter((e) => e.remote === remote && e.to === version);
  const policy = givenPolicy(started ? [started, ...mine] : mine);
  let watchedSince = started?.policy ? started.time : '';
  let policyAt = -1;
  let lastAt = -1;
  let triedAt = -1;
  let attempts = 0;
  mine.forEach((e, i) => {
    if (e.action === 'policy' && e.policy) {
      watchedSince = e.time;
      policyAt = i;
    }
    if (e.action === 'watch') lastAt = i;
    if (e.action === 'watch' || e.action === 'unreadable') {
      triedAt = i;
      attempts += 1;
    }
  });
  const last = mine[lastAt];
  const held = last?.decision === 'inconclusive' && lastAt > policyAt;
  const at = (/** @type {string | undefined} */ time) => (time ? Date.parse(time) : 0);
  return {
    version,
    live: entry.live.version,
    percent,
    start: started?.time ?? new Date(Date.now() - 86_400_000).toISOString(),
    policy,
    watchedSince,
    looks: mine.flatMap((e) =>
      isLook(e) ? [{ percent: e.percent, canary: e.figures.canary, live: e.figures.live }] : [],
    ),
    last,
    held,
    attempts,
    // An evaluation whose figures could not be read waits an interval too: the next try is the
    // next evaluation, not the next tick (one `unreadable` line an interval, not one every tick).
    due: policy ? Math.max(at(mine[triedAt]?.time), at(watchedSince)) + policy.intervalSeconds * 1000 : Infinity,
  };
}

/**
 * An evaluation whose rollback, promotion or step is not all in the store: its watcher was
 * killed after appending it, before the change (`done` false) or between the change to the
 * discovery document and its history line (`done` true). It is the remote's last line but
 * `policy` ones and notes (a webhook's call, figures unreadable): anything a releaser did since
 * would come after it.
 * @typedef {{ entry: HistoryEntry, stepTo?: number, done: boolean }} Unfinished
 * @param {import('./store.mjs').Discovery} doc @param {HistoryEntry[]} history @param {string} remote
 * @returns {Unfinished | null}
 */
export function unfinished(doc, history, remote) {
  const entry = history.findLast((e) => e.remote === remote && e.action !== 'policy' && !NOTE_ACTIONS.has(e.action));
  if (entry?.action !== 'watch' || !entry.to) return null;
  const { canary, live, rolledBack } = doc.remotes[remote] ?? {};
  const stillCanary = canary?.version === entry.to;
  if (entry.decision === 'rollback')
    return stillCanary || rolledBack?.includes(entry.to) ? { entry, done: !stillCanary } : null;
  if (entry.decision === 'promote')
    return stillCanary || live?.version === entry.to ? { entry, done: !stillCanary } : null;
  if (entry.decision === 'step' && stillCanary) {
    // Lines written before the watch line kept its target: the policy's next share.
    const policy = canaryState(doc, history, remote)?.policy;
    const stepTo = entry.stepTo ?? policy?.steps.find((share) => share > (entry.percent ?? 100));
    return stepTo === undefined ? null : { entry, stepTo, done: canary.percent === stepTo };
  }
  return null;
}

/**
 * The last evaluation of a canary since it started, if any.
 * @param {HistoryEntry[]} history @param {string} remote @param {string} version
 */
export function lastEvaluation(history, remote, version) {
  const start = history.findLastIndex((e) => isStart(e, remote, version));
  return history.slice(start + 1).findLast((e) => e.remote === remote && e.action === 'watch' && e.to === version);
}
