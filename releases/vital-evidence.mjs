// A p75 vital (LCP, INP) of the canary judged against live's: an always-valid interval on their
// ratio and the evidence that it is worse, or not worse, than the margin.

/**
 * The standard error of log(p75) from n values whose logarithm has standard deviation 1: the
 * sample quantile's variance p(1-p) / (n f(q)^2) at p = 0.75 for normal log-values, whose density
 * at the 75th percentile is 0.3178.
 */
const P75_LOG_SE = Math.sqrt(0.75 * 0.25) / 0.31778;

/**
 * @typedef {{ name: string, canary: number, live: number, ratio: number, low: number, high: number, worse: number, within: number }} VitalJudgement
 * ratio, low, high: the canary's p75 over live's and the always-valid interval around it (at the
 * promotion alpha); worse: evidence it is worse than the margin; within: evidence it is not
 */

/**
 * A p75 vital judged with an interval: the logarithm of the ratio of the two p75s, with a variance
 * from each side's count of values and the assumed spread, tested with a normal-mixture sequential
 * probability ratio (the mSPRT of Johari, Pekelis and Walsh, "Always valid inference"; mixing
 * scale: the margin). Null when a side lacks the vital, or has fewer than `minCount` values.
 * @param {{ name: string, canary: number | null | undefined, live: number | null | undefined, counts: [number, number], minCount: number, margin: number, spread: number, alpha: number }} input
 * @returns {VitalJudgement | null}
 */
export function judgeVital({ name, canary, live, counts, minCount, margin, spread, alpha }) {
  if (canary == null || live == null || canary <= 0 || live <= 0) return null;
  if (counts[0] < minCount || counts[1] < minCount) return null;
  const d = Math.log(canary / live);
  const bound = Math.log(1 + margin);
  const v = (spread * P75_LOG_SE) ** 2 * (1 / counts[0] + 1 / counts[1]);
  const tau2 = Math.max(bound, 0.05) ** 2;
  /** @param {number} theta */
  const lambda = (theta) => Math.sqrt(v / (v + tau2)) * Math.exp((tau2 * (d - theta) ** 2) / (2 * v * (v + tau2)));
  const half = Math.sqrt(((v * (v + tau2)) / tau2) * (Math.log((v + tau2) / v) + 2 * Math.log(1 / alpha)));
  return {
    name,
    canary,
    live,
    ratio: canary / live,
    low: Math.exp(d - half),
    high: Math.exp(d + half),
    worse: d > bound ? lambda(bound) : 1,
    within: d < bound ? lambda(bound) : 1,
  };
}
