// The watcher's step: from the store alone, finishes what a killed watcher left undone, else
// evaluates the canary once when an evaluation is due: its figures read, judged by decideCanary
// (canary.mjs) with every earlier evaluation, appended to the history and carried out. The
// service (watcher-service.mjs) and `pnpm release --watch` (follow.mjs) run this same step.
// eslint-disable-next-line import-x/no-relative-packages -- the watcher runs in the API's image, without releases' dependencies
import { messageOf } from '../shared/node/errors.mjs';
import { bakeStep } from './bake-step.mjs';
import { decideCanary } from './canary.mjs';
import { canaryState, isStart, unfinished } from './canary-state.mjs';
import { promote, rollback, setCanaryShare } from './changes.mjs';
import { readDiscovery } from './discovery.mjs';
import { figuresOf, judgedSample } from './figures.mjs';
import { appendHistory, keptEvidence, readHistory } from './history.mjs';
import { withStoreLock } from './lock.mjs';
import { tell } from './tell.mjs';
import { FIGURES_TIMEOUT_MS, figuresWithin, recordUnreadable } from './unreadable.mjs';

/**
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./canary-state.mjs').Unfinished} Unfinished
 * @typedef {import('./canary-state.mjs').CanaryState} CanaryState
 * @typedef {import('./tell.mjs').Announce} Announce
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

/** An evaluation as people read it (the service's log, `--watch`'s output). @param {HistoryEntry} e */
export const describe = (e) =>
  e.action === 'unreadable'
    ? `${e.remote} ${e.result === 'live' ? `baking ${e.to}` : `canary ${e.to} at ${e.percent} %`}: figures unreadable (${e.streak} in a row): ${e.reason}`
    : e.action === 'bake'
      ? `${e.remote} ${e.to} baking against ${e.from}: ${e.decision}: ${e.reason}`
      : `${e.remote} canary ${e.to} at ${e.percent} %: ${e.decision}: ${e.reason}`;

/**
 * Whether the canary is still as it was when its figures were asked for: the same version, live
 * version, share, evaluations and tries, not held, nothing unfinished, and still due.
 * @param {CanaryState} before @param {CanaryState | null} state @param {boolean} busy an evaluation is unfinished @param {number} time
 * @returns {state is CanaryState & { policy: import('./canary-policy.mjs').Policy }}
 */
const unchanged = (before, state, busy, time) =>
  Boolean(
    state?.policy &&
    state.version === before.version &&
    state.live === before.live &&
    state.percent === before.percent &&
    state.looks.length === before.looks.length &&
    state.attempts === before.attempts &&
    !state.held &&
    !busy &&
    time >= state.due,
  );

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
 * What one step did: `none`, no canary and nothing baking; `unwatched`, a canary without a policy
 * (by hand); `held`, inconclusive, left to the releaser; `waiting`, not due before `due`;
 * `unavailable`, the figures could not be read (`entry`, its `unreadable` line, unless another
 * watcher raced it); `raced`, another watcher evaluated it (or it
 * changed) while the figures were read, so this evaluation is dropped; `evaluated`, `entry`
 * appended and carried out; `completed`, the rollback, promotion or step of `entry`, which a
 * watcher that died had appended but not carried out, is now. `failed`: carrying it out failed
 * (said in the log); the next step tries again. A promoted version baking (bake-step.mjs) gives
 * the same states.
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
 * A rollback carried out is told to `announce` (announce.mjs: the API tells open pages at once),
 * and a rollback or promotion to `pager` (webhook.mjs: the remote's webhook). Figures not read
 * within `figuresTimeoutMs` are unreadable: recorded, and paged at the third in a row.
 * With no canary, a version the watcher promoted is baked (bake-step.mjs).
 *
 * @param {{ store: string, remote: string, readFigures: (since: string) => Promise<import('./figures.mjs').VersionFigures[]>, now?: () => number, log?: (line: string) => void, announce?: Announce, pager?: import('./webhook.mjs').Pager, figuresTimeoutMs?: number }} options
 * @returns {Promise<StepResult>}
 */
export async function watchStep({
  store,
  remote,
  readFigures,
  now = Date.now,
  log = console.log,
  announce,
  pager,
  figuresTimeoutMs = FIGURES_TIMEOUT_MS,
}) {
  const listeners = { store, log, announce, pager };
  const told = (/** @type {HistoryEntry} */ entry) => tell(listeners, entry);
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
  if (!before) return bakeStep({ ...listeners, remote, readFigures, now, figuresTimeoutMs });
  if (!before.policy) return { state: 'unwatched' };
  if (before.held) return { state: 'held' };
  if (now() < before.due) return { state: 'waiting', due: before.due };
  const current = () => {
    const history = readHistory(store);
    const doc = readDiscovery(store);
    return { history, state: canaryState(doc, history, remote), busy: Boolean(unfinished(doc, history, remote)) };
  };
  /** @type {import('./figures.mjs').VersionFigures[]} */
  let all;
  try {
    all = await figuresWithin(readFigures, before.start, figuresTimeoutMs);
  } catch (error) {
    // The API may be restarting, or gone: recorded (once per interval, as an evaluation would
    // be), paged at the third in a row; the next interval tries again.
    const entry = await recordUnreadable({
      store,
      error,
      now,
      log,
      pager,
      current: () => {
        const { history, state, busy } = current();
        if (!unchanged(before, state, busy, now())) return null;
        const since = history.findLastIndex((e) => isStart(e, remote, state.version));
        return { remote, from: state.live, to: state.version, result: 'canary', percent: state.percent, since };
      },
    });
    return entry ? { state: 'unavailable', entry } : { state: 'raced' };
  }
  return withStoreLock(store, async () => {
    const { state, busy } = current();
    if (!unchanged(before, state, busy, now())) return { state: 'raced' };
    const policy = state.policy;
    const canaryFigures = figuresOf(all, remote, state.version);
    const canary = judgedSample(canaryFigures);
    const live = judgedSample(figuresOf(all, remote, state.live));
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
      ...(decision.evidence ? { evidence: keptEvidence(decision.evidence) } : {}),
      policy,
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
