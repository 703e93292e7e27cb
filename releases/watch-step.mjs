// The watcher's step: from the store alone, finishes what a killed watcher left undone, else
// evaluates the canary once when an evaluation is due: its figures read, judged by decideCanary
// (canary.mjs) with every earlier evaluation, appended to the history and carried out. The
// service (watcher-service.mjs) and `pnpm release --watch` (follow.mjs) run this same step.
// eslint-disable-next-line import-x/no-relative-packages -- the watcher runs in the API's image, without releases' dependencies
import { messageOf } from '../shared/node/errors.mjs';
import { decideCanary } from './canary.mjs';
import { canaryState, unfinished } from './canary-state.mjs';
import { promote, rollback, setCanaryShare } from './changes.mjs';
import { readDiscovery } from './discovery.mjs';
import { figuresOf } from './figures.mjs';
import { appendHistory, readHistory } from './history.mjs';
import { withStoreLock } from './lock.mjs';

/**
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./canary-state.mjs').Unfinished} Unfinished
 * @typedef {(rollback: { remote: string, version: string, to: string | null }) => Promise<string | null>} Announce
 */

/**
 * Finishes what a killed watcher left unfinished: the change, or only its history line (as the
 * store's function would have written it), so the history reads as if it had never stopped.
 * @param {string} store @param {Unfinished} left
 */
async function finish(store, left) {
  const { entry, stepTo, done } = left;
  if (!done) return carryOut(store, entry, stepTo);
  const line = { time: new Date().toISOString(), remote: entry.remote, reason: `watcher: ${entry.reason}` };
  const live = readDiscovery(store).remotes[entry.remote]?.live?.version ?? null;
  if (entry.decision === 'rollback')
    appendHistory(store, { ...line, action: 'rollback', from: entry.to, to: live, result: 'dropped' });
  if (entry.decision === 'promote')
    appendHistory(store, { ...line, action: 'promote', from: entry.from, to: entry.to, result: 'live' });
  if (entry.decision === 'step')
    appendHistory(store, { ...line, action: 'step', from: live, to: entry.to, result: 'canary', percent: stepTo });
}

/** @param {import('./figures.mjs').VersionFigures} f @returns {import('./figures.mjs').Sample} */
const sample = (f) => ({ loads: f.loads, errorLoads: f.errorLoads, p75: f.p75 });

/** Evidence as the history keeps it: 3 digits, and finite (JSON has no Infinity). @param {import('./canary.mjs').Evidence} evidence */
const kept = (evidence) =>
  /** @type {import('./canary.mjs').Evidence} */ (
    Object.fromEntries(Object.entries(evidence).map(([k, v]) => [k, Number(Math.min(v, 1e300).toPrecision(3))]))
  );

/** An evaluation as people read it (the service's log, `--watch`'s output). @param {HistoryEntry} e */
export const describe = (e) => `${e.remote} canary ${e.to} at ${e.percent} %: ${e.decision}: ${e.reason}`;

/**
 * Carries out an evaluation's rollback, promotion or step, on the canary it judged only.
 * @param {string} store @param {HistoryEntry} entry @param {number | undefined} stepTo
 */
async function carryOut(store, entry, stepTo) {
  const judged = { store, remote: entry.remote, reason: `watcher: ${entry.reason}`, canaryVersion: entry.to ?? '' };
  if (entry.decision === 'rollback') await rollback(judged);
  else if (entry.decision === 'promote') await promote(judged);
  else if (entry.decision === 'step' && stepTo !== undefined) await setCanaryShare({ ...judged, percent: stepTo });
}

/**
 * What one step did: `none`, no canary; `unwatched`, a canary without a policy (by hand);
 * `held`, inconclusive, left to the releaser; `waiting`, not due before `due`; `unavailable`,
 * the figures could not be read (nothing recorded); `raced`, another watcher evaluated it (or it
 * changed) while the figures were read, so this evaluation is dropped; `evaluated`, `entry`
 * appended and carried out; `completed`, the rollback, promotion or step of `entry`, which a
 * watcher that died had appended but not carried out, is now. `failed`: carrying it out failed
 * (said in the log); the next step tries again.
 * @typedef {{ state: 'none' | 'unwatched' | 'held' | 'waiting' | 'unavailable' | 'raced' | 'evaluated' | 'completed', due?: number, entry?: HistoryEntry, failed?: boolean }} StepResult
 */

