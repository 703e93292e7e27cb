// The canary's judge: a pure function from the real-user figures of a canary and of the live
// version it runs beside, as they stood at every evaluation since the canary started, to what to
// do next. The watcher (watch.mjs) calls it every interval and carries the decision out; the
// simulation (simulate.mjs) calls it with simulated figures; tests call it with crafted ones.
//
// Every test it decides on (error-evidence.mjs, ratio-evidence.mjs, vital-evidence.mjs) is an
// e-process: a running product of evidence that, while the canary is no worse than live, is at
// most 1 on average whatever happened before. Ville's inequality bounds the chance it ever reaches
// 1/a by a, so the bound holds however often the watcher looks and whenever it stops; each look is
// not a new chance of a false rollback, as it would be with a z test repeated on cumulative totals.
//
// This file is the judge's public surface too: the policy and the tests are imported from here.
import { blocksOf } from './blocks.mjs';
import { ALPHA_SHARE, DEFAULT_POLICY, harmText } from './canary-policy.mjs';
import { errorEvidence, promotionLoads } from './error-evidence.mjs';
import { ratioEvidence } from './ratio-evidence.mjs';
import { judgeVital } from './vital-evidence.mjs';

export { ALPHA_SHARE, blocksOf, DEFAULT_POLICY, errorEvidence, judgeVital, promotionLoads, ratioEvidence };
export { nullRate } from './error-evidence.mjs';

/**
 * @typedef {import('./figures.mjs').Sample} Sample
 * @typedef {import('./figures.mjs').TopError} TopError
 * @typedef {import('./blocks.mjs').Look} Look
 * @typedef {import('./blocks.mjs').Block} Block
 * @typedef {import('./canary-policy.mjs').Policy} Policy
 * @typedef {import('./vital-evidence.mjs').VitalJudgement} VitalJudgement
 */

/**
 * @typedef {{ harm: number, noHarm: number, ratio: number, lcp?: number, inp?: number }} Evidence
 * the e-values behind a decision: harm (errors, canary worse), noHarm (errors, canary not worse
 * than the margin), ratio (its pages missing), lcp / inp (p75 worse than the margin)
 * @typedef {{ action: 'wait' | 'hold' | 'step' | 'promote' | 'rollback' | 'inconclusive', reason: string, percent?: number, evidence?: Evidence, deadline?: boolean }} Decision
 * `deadline`: a rollback for want of a decision by the deadline, not on evidence of harm.
 */

const pct = (/** @type {number} */ x) => `${(x * 100).toFixed(1)} %`;
const pts = (/** @type {number} */ x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} pt`;
const ev = (/** @type {number} */ e) => (e >= 1e6 ? e.toExponential(1) : e >= 100 ? e.toFixed(0) : e.toFixed(1));
const change = (/** @type {number} */ r) => `${r >= 1 ? '+' : ''}${Math.round((r - 1) * 100)} %`;
const ms = (/** @type {number} */ v) => `${Math.round(v)} ms`;

/** @param {VitalJudgement} v */
const vitalLine = (v) =>
  `p75 ${v.name} ${ms(v.canary)} against live's ${ms(v.live)} (${change(v.ratio)}, interval ${change(v.low)} to ${change(v.high)})`;

/**
 * The canary's commonest error as a rollback's reason names it: its words as JSON quotes them (a
 * message may hold quotes or lines), where it was thrown, and its share.
 * @param {TopError} e
 */
export const topErrorText = (e) =>
  `top error: ${JSON.stringify(e.message)}${e.frame ? ` at ${e.frame}` : ''} (${e.count} of ${e.total} error${e.total === 1 ? '' : 's'})`;

