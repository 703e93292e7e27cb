// The watcher's step for a version baking after its promotion (bake.mjs): as a canary's step,
// the figures read without the lock, then decided, appended and carried out under it only if no
// other watcher did; a rollback recorded but not carried out (a watcher killed between) is.
// eslint-disable-next-line import-x/no-relative-packages -- the watcher runs in the API's image, without releases' dependencies
import { messageOf } from '../shared/node/errors.mjs';
import { baselineOver, bakeState, decideBake } from './bake.mjs';
import { rollback } from './changes.mjs';
import { readDiscovery } from './discovery.mjs';
import { figuresOf, judgedSample } from './figures.mjs';
import { appendHistory, keptEvidence, readHistory } from './history.mjs';
import { withStoreLock } from './lock.mjs';
import { tell } from './tell.mjs';
import { figuresWithin, recordUnreadable } from './unreadable.mjs';

/**
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./bake.mjs').BakeState} BakeState
 * @typedef {import('./watch-step.mjs').StepResult} StepResult
 */

/** @param {BakeState} before @param {BakeState | null} state @param {number} time */
const unchanged = (before, state, time) =>
  Boolean(
    state &&
    state.version === before.version &&
    state.promotedAt === before.promotedAt &&
    state.attempts === before.attempts &&
    state.last?.decision !== 'rollback' &&
    time >= state.due,
  );

/**
 * One step of `remote`'s bake, if it has one (`none` otherwise).
 * @param {{ store: string, remote: string, readFigures: (since: string) => Promise<import('./figures.mjs').VersionFigures[]>, now: () => number, log: (line: string) => void, figuresTimeoutMs: number, announce?: import('./tell.mjs').Announce, pager?: import('./webhook.mjs').Pager }} options
 * @returns {Promise<StepResult>}
 */
export async function bakeStep({ store, remote, readFigures, now, log, figuresTimeoutMs, announce, pager }) {
  const listeners = { store, log, announce, pager };
  const current = () => bakeState(readDiscovery(store), readHistory(store), remote);
  /** @param {HistoryEntry} entry @returns {Promise<StepResult>} */
  const rollBack = async (entry) => {
    try {
      await rollback({ store, remote, reason: `watcher: ${entry.reason}`, liveVersion: entry.to ?? '' });
      await tell(listeners, entry);
      return { state: 'evaluated', entry };
    } catch (error) {
      log(messageOf(error));
      return { state: 'evaluated', entry, failed: true };
    }
  };
  const before = current();
  if (!before) return { state: 'none' };
  if (before.last?.decision === 'rollback') {
    // Recorded, not carried out: its watcher died in between.
    const left = before.last;
    return withStoreLock(store, async () => {
      const again = current();
      if (again?.last?.time !== left.time) return { state: 'raced' };
      return { ...(await rollBack(left)), state: 'completed' };
    });
  }
  if (now() < before.due) return { state: 'waiting', due: before.due };
  /** @type {import('./figures.mjs').VersionFigures[]} */
  let all;
  try {
    all = await figuresWithin(readFigures, before.promoted, figuresTimeoutMs);
  } catch (error) {
    const entry = await recordUnreadable({
      store,
      error,
      now,
      log,
      pager,
      current: () => {
        const state = current();
        if (!state || !unchanged(before, state, now())) return null;
        return { remote, from: state.predecessor, to: state.version, result: 'live', since: state.promotedAt };
      },
    });
    return entry ? { state: 'unavailable', entry } : { state: 'raced' };
  }
  return withStoreLock(store, async () => {
    const state = current();
    if (!state || !unchanged(before, state, now())) return { state: 'raced' };
    const canary = judgedSample(figuresOf(all, remote, state.version));
    const live = baselineOver(state.baseline, canary.loads);
    const decision = decideBake([...state.looks, { percent: 100, canary, live }], state.policy);
    /** @type {HistoryEntry} */
    const entry = {
      time: new Date(now()).toISOString(),
      remote,
      action: 'bake',
      from: state.predecessor,
      to: state.version,
      result: 'live',
      decision: decision.action,
      reason: decision.reason,
      figures: { canary, live },
      ...(decision.evidence ? { evidence: keptEvidence(decision.evidence) } : {}),
      policy: state.policy,
    };
    // The evaluation first, then its rollback: a watcher killed between leaves it for the next step.
    appendHistory(store, entry);
    if (decision.action === 'rollback') return rollBack(entry);
    return { state: 'evaluated', entry };
  });
}