/**
 * One step of the watcher for `remote`'s canary, from the store alone: complete what a watcher
 * that died left undone, else evaluate once when an evaluation is due.
 *
 * The figures are read without the store's lock (the API may take seconds; releases must not
 * wait on it); the evaluation is then decided, appended and carried out under the lock, and only
 * if the store is as it was when the figures were asked for: the same canary, share and
 * evaluations. So however many watchers run, each evaluation is appended once, with the figures
 * read for it.
 *
 * A rollback carried out is told to `announce` (announce.mjs: the API tells open pages at once).
 *
 * @param {{ store: string, remote: string, readFigures: (since: string) => Promise<import('./figures.mjs').VersionFigures[]>, now?: () => number, log?: (line: string) => void, announce?: Announce }} options
 * @returns {Promise<StepResult>}
 */
export async function watchStep({ store, remote, readFigures, now = Date.now, log = console.log, announce }) {
  /** @param {HistoryEntry} entry */
  const told = async (entry) => {
    if (entry.decision !== 'rollback' || !announce || !entry.to) return;
    const live = readDiscovery(store).remotes[entry.remote]?.live?.version ?? null;
    const unheard = await announce({ remote: entry.remote, version: entry.to, to: live });
    if (unheard)
      log(
        `${entry.remote}: open pages were not told of the rollback (${unheard}): they switch on focus, Retry or navigation`,
      );
  };
  const left = unfinished(readDiscovery(store), readHistory(store), remote);
  if (left)
    return withStoreLock(store, async () => {
      const again = unfinished(readDiscovery(store), readHistory(store), remote);
      if (!again || again.entry.time !== left.entry.time || again.done !== left.done) return { state: 'raced' };
      try {
        await finish(store, again);
        await told(again.entry);
        return { state: 'completed', entry: again.entry };
      } catch (error) {
        log(messageOf(error));
        return { state: 'completed', entry: again.entry, failed: true };
      }
    });
  const before = canaryState(readDiscovery(store), readHistory(store), remote);
  if (!before) return { state: 'none' };
  if (!before.policy) return { state: 'unwatched' };
  if (before.held) return { state: 'held' };
  if (now() < before.due) return { state: 'waiting', due: before.due };
  /** @type {import('./figures.mjs').VersionFigures[]} */
  let all;
  try {
    all = await readFigures(before.start);
  } catch (error) {
    // The API may be restarting: nothing is recorded, the next step tries again.
    log(`figures unavailable (${messageOf(error)}): trying again next interval`);
    return { state: 'unavailable' };
  }
  return withStoreLock(store, async () => {
    const state = canaryState(readDiscovery(store), readHistory(store), remote);
    const policy = state?.policy;
    if (
      !state ||
      !policy ||
      state.version !== before.version ||
      state.live !== before.live ||
      state.percent !== before.percent ||
      state.looks.length !== before.looks.length ||
      state.held ||
      unfinished(readDiscovery(store), readHistory(store), remote) ||
      now() < state.due
    )
      return { state: 'raced' };
    const canaryFigures = figuresOf(all, remote, state.version);
    const canary = sample(canaryFigures);
    const live = sample(figuresOf(all, remote, state.live));
    // The canary's commonest error since it started: a rollback's reason names it (not kept with
    // the figures of every evaluation; the reason keeps it where it matters).
    const decision = decideCanary({
      looks: [...state.looks, { percent: state.percent, canary, live }],
      policy,
      topError: canaryFigures.topError ?? null,
    });
    /** @type {HistoryEntry} */
    const entry = {
      time: new Date(now()).toISOString(),
      remote,
      action: 'watch',
      from: state.live,
      to: state.version,
      result: 'canary',
      percent: state.percent,
      decision: decision.action,
      reason: decision.reason,
      ...(decision.action === 'step' ? { stepTo: decision.percent } : {}),
      figures: { canary, live },
      ...(decision.evidence ? { evidence: kept(decision.evidence) } : {}),
    };
    // The evaluation first, then what it decided: a watcher killed in between leaves it
    // unfinished, and the next step carries it out (`completed`) instead of judging again.
    appendHistory(store, entry);
    try {
      await carryOut(store, entry, decision.percent);
      await told(entry);
      return { state: 'evaluated', entry };
    } catch (error) {
      log(messageOf(error));
      return { state: 'evaluated', entry, failed: true };
    }
  });
}
