// The e-processes on the error rates (harm: the canary fails more often than live; no harm: not
// by the policy's margin or more), and the page loads promotion needs at given rates.
import { ALPHA_SHARE, DEFAULT_POLICY, harmAt } from './canary-policy.mjs';

/**
 * @typedef {import('./blocks.mjs').Block} Block
 * @typedef {import('./canary-policy.mjs').Policy} Policy
 */

/**
 * The failed loads, at the pooled rate, each side's estimate pretends to have seen before its own:
 * with no loads of its own a side is guessed at the pooled rate (nothing is staked on a
 * difference), and its own loads move the guess once they hold a few failures. Counted in failures,
 * not loads, so it weighs the same at 1 % (200 loads) as at 50 % (4): tuned by the simulation
 * (1 to 4 do about as well at 1 % with 50 to 1000 loads an interval; 2 keeps the e2e test's
 * 80 %-failing canary rolled back within 8 to 20 of its loads).
 */
const PSEUDO_ERRORS = 2;

/** log(p^x (1-p)^(n-x)), 0 for no loads. @param {number} x @param {number} n @param {number} p */
const logLik = (x, n, p) => (x > 0 ? x * Math.log(p) : 0) + (n - x > 0 ? (n - x) * Math.log1p(-p) : 0);

/**
 * The rate of live, p, that the null hypothesis "the canary's rate is `ratio` times live's plus
 * delta" fits a block worst against the guesses (ta, tb), for na canary and nb live loads: the
 * root of the derivative of the log of the e-value's expectation, which is concave in p (Turner,
 * Ly and Grünwald 2024, "Generic e-variables for exact sequential k-sample tests"). At that point
 * the expectation is 1 and everywhere else on the null it is less, which is what makes the
 * block's likelihood ratio an e-value however small the counts (for a ratio above 1 too: the
 * tests compute that expectation exactly over every outcome of small blocks).
 * @param {number} na @param {number} nb @param {number} ta @param {number} tb @param {number} delta @param {number} [ratio]
 */
