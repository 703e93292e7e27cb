// The canary's judge (issue "Releases that watch themselves", item 4): a pure function from the
// real-user figures of a canary and of the live version it runs beside to what to do next. The
// watcher (watch.mjs) calls it every interval and carries the decision out; tests call it with
// crafted samples.

/**
 * What a side is judged on: page loads that used the version, those in which it had an error,
 * and the 75th percentiles of their page vitals (API: GET /internal/rum/figures).
 * @typedef {{ loads: number, errorLoads: number, p75: { lcp: number | null, inp: number | null, cls?: number | null } }} Sample
 */

/**
 * @typedef {object} Policy
 * @property {number} minLoads page loads each side needs before anything is decided
 * @property {number} z the one-sided z beyond which the canary's error rate is higher by more than chance (1.645: 95 %)
 * @property {number} lcpMargin how much worse the canary's p75 LCP may be, as a share of live's (0.2: 20 %)
 * @property {number} inpMargin the same for p75 INP
 * @property {number[]} steps the shares, in percent, the canary steps up through once healthy; promoted after the last
 * @property {number} holdIntervals healthy evaluations in a row before each step and before promotion
 * @property {number} intervalSeconds how often the watcher evaluates
 */

/** @type {Policy} */
export const DEFAULT_POLICY = {
  minLoads: 100,
  z: 1.645,
  lcpMargin: 0.2,
  inpMargin: 0.2,
  steps: [25, 50],
  holdIntervals: 3,
  intervalSeconds: 60,
};

/**
 * @typedef {{ action: 'wait' | 'hold' | 'step' | 'promote' | 'rollback', reason: string, percent?: number }} Decision
 */

/**
 * The two-proportion z statistic of the canary's error rate over live's (pooled standard error):
 * above 1.645 the canary is worse than live with 95 % confidence, one-sided. With no errors on
 * either side it is 0; with errors on one side only and nothing to pool against, infinite.
 *
 * @param {Pick<Sample, 'loads' | 'errorLoads'>} canary
 * @param {Pick<Sample, 'loads' | 'errorLoads'>} live
 */
export function errorRateZ(canary, live) {
  const p1 = canary.errorLoads / canary.loads;
  const p2 = live.errorLoads / live.loads;
  const pooled = (canary.errorLoads + live.errorLoads) / (canary.loads + live.loads);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / canary.loads + 1 / live.loads));
  if (se === 0) return p1 === p2 ? 0 : p1 > p2 ? Infinity : -Infinity;
  return (p1 - p2) / se;
}

const pct = (/** @type {number} */ x) => `${(x * 100).toFixed(1)} %`;

/**
 * A vital the canary makes worse than live by more than the margin, or null.
 * @param {string} name @param {number | null | undefined} canary @param {number | null | undefined} live @param {number} margin
 */
function worseVital(name, canary, live, margin) {
  if (canary == null || live == null || live <= 0) return null;
  return canary > live * (1 + margin)
    ? `p75 ${name} ${Math.round(canary)} ms against live's ${Math.round(live)} ms (more than ${Math.round(margin * 100)} % worse)`
    : null;
}

/**
 * What to do with a canary at `percent` given both sides' figures since it started and how many
 * evaluations in a row it has been healthy (before this one).
 *
 * - wait: a side has fewer than `minLoads` page loads;
 * - rollback: its error rate is higher than live's beyond chance (z above `policy.z`), or its p75
 *   LCP or INP is worse than live's by more than the margin;
 * - hold: healthy, but not yet for `holdIntervals` evaluations in a row;
 * - step: healthy long enough, to the next share in `steps` above the current one;
 * - promote: healthy long enough at the last share.
 *
 * @param {{ canary: Sample, live: Sample, percent: number, healthy: number, policy?: Policy }} input
 * @returns {Decision}
 */
export function decideCanary({ canary, live, percent, healthy, policy = DEFAULT_POLICY }) {
  if (canary.loads < policy.minLoads || live.loads < policy.minLoads)
    return {
      action: 'wait',
      reason: `too few page loads yet: canary ${canary.loads}, live ${live.loads}, each needs ${policy.minLoads}`,
    };
  const z = errorRateZ(canary, live);
  const rates = `error rate ${pct(canary.errorLoads / canary.loads)} against live's ${pct(live.errorLoads / live.loads)}`;
  if (z > policy.z)
    return { action: 'rollback', reason: `${rates}, z = ${z === Infinity ? '∞' : z.toFixed(2)} > ${policy.z}` };
  const slower =
    worseVital('LCP', canary.p75.lcp, live.p75.lcp, policy.lcpMargin) ??
    worseVital('INP', canary.p75.inp, live.p75.inp, policy.inpMargin);
  if (slower) return { action: 'rollback', reason: slower };
  const held = healthy + 1;
  const healthyFor = `healthy (${rates}) for ${held} of ${policy.holdIntervals} evaluations`;
  if (held < policy.holdIntervals) return { action: 'hold', reason: healthyFor };
  const next = policy.steps.find((share) => share > percent);
  return next === undefined
    ? { action: 'promote', reason: healthyFor }
    : { action: 'step', reason: healthyFor, percent: next };
}
