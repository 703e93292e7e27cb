// A pooled two-proportion z test as a judge, run on the same simulated canaries as the real one to
// show what repeated looks at cumulative totals cost.

/** @typedef {import('./simulated-canary.mjs').Judge} Judge */

/**
 * A judge for comparison only: a pooled two-proportion z test at 1.645 on the cumulative totals
 * at every evaluation, p75 vitals compared as point estimates, and a step or promotion after
 * `holdIntervals` evaluations without either.
 * @type {Judge}
 */
export function zTestJudge({ looks, policy }) {
  const now = looks.at(-1);
  if (!now) return { action: 'wait' };
  const { canary: c, live: l, percent } = now;
  if (c.loads < policy.minLoads || l.loads < policy.minLoads) return { action: 'wait' };
  const pooled = (c.errorLoads + l.errorLoads) / (c.loads + l.loads);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / c.loads + 1 / l.loads));
  const diff = c.errorLoads / c.loads - l.errorLoads / l.loads;
  if ((se === 0 ? (diff > 0 ? Infinity : 0) : diff / se) > 1.645) return { action: 'rollback' };
  const worse = (/** @type {number | null | undefined} */ a, /** @type {number | null | undefined} */ b, m = 0) =>
    a != null && b != null && b > 0 && a > b * (1 + m);
  if (worse(c.p75.lcp, l.p75.lcp, policy.lcpMargin) || worse(c.p75.inp, l.p75.inp, policy.inpMargin))
    return { action: 'rollback' };
  let held = 0;
  for (let i = looks.length - 1; i >= 0 && looks[i]?.percent === percent; i--) held += 1;
  if (held < policy.holdIntervals) return { action: 'hold' };
  const next = policy.steps.find((share) => share > percent);
  return next === undefined ? { action: 'promote' } : { action: 'step', percent: next };
}