export function nullRate(na, nb, ta, tb, delta, ratio = 1) {
  if (delta === 0 && ratio === 1) return (na * ta + nb * tb) / (na + nb);
  /** @param {number} p */
  const slope = (p) => {
    const q = ratio * p + delta;
    return (ratio * na * (ta - q)) / (q * (1 - q)) + (nb > 0 ? (nb * (tb - p)) / (p * (1 - p)) : 0);
  };
  // Decreasing in p; with no live loads its root can be below 0, where the null's edge is the point.
  let lo = 0;
  let hi = (1 - delta) / ratio;
  if (nb === 0 && slope(1e-12) <= 0) return 0;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (slope(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The two e-processes on the error rates, one product over the blocks each:
 *
 * - harm: evidence that the canary fails more often than live (null: its rate at most live's);
 * - noHarm: evidence that it does not fail more often by the policy's harm or more (null: its
 *   rate at least live's plus `harmAt` live's rate: `relativeMargin` of it, or `margin` when
 *   that is more), which promotion needs. That null is the meet of two half-planes (at least
 *   1 + relativeMargin times live's; at least live's plus margin): each block's factor stakes
 *   against the one that binds at the live rate estimated from the blocks before it, and a factor
 *   valid for either half-plane is valid for their meet.
 *
 * Each block stakes on the side's rates estimated from the blocks before it only (so the product
 * stays an e-process), each estimate shrunk towards the pooled rate by PSEUDO_ERRORS; a block
 * whose estimates point the other way stakes nothing (its factor is 1). Conditional on the loads,
 * a block's factor has expectation at most 1 under every rate in the null, for any counts: the
 * test is exact for small counts, and valid too when both sides' rates drift together over the
 * day. One failed load against none at a 10 % share can give at most about 10 (the 1/share a
 * lone error on the canary's side is worth), short of 1/alpha.
 *
 * @param {Block[]} blocks @param {Pick<Policy, 'margin' | 'relativeMargin'>} rule
 */
export function errorEvidence(blocks, rule) {
  return errorEvidenceOfPairs(pairedBlocks(blocks), rule);
}

/**
 * The blocks merged, in order, until each has page loads on both sides. A block with loads on
 * one side only carries no evidence (the null may give that side any rate, live's being free):
 * at low traffic, where an evaluation sees a load or two, most blocks were such and the test
 * never gained evidence however long it watched (a canary failing 30 % of loads against none on
 * live went 36 loads a side without a decision). Merging by the counts of loads alone, never by
 * the errors, keeps each factor's expectation at most 1 given the loads. A last block still
 * one-sided waits for the next evaluation.
 * @param {Block[]} blocks @returns {Block[]}
 */
function pairedBlocks(blocks) {
  /** @type {Block[]} */
  const paired = [];
  /** @type {Block | null} */
  let open = null;
  for (const block of blocks) {
    open = open
      ? {
          percent: block.percent,
          canary: { n: open.canary.n + block.canary.n, x: open.canary.x + block.canary.x },
          live: { n: open.live.n + block.live.n, x: open.live.x + block.live.x },
        }
      : block;
    if (open.canary.n > 0 && open.live.n > 0) {
      paired.push(open);
      open = null;
    }
  }
  return paired;
}

/**
 * The null's edge a block stakes against: the canary's rate is `ratio` times live's plus `delta`.
 * The relative one where it binds at live's estimated rate `tb`, once live has loads to estimate
 * it from (`informed`): against a guess with nothing behind it (the pooled start, 50 %), staking
 * on a ratio is a large bet on nothing, and one such block cost more evidence than a hundred
 * clean ones then earned. Otherwise the absolute floor, whose stake is small.
 * @param {Pick<Policy, 'margin' | 'relativeMargin'>} rule @param {number} tb @param {boolean} informed
 */
const edgeAt = (rule, tb, informed = true) =>
  informed && (rule.relativeMargin ?? 0) * tb >= rule.margin
    ? { ratio: 1 + (rule.relativeMargin ?? 0), delta: 0 }
    : { ratio: 1, delta: rule.margin };

/** @param {Block[]} blocks each with loads on both sides @param {Pick<Policy, 'margin' | 'relativeMargin'>} rule */
function errorEvidenceOfPairs(blocks, rule) {
  let harm = 0;
  let noHarm = 0;
  let xa = 0;
  let na = 0;
  let xb = 0;
  let nb = 0;
  for (const { canary, live } of blocks) {
    if (canary.n + live.n > 0) {
      const pooled = (xa + xb + 0.5) / (na + nb + 1);
      const prior = PSEUDO_ERRORS / pooled;
      const ta = (xa + prior * pooled) / (na + prior);
      const tb = (xb + prior * pooled) / (nb + prior);
      const guess = logLik(canary.x, canary.n, ta) + logLik(live.x, live.n, tb);
      if (ta > tb) {
        const p0 = nullRate(canary.n, live.n, ta, tb, 0);
        harm += guess - logLik(canary.x + live.x, canary.n + live.n, p0);
      }
      const { ratio, delta } = edgeAt(rule, tb, nb > 0);
      if (ta < ratio * tb + delta) {
        const p0 = nullRate(canary.n, live.n, ta, tb, delta, ratio);
        noHarm += guess - logLik(canary.x, canary.n, ratio * p0 + delta) - logLik(live.x, live.n, p0);
      }
    }
    xa += canary.x;
    na += canary.n;
    xb += live.x;
    nb += live.n;
  }
  return { harm: Math.exp(harm), noHarm: Math.exp(noHarm) };
}

/**
 * Kullback-Leibler divergence of Bernoulli(p) from Bernoulli(q). @param {number} p @param {number} q
 */
const kl = (p, q) => (p > 0 ? p * Math.log(p / q) : 0) + (p < 1 ? (1 - p) * Math.log((1 - p) / (1 - q)) : 0);

/**
 * How many canary page loads, at least, promotion needs when the canary's error rate is
 * `canaryRate`, live's `liveRate` and the canary has `share` of the loads: the evidence of no
 * harm grows by at most the divergence of the true rates from the null's nearest point per load,
 * and must reach 1 / (its alpha). Infinity when the canary is worse than the margin allows.
 * @param {{ canaryRate: number, liveRate: number, share: number, policy?: Policy }} input
 */
export function promotionLoads({ canaryRate, liveRate, share, policy = DEFAULT_POLICY }) {
  if (canaryRate >= liveRate + harmAt(policy, liveRate)) return Infinity;
  const clamp = (/** @type {number} */ p) => Math.min(Math.max(p, 1e-9), 1 - 1e-9);
  const [pa, pb] = [clamp(canaryRate), clamp(liveRate)];
  const perLoad = (1 - share) / share;
  const { ratio, delta } = edgeAt(policy, pb);
  const p0 = nullRate(1, perLoad, pa, pb, delta, ratio);
  const growth = kl(pa, ratio * p0 + delta) + perLoad * kl(pb, p0);
  return Math.ceil(Math.log(1 / (policy.promoteAlpha * ALPHA_SHARE.promote.errors)) / growth);
}
