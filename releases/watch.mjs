// The canary watcher (issue "Releases that watch themselves", item 4; a service since issue 39,
// item 5): every interval, the real-user figures of a remote's canary and of its live version
// since the canary started are judged by decideCanary (canary.mjs), together with those of every
// earlier evaluation of that canary, and the decision is carried out: wait, hold, step the share
// up, promote, roll back, or leave the canary held at its share at the deadline (inconclusive).
//
// Everything the watcher knows is in the release store, never only in a process: the canary's
// policy (its `canary` line, or a `policy` line), every evaluation with its figures and evidence
// (`watch` lines), the share (discovery.json). One evaluation (`watchStep`) reads it all again,
// so whoever runs it (the service, watcher-service.mjs; `pnpm release --watch` when no service
// runs; a process started again after a crash) goes on at the same step, and two of them never
// append the same evaluation: the second finds, under the store's lock, that the first did.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
// eslint-disable-next-line import-x/no-relative-packages -- the watcher runs in the API's image, without releases' dependencies
import { messageOf } from '../shared/node/errors.mjs';
import { decideCanary } from './canary.mjs';
import { figuresOf } from './figures.mjs';
import {
  appendHistory,
  ownerGone,
  promote,
  readDiscovery,
  readHistory,
  rollback,
  setCanaryShare,
  thisProcess,
  withStoreLock,
} from './store.mjs';

/**
 * @typedef {import('./store.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./canary.mjs').Policy} Policy
 * @typedef {import('./canary.mjs').Decision} Decision
 * @typedef {(rollback: { remote: string, version: string, to: string | null }) => Promise<string | null>} Announce
 */

/** @param {HistoryEntry} e @param {string} remote @param {string} version */
const isStart = (e, remote, version) =>
  e.remote === remote && e.action === 'canary' && e.result === 'canary' && e.to === version;

/**
 * When the canary under way started: its `canary` line in the history.
 * @param {HistoryEntry[]} history @param {string} remote @param {string} version
 */
export function canaryStart(history, remote, version) {
  const started = history.findLast((e) => isStart(e, remote, version));
  return started?.time ?? new Date(Date.now() - 86_400_000).toISOString();
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
 * @property {Policy | null} policy the watcher's policy (its `canary` line's, or the last `policy` line's since); null: a canary nobody watches, ended by hand
 * @property {string} watchedSince when that policy was given
 * @property {import('./canary.mjs').Look[]} looks every evaluation so far, oldest first
 * @property {HistoryEntry | undefined} last the last evaluation
 * @property {boolean} held inconclusive at the deadline under the policy now given: the watcher leaves it to the releaser
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
  /** @type {Policy | null} */
  let policy = started?.policy ?? null;
  let watchedSince = started?.policy ? started.time : '';
  let policyAt = -1;
  let lastAt = -1;
  mine.forEach((e, i) => {
    if (e.action === 'policy' && e.policy) {
      policy = e.policy;
      watchedSince = e.time;
      policyAt = i;
    }
    if (e.action === 'watch') lastAt = i;
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
    due: policy ? Math.max(at(last?.time), at(watchedSince)) + policy.intervalSeconds * 1000 : Infinity,
  };
}

/**
 * An evaluation whose rollback, promotion or step is not all in the store: its watcher was
 * killed after appending it, before the change (`done` false) or between the change to the
 * discovery document and its history line (`done` true). It is the remote's last line but
 * `policy` ones: anything a releaser did since would come after it.
 * @typedef {{ entry: HistoryEntry, stepTo?: number, done: boolean }} Unfinished
 * @param {import('./store.mjs').Discovery} doc @param {HistoryEntry[]} history @param {string} remote
 * @returns {Unfinished | null}
 */
export function unfinished(doc, history, remote) {
  const entry = history.findLast((e) => e.remote === remote && e.action !== 'policy');
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

// The watcher service's heartbeat, in the store: whether one runs decides whether `--watch`
// judges itself or only follows. It is a hint, not state: a watcher wrongly thought dead only
// makes `--watch` evaluate too, and watchStep appends each evaluation once whoever runs it.
const HEARTBEAT_FILE = '.watcher.json';

/** @typedef {import('./store.mjs').LockOwner & { time: string, staleAfterMs: number }} Heartbeat */

/** Says a watcher service runs on this store, until `staleAfterMs` from now. @param {string} store @param {number} staleAfterMs */
export function writeHeartbeat(store, staleAfterMs) {
  /** @type {Heartbeat} */
  const beat = { ...thisProcess(), time: new Date().toISOString(), staleAfterMs };
  mkdirSync(store, { recursive: true });
  const tmp = join(store, `${HEARTBEAT_FILE}.${randomBytes(6).toString('hex')}`);
  writeFileSync(tmp, JSON.stringify(beat));
  renameSync(tmp, join(store, HEARTBEAT_FILE));
}

/** @param {string} store @returns {Heartbeat | null} */
function readHeartbeat(store) {
  try {
    return JSON.parse(readFileSync(join(store, HEARTBEAT_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Whether a watcher service runs on this store: its heartbeat is recent and, on this host, its
 * process is alive (one killed here is known dead at once).
 * @param {string} store @param {number} [now]
 */
export function serviceRuns(store, now = Date.now()) {
  const beat = readHeartbeat(store);
  return Boolean(beat && !ownerGone(beat) && now - Date.parse(beat.time) < beat.staleAfterMs);
}

/** Takes this process's heartbeat away as it stops (another service's is left). @param {string} store */
export function clearHeartbeat(store) {
  const beat = readHeartbeat(store);
  const me = thisProcess();
  if (beat?.id === me.id && beat.pid === me.pid) rmSync(join(store, HEARTBEAT_FILE), { force: true });
}

/**
 * The last evaluation of a canary since it started, if any.
 * @param {HistoryEntry[]} history @param {string} remote @param {string} version
 */
function lastEvaluation(history, remote, version) {
  const start = history.findLastIndex((e) => isStart(e, remote, version));
  return history.slice(start + 1).findLast((e) => e.remote === remote && e.action === 'watch' && e.to === version);
}

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
 * @param {{ store: string, remote: string, readFigures: (since: string) => Promise<import('./figures.mjs').VersionFigures[]>, judgeHere?: () => boolean, pollMs?: number, sleep?: (ms: number) => Promise<void>, log?: (line: string) => void, now?: () => number, announce?: Announce }} options
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
    if (here) await watchStep({ store, remote, readFigures, now, log, announce });
    const history = readHistory(store);
    for (const e of history.slice(printed)) if (e.remote === remote && e.action === 'watch') log(describe(e));
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
