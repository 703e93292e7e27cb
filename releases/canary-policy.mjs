// The watcher's policy for a canary: its alphas and margins, the shares it steps through and how
// often and how long it is judged; the defaults, and how each alpha is shared between the tests.

/**
 * @typedef {object} Policy
 * @property {number} alpha the chance, at most, of rolling back a canary that is in fact as good as live (over the whole canary, however often it is evaluated)
 * @property {number} promoteAlpha the chance, at most, of promoting a canary that is in fact worse than a margin below
 * @property {number} margin the least harm that counts, in absolute terms (0.002: 0.2 points): the floor under `relativeMargin` for near-zero rates
 * @property {number} [relativeMargin] how much higher the canary's error rate may be, as a share of live's (0.5: half as high again), for it to be promoted, or `margin` when that is more: promotion needs evidence that it is not higher by more. A policy recorded without it, before it existed, has an absolute margin alone (0)
 * @property {number} lcpMargin how much worse the canary's p75 LCP may be, as a share of live's (0.2: 20 %): evidence that it is worse by more rolls back, evidence that it is not is needed to promote
 * @property {number} inpMargin the same for p75 INP
 * @property {{ lcp: number, inp: number }} spread the spread assumed of each vital's values (standard deviation of their logarithm over all page loads): the figures carry only a p75, so its uncertainty is derived from this
 * @property {number} minLoads page loads each side needs before errors or vitals decide anything (the sample ratio is judged from the start)
 * @property {number[]} steps the shares, in percent, the canary steps up through; promoted at the last
 * @property {number} holdIntervals evaluations with enough loads at a share before stepping up from it, or promoting at the last
 * @property {number} deadlineIntervals evaluations, since the canary started, after which a canary neither rolled back nor promoted is decided by `atDeadline`
 * @property {'rollback' | 'hold'} [atDeadline] what becomes of a canary undecided at the deadline: rolled back (never left serving unwatched), or held at its share for the releaser (`--at-deadline hold`); a policy recorded without it, before it existed, holds
 * @property {number} intervalSeconds how often the watcher evaluates
 * @property {number} [bakeIntervals] evaluations of a version the watcher promoted, against the version it replaced, before it is `baked` (bake.mjs); rolled back to that version on harm. A policy recorded without it, before it existed, has no bake (0)
 */

/** @type {Policy} */
export const DEFAULT_POLICY = {
  alpha: 0.05,
  promoteAlpha: 0.05,
  margin: 0.002,
  relativeMargin: 0.5,
  lcpMargin: 0.2,
  inpMargin: 0.2,
  spread: { lcp: 0.8, inp: 1.2 },
  minLoads: 100,
  steps: [25, 50],
  holdIntervals: 3,
  deadlineIntervals: 120,
  atDeadline: 'rollback',
  intervalSeconds: 60,
  bakeIntervals: 30,
};

/**
 * How `alpha` (and `promoteAlpha`) is shared between the tests that can roll back (or must pass to
 * promote): a false rollback needs one of them to err, so their alphas add up to the stated one.
 * Errors get most: they are the commonest harm and the test with the fewest assumptions.
 */
export const ALPHA_SHARE = {
  rollback: { errors: 0.7, lcp: 0.1, inp: 0.1, ratio: 0.1 },
  promote: { errors: 0.8, lcp: 0.1, inp: 0.1 },
};

/**
 * The fields of a policy that say what counts as evidence. They are fixed with the canary when it
 * is first given a policy (its `canary` line, or the first `policy` line of a canary released
 * unwatched): its evaluations are products over every interval, and judging those again under
 * another alpha or margin would let a watcher restarted with other values decide at once what
 * the canary's own rule had not.
 */
export const JUDGED_FIELDS = /** @type {const} */ ([
  'alpha',
  'promoteAlpha',
  'margin',
  'relativeMargin',
  'lcpMargin',
  'inpMargin',
  'spread',
  'minLoads',
]);

/**
 * The policy a canary goes on with when it is given `next`: `next`'s pace, shares, deadline and
 * bake, and the judged fields of the policy it was first given (`first`).
 * @param {Policy} first @param {Policy} next @returns {Policy}
 */
export function keepingRule(first, next) {
  /** @type {Partial<Policy>} */
  const rule = Object.fromEntries(JUDGED_FIELDS.map((field) => [field, first[field]]));
  return { ...next, ...rule };
}

/**
 * The error-rate harm a policy tolerates at live's rate `liveRate`: `relativeMargin` of it, or
 * `margin` when that is more.
 * @param {Pick<Policy, 'margin' | 'relativeMargin'>} policy @param {number} liveRate
 */
export const harmAt = (policy, liveRate) => Math.max((policy.relativeMargin ?? 0) * liveRate, policy.margin);

/**
 * That harm in words, as decisions and the watcher's banner give it.
 * @param {Pick<Policy, 'margin' | 'relativeMargin'>} policy
 */
export function harmText(policy) {
  const floor = `${(policy.margin * 100).toFixed(1)} pt`;
  return policy.relativeMargin
    ? `${Math.round(policy.relativeMargin * 100)} % of live's rate (at least ${floor})`
    : `+${floor}`;
}