/**
 * What to do with a canary, given both sides' figures at every evaluation since it started (the
 * last one now):
 *
 * Its units (a Sample's `loads`) are browsers, each by its first page load of the version, as the
 * watcher reads them (judgedSample): independent draws, which the tests below assume.
 *
 * - rollback: its share of the browsers reporting is far below its share of browsers (sample-ratio
 *   e-process, judged from the start); or its error rate is above live's (harm e-process, judged
 *   from the start too: a canary failing every load is rolled back within a few evaluations); or,
 *   once each side has `minLoads` loads, its p75 LCP or INP is worse than live's by more than the
 *   margin (mSPRT on the log ratio); each at its part of `alpha`;
 * - wait: a side has fewer than `minLoads` browsers;
 * - promote: at the last share for `holdIntervals` evaluations, with evidence that its error
 *   rate is not higher than live's by the policy's harm (`harmAt`) or more and that each reported p75 is not worse
 *   by its margin or more (at parts of `promoteAlpha`);
 * - at the deadline, `deadlineIntervals` evaluations without either: rolled back, so that no
 *   canary is left serving with nobody watching it; or, when its policy says to hold
 *   (`atDeadline: 'hold'`), inconclusive: the canary stays at its share and the releaser decides;
 * - step: `holdIntervals` evaluations at a share below the last: the next share;
 * - hold: otherwise.
 *
 * Vitals are judged from the p75 and, for want of a count of values, the count of page loads
 * (an upper bound: not every load reports INP), with the assumed spread making up for it.
 *
 * `topError`, the canary's commonest error since it started, is not judged: a rollback's reason
 * ends with it (topErrorText), so that whoever reads it knows what broke and where.
 *
 * @param {{ looks: Look[], policy?: Policy, topError?: TopError | null }} input
 * @returns {Decision}
 */
