// The bake: a version the watcher promoted is judged for `bakeIntervals` more evaluations (its
// canary's policy) against the version it replaced, by the canary's judge (decideCanary), and
// rolled back to that version on evidence of harm; when the bake ends without it, `baked`.
//
// After promotion the predecessor serves nobody, so there are no figures of it to set beside the
// new version's: its side is what it showed while it was live beside the canary (the live side of
// the canary's last evaluation, kept in the history), at its rates, over as many page loads as the
// new version has had since its promotion. A historical baseline: the bake catches what changes
// after promotion (traffic the canary's share never got, a slow leak, a dependency going bad), not
// what a concurrent control would cancel out (both rates swinging over the day), and its harm is
// judged on the new version's counts against a rate known from the baseline's thousands of loads.
import { decideCanary } from './canary.mjs';
import { givenPolicy, isStart } from './canary-state.mjs';

/**
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./figures.mjs').Sample} Sample
 * @typedef {import('./canary-policy.mjs').Policy} Policy
 */

/**
 * A promoted version baking, as the store tells it.
 * @typedef {object} BakeState
 * @property {string} version the promoted version, live
 * @property {string} predecessor the version it replaced, which a rollback goes back to
 * @property {string} promoted when it was promoted: its figures are read since then
 * @property {number} promotedAt the promotion's index in the history
 * @property {Policy & { bakeIntervals: number }} policy its canary's policy
 * @property {Sample} baseline the predecessor's figures beside the canary, at its last evaluation
 * @property {import('./canary.mjs').Look[]} looks the bake's evaluations so far
 * @property {number} attempts those and the tries whose figures could not be read
 * @property {HistoryEntry | undefined} last the last bake evaluation
 * @property {number} due when the next evaluation is due (ms since the epoch)
 */

/**
 * The bake of `remote`'s live version, or null when there is none to judge: no canary under way,
 * the live version promoted by a canary evaluated at least once under a policy with a bake, and
 * the bake neither `baked` nor rolled back yet. A release, rollback or canary since ends it.
 * @param {import('./store.mjs').Discovery} doc @param {HistoryEntry[]} history @param {string} remote
 * @returns {BakeState | null}
 */
export function bakeState(doc, history, remote) {
  const entry = doc.remotes[remote];
  const version = entry?.live?.version;
  if (!version || entry.canary) return null;
  // The last change of what everyone loads: a release, a promotion or a rollback that went live.
  const promotedAt = history.findLastIndex(
    (e) => e.remote === remote && e.result === 'live' && ['release', 'promote', 'rollback'].includes(e.action),
  );
  const promotion = history[promotedAt];
  if (promotion?.action !== 'promote' || promotion.to !== version || !promotion.from) return null;
  const start = history.findLastIndex((e, i) => i < promotedAt && isStart(e, remote, version));
  if (start < 0) return null;
  const canaryLines = history.slice(start, promotedAt).filter((e) => e.remote === remote && e.to === version);
  const policy = givenPolicy(canaryLines);
  const baseline = canaryLines.findLast((e) => e.action === 'watch' && e.figures)?.figures?.live;
  const bakeIntervals = policy?.bakeIntervals ?? 0;
  if (!policy || !baseline || bakeIntervals <= 0) return null;
  const since = history.slice(promotedAt + 1).filter((e) => e.remote === remote);
  // A canary released since ended the bake, even once dropped: the releaser moved on.
  if (since.some((e) => e.action === 'canary' && e.result === 'canary')) return null;
  const mine = since.filter((e) => e.to === version);
  const bakes = mine.filter((e) => e.action === 'bake');
  const last = bakes.at(-1);
  if (last?.decision === 'baked') return null;
  const tried = mine.findLast((e) => e.action === 'bake' || e.action === 'unreadable');
  return {
    version,
    predecessor: promotion.from,
    promoted: promotion.time,
    promotedAt,
    policy: { ...policy, bakeIntervals },
    baseline,
    looks: bakes.flatMap((e) => (e.figures ? [{ percent: 100, canary: e.figures.canary, live: e.figures.live }] : [])),
    attempts: mine.filter((e) => e.action === 'bake' || e.action === 'unreadable').length,
    last,
    due: Date.parse(tried?.time ?? promotion.time) + policy.intervalSeconds * 1000,
  };
}

/**
 * The predecessor's side of a bake evaluation: its baseline's rates over `loads` page loads.
 * @param {Sample} baseline @param {number} loads @returns {Sample}
 */
export function baselineOver(baseline, loads) {
  const rate = baseline.loads ? baseline.errorLoads / baseline.loads : 0;
  return { loads, errorLoads: Math.round(rate * loads), p75: { lcp: baseline.p75.lcp, inp: baseline.p75.inp } };
}

/**
 * What to do with a baking version at its evaluation `looks.length` (the last one now): rolled
 * back on the judge's evidence of harm (sample ratio aside: it serves everyone), `baked` when
 * the bake's evaluations are done without it, else judged again next interval.
 * @param {import('./canary.mjs').Look[]} looks @param {Policy & { bakeIntervals: number }} policy
 * @returns {{ action: 'rollback' | 'baked' | 'wait' | 'hold', reason: string, evidence?: import('./canary.mjs').Evidence }}
 */
export function decideBake(looks, policy) {
  // No share to step through and no deadline: only its harm decides anything before the end.
  const judged = decideCanary({ looks, policy: { ...policy, steps: [], deadlineIntervals: Number.POSITIVE_INFINITY } });
  const evidence = judged.evidence;
  const withEvidence = evidence ? { evidence } : {};
  if (judged.action === 'rollback')
    return { action: 'rollback', reason: `${judged.reason} (baking, against its predecessor)`, ...withEvidence };
  const of = `${looks.length} of ${policy.bakeIntervals} evaluations after promotion`;
  if (looks.length >= policy.bakeIntervals)
    return { action: 'baked', reason: `no evidence of harm in ${of}: ${judged.reason}`, ...withEvidence };
  return { action: judged.action === 'wait' ? 'wait' : 'hold', reason: `${of}: ${judged.reason}`, ...withEvidence };
}