export function decideCanary({ looks, policy = DEFAULT_POLICY, topError = null }) {
  const now = looks.at(-1);
  if (!now) throw new Error('decideCanary needs at least one evaluation');
  const { canary, live, percent } = now;
  const blocks = blocksOf(looks);
  const errors = errorEvidence(blocks, policy);
  const ratio = ratioEvidence(blocks);
  /** @type {Evidence} */
  const evidence = { harm: errors.harm, noHarm: errors.noHarm, ratio };
  const { rollback: ra, promote: pa } = ALPHA_SHARE;
  const rates = `error rate ${pct(canary.errorLoads / (canary.loads || 1))} against live's ${pct(live.errorLoads / (live.loads || 1))}`;
  /** @param {string} why @returns {Decision} */
  const rollback = (why) => ({
    action: 'rollback',
    reason: topError ? `${why}; ${topErrorText(topError)}` : why,
    evidence,
  });

  if (live.loads >= policy.minLoads && ratio >= 1 / (policy.alpha * ra.ratio)) {
    const share = canary.loads / (canary.loads + live.loads || 1);
    return rollback(
      `the canary has ${pct(share)} of the browsers at a ${percent} % share: its pages do not report, or do not load it (sample-ratio evidence ${ev(ratio)} ≥ ${ev(1 / (policy.alpha * ra.ratio))})`,
    );
  }
  // Harm beyond doubt rolls back at once, however few the loads: the e-process is valid at every
  // evaluation (a canary failing every load is not left serving until it has minLoads of them).
  const harmBar = 1 / (policy.alpha * ra.errors);
  if (errors.harm >= harmBar)
    return rollback(
      `${rates} (${pts(canary.errorLoads / (canary.loads || 1) - live.errorLoads / (live.loads || 1))}): evidence of more errors ${ev(errors.harm)} ≥ ${ev(harmBar)}`,
    );
  if (canary.loads < policy.minLoads || live.loads < policy.minLoads)
    return {
      action: 'wait',
      reason: `too few browsers yet: canary ${canary.loads}, live ${live.loads}, each needs ${policy.minLoads}`,
      evidence,
    };

  const vitals = /** @type {const} */ ([
    ['LCP', 'lcp', policy.lcpMargin],
    ['INP', 'inp', policy.inpMargin],
  ]).flatMap(([name, key, margin]) => {
    const judged = judgeVital({
      name,
      canary: canary.p75[key],
      live: live.p75[key],
      counts: [canary.loads, live.loads],
      minCount: policy.minLoads,
      margin,
      spread: policy.spread[key],
      alpha: policy.promoteAlpha * pa[key],
    });
    if (judged) evidence[key] = judged.worse;
    return judged ? [{ key, margin, judged }] : [];
  });
  for (const { key, margin, judged } of vitals) {
    const bar = 1 / (policy.alpha * ra[key]);
    if (judged.worse >= bar)
      return rollback(
        `${vitalLine(judged)}: more than ${Math.round(margin * 100)} % worse, evidence ${ev(judged.worse)} ≥ ${ev(bar)}`,
      );
  }

  // Evaluations with enough loads at the current share, this one included.
  let held = 0;
  for (let i = looks.length - 1; i >= 0; i--) {
    const look = looks[i];
    if (!look || look.percent !== percent) break;
    if (look.canary.loads >= policy.minLoads && look.live.loads >= policy.minLoads) held += 1;
  }
  const next = policy.steps.find((share) => share > percent);
  const noHarmBar = 1 / (policy.promoteAlpha * pa.errors);
  const errorsBounded = errors.noHarm >= noHarmBar;
  const unbounded = vitals.filter(
    ({ key, judged }) => judged.within < 1 / (policy.promoteAlpha * pa[/** @type {'lcp' | 'inp'} */ (key)]),
  );
  const vitalText = vitals.map(({ judged }) => vitalLine(judged)).join('; ');
  const withVitals = (/** @type {string} */ text) => (vitalText ? `${text}; ${vitalText}` : text);

  if (next === undefined && held >= policy.holdIntervals && errorsBounded && unbounded.length === 0)
    return {
      action: 'promote',
      reason: withVitals(
        `${rates}: not worse by ${harmText(policy)} or more (evidence ${ev(errors.noHarm)} ≥ ${ev(noHarmBar)})`,
      ),
      evidence,
    };

  /** What promotion still lacks, and what it takes. */
  const lacking = () => {
    const parts = [];
    if (!errorsBounded) {
      const needed = promotionLoads({
        canaryRate: canary.errorLoads / canary.loads,
        liveRate: live.errorLoads / live.loads,
        share: (next ?? percent) / 100,
        policy,
      });
      parts.push(
        `no evidence yet that the error rate is not worse by ${harmText(policy)} (${ev(errors.noHarm)} of ${ev(noHarmBar)}; ${
          Number.isFinite(needed)
            ? `at these rates at least ${needed} canary browsers in all, ${canary.loads} so far`
            : 'at these rates it never will be'
        })`,
      );
    }
    for (const { judged, margin } of unbounded)
      parts.push(`p75 ${judged.name} not yet shown within ${Math.round(margin * 100)} %`);
    return parts.join('; ');
  };

  if (looks.length >= policy.deadlineIntervals && policy.atDeadline === 'rollback')
    return {
      ...rollback(
        withVitals(
          `no decision after ${looks.length} evaluations: ${rates}; ${lacking() || `not yet held at the last share`}. Rolled back at the deadline: a canary is not left serving unwatched (--at-deadline hold keeps it at its share for you to decide)`,
        ),
      ),
      deadline: true,
    };
  if (looks.length >= policy.deadlineIntervals)
    return {
      action: 'inconclusive',
      reason: withVitals(
        `no decision after ${looks.length} evaluations: ${rates}; ${lacking() || `not yet held at the last share`}. The canary stays at ${percent} %: promote it, roll it back, or watch again with a later deadline`,
      ),
      percent,
      evidence,
    };
  if (held < policy.holdIntervals)
    return {
      action: 'hold',
      reason: withVitals(
        `${rates}, no evidence of harm; ${held} of ${policy.holdIntervals} evaluations at ${percent} %`,
      ),
      evidence,
    };
  if (next !== undefined)
    return {
      action: 'step',
      reason: withVitals(`${rates}, no evidence of harm for ${held} evaluations at ${percent} %`),
      percent: next,
      evidence,
    };
  return { action: 'hold', reason: withVitals(`${rates}, no evidence of harm; ${lacking()}`), evidence };
}
