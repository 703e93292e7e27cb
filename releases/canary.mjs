// The canary's judge (issue "Releases that watch themselves", item 4; made sound by issue 39,
// item 2): a pure function from the real-user figures of a canary and of the live version it runs
// beside, as they stood at every evaluation since the canary started, to what to do next. The
// watcher (watch.mjs) calls it every interval and carries the decision out; the simulation
// (simulate.mjs) calls it with simulated figures; tests call it with crafted ones.
//
// Every test here is an e-process: a running product of evidence that, while the canary is no
// worse than live, is at most 1 on average whatever happened before. Ville's inequality bounds
// the chance it ever reaches 1/a by a, so the bound holds however often the watcher looks and
// whenever it stops; each look is not a new chance of a false rollback, as it was with a z test
// repeated on cumulative totals.

/**
 * @typedef {import('./figures.mjs').Sample} Sample
 * @typedef {import('./figures.mjs').TopError} TopError
 * One evaluation: both sides' figures since the canary started (cumulative) and the canary's share
 * of browsers, in percent, while they were gathered (the share before any step that evaluation decided).
 * @typedef {{ percent: number, canary: Sample, live: Sample }} Look
 */

/**
 * @typedef {object} Policy
 * @property {number} alpha the chance, at most, of rolling back a canary that is in fact as good as live (over the whole canary, however often it is evaluated)
 * @property {number} promoteAlpha the chance, at most, of promoting a canary that is in fact worse than a margin below
 * @property {number} margin how much higher the canary's error rate may be, in absolute terms (0.01: 1 point), for it to be promoted: promotion needs evidence that it is not higher by more
 * @property {number} lcpMargin how much worse the canary's p75 LCP may be, as a share of live's (0.2: 20 %): evidence that it is worse by more rolls back, evidence that it is not is needed to promote
 * @property {number} inpMargin the same for p75 INP
 * @property {{ lcp: number, inp: number }} spread the spread assumed of each vital's values (standard deviation of their logarithm over all page loads): the figures carry only a p75, so its uncertainty is derived from this
 * @property {number} minLoads page loads each side needs before errors or vitals decide anything (the sample ratio is judged from the start)
 * @property {number[]} steps the shares, in percent, the canary steps up through; promoted at the last
 * @property {number} holdIntervals evaluations with enough loads at a share before stepping up from it, or promoting at the last
 * @property {number} deadlineIntervals evaluations, since the canary started, after which a canary neither rolled back nor promoted is inconclusive
 * @property {number} intervalSeconds how often the watcher evaluates
 */

/** @type {Policy} */
export const DEFAULT_POLICY = {
  alpha: 0.05,
  promoteAlpha: 0.05,
  margin: 0.01,
  lcpMargin: 0.2,
  inpMargin: 0.2,
  spread: { lcp: 0.8, inp: 1.2 },
  minLoads: 100,
  steps: [25, 50],
  holdIntervals: 3,
  deadlineIntervals: 120,
  intervalSeconds: 60,
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
 * @typedef {{ harm: number, noHarm: number, ratio: number, lcp?: number, inp?: number }} Evidence
 * the e-values behind a decision: harm (errors, canary worse), noHarm (errors, canary not worse
 * than the margin), ratio (its pages missing), lcp / inp (p75 worse than the margin)
 * @typedef {{ action: 'wait' | 'hold' | 'step' | 'promote' | 'rollback' | 'inconclusive', reason: string, percent?: number, evidence?: Evidence }} Decision
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

/**
 * A block: what was added between two evaluations, per side, at one share.
 * @typedef {{ percent: number, canary: { n: number, x: number }, live: { n: number, x: number } }} Block
 */

/**
 * The figures as blocks. Cumulative figures can go backwards (the API's window, a restarted API):
 * a block never has fewer than zero loads. A page load's errors can arrive after the load was
 * first counted (it sends a beacon each time it is hidden): errors beyond a block's new loads are
 * carried to the next block rather than making a block with more failed loads than loads.
 * @param {Look[]} looks @returns {Block[]}
 */
export function blocksOf(looks) {
  /** @type {Block[]} */
  const blocks = [];
  const side = () => ({ loads: 0, errorLoads: 0, carry: 0 });
  const seen = { canary: side(), live: side() };
  for (const look of looks) {
    /** @param {'canary' | 'live'} name */
    const add = (name) => {
      const before = seen[name];
      const now = look[name];
      const n = Math.max(0, now.loads - before.loads);
      const pending = Math.max(0, now.errorLoads - before.errorLoads) + before.carry;
      const x = Math.min(pending, n);
      seen[name] = {
        loads: Math.max(before.loads, now.loads),
        errorLoads: Math.max(before.errorLoads, now.errorLoads),
        carry: pending - x,
      };
      return { n, x };
    };
    blocks.push({ percent: look.percent, canary: add('canary'), live: add('live') });
  }
  return blocks;
}

/** log(p^x (1-p)^(n-x)), 0 for no loads. @param {number} x @param {number} n @param {number} p */
const logLik = (x, n, p) => (x > 0 ? x * Math.log(p) : 0) + (n - x > 0 ? (n - x) * Math.log1p(-p) : 0);

/**
 * The rate of live, p, that the null hypothesis "the canary's rate is live's plus delta" fits a
 * block worst against the guesses (ta, tb), for na canary and nb live loads: the root of the
 * derivative of the log of the e-value's expectation, which is concave in p (Turner, Ly and
 * Grünwald 2024, "Generic e-variables for exact sequential k-sample tests"). At that point the
 * expectation is 1 and everywhere else on the null it is less, which is what makes the block's
 * likelihood ratio an e-value however small the counts.
 * @param {number} na @param {number} nb @param {number} ta @param {number} tb @param {number} delta
 */
export function nullRate(na, nb, ta, tb, delta) {
  if (delta === 0) return (na * ta + nb * tb) / (na + nb);
  /** @param {number} p */
  const slope = (p) => {
    const q = p + delta;
    return (na * (ta - q)) / (q * (1 - q)) + (nb > 0 ? (nb * (tb - p)) / (p * (1 - p)) : 0);
  };
  // Decreasing in p; with no live loads its root can be below 0, where the null's edge is the point.
  let lo = 0;
  let hi = 1 - delta;
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
 * - noHarm: evidence that it does not fail more often by `margin` or more (null: its rate at
 *   least live's plus the margin), which promotion needs.
 *
 * Each block stakes on the side's rates estimated from the blocks before it only (so the product
 * stays an e-process), each estimate shrunk towards the pooled rate by PSEUDO_ERRORS; a block
 * whose estimates point the other way stakes nothing (its factor is 1). Conditional on the loads,
 * a block's factor has expectation at most 1 under every rate in the null, for any counts: the
 * test is exact for small counts, and valid too when both sides' rates drift together over the
 * day. One failed load against none at a 10 % share can give at most about 10 (the 1/share a
 * lone error on the canary's side is worth), short of 1/alpha.
 *
 * @param {Block[]} blocks @param {number} margin
 */
export function errorEvidence(blocks, margin) {
  return errorEvidenceOfPairs(pairedBlocks(blocks), margin);
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

/** @param {Block[]} blocks each with loads on both sides @param {number} margin */
function errorEvidenceOfPairs(blocks, margin) {
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
      if (ta < tb + margin) {
        const p0 = nullRate(canary.n, live.n, ta, tb, margin);
        noHarm += guess - logLik(canary.x, canary.n, p0 + margin) - logLik(live.x, live.n, p0);
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
 * The shares, as a fraction of the expected one, that the sample-ratio test bets on: "far below"
 * means under about 80 % of it (pages that crash before they report, or never load the canary).
 */
const RATIO_GRID = Array.from({ length: 12 }, (_, i) => 0.05 + (0.55 * i) / 11);
/**
 * Evaluations at a share before its blocks count for the sample ratio: a page reports when it is
 * hidden, so for a while after the canary starts or steps up, loads served at the old share are
 * still arriving, and the canary's share looks lower than it is.
 */
const RATIO_SETTLE = 2;

/**
 * The sample-ratio e-process: evidence that the canary's share of page loads is far below its
 * share of browsers. Each load is the canary's with probability share under the null; the
 * alternative, a mixture over RATIO_GRID, gives it share x r / (share x r + 1 - share). A mixture of
 * likelihood-ratio martingales is one, exact for any counts, and the share may change between
 * blocks (the null's probability is the block's own).
 * @param {Block[]} blocks
 */
export function ratioEvidence(blocks) {
  const logs = RATIO_GRID.map(() => 0);
  blocks.forEach((block, k) => {
    const settled = k >= RATIO_SETTLE && blocks.slice(k - RATIO_SETTLE, k).every((b) => b.percent === block.percent);
    const s = block.percent / 100;
    if (!settled || s <= 0 || s >= 1) return;
    RATIO_GRID.forEach((r, i) => {
      const sr = (s * r) / (s * r + 1 - s);
      logs[i] = (logs[i] ?? 0) + block.canary.n * Math.log(sr / s) + block.live.n * Math.log((1 - sr) / (1 - s));
    });
  });
  const top = Math.max(...logs);
  return Math.exp(top) * (logs.reduce((sum, l) => sum + Math.exp(l - top), 0) / logs.length);
}

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
  if (canaryRate >= liveRate + policy.margin) return Infinity;
  const clamp = (/** @type {number} */ p) => Math.min(Math.max(p, 1e-9), 1 - 1e-9);
  const [pa, pb] = [clamp(canaryRate), clamp(liveRate)];
  const perLoad = (1 - share) / share;
  const p0 = nullRate(1, perLoad, pa, pb, policy.margin);
  const growth = kl(pa, p0 + policy.margin) + perLoad * kl(pb, p0);
  return Math.ceil(Math.log(1 / (policy.promoteAlpha * ALPHA_SHARE.promote.errors)) / growth);
}

const pct = (/** @type {number} */ x) => `${(x * 100).toFixed(1)} %`;
const pts = (/** @type {number} */ x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} pt`;
const ev = (/** @type {number} */ e) => (e >= 1e6 ? e.toExponential(1) : e >= 100 ? e.toFixed(0) : e.toFixed(1));
const change = (/** @type {number} */ r) => `${r >= 1 ? '+' : ''}${Math.round((r - 1) * 100)} %`;
const ms = (/** @type {number} */ v) => `${Math.round(v)} ms`;

/** @param {VitalJudgement} v */
const vitalLine = (v) =>
  `p75 ${v.name} ${ms(v.canary)} against live's ${ms(v.live)} (${change(v.ratio)}, interval ${change(v.low)} to ${change(v.high)})`;

/**
 * The canary's commonest error as a rollback's reason names it (issue 39, item 6): its words as
 * JSON quotes them (a message may hold quotes or lines), where it was thrown, and its share.
 * @param {TopError} e
 */
export const topErrorText = (e) =>
  `top error: ${JSON.stringify(e.message)}${e.frame ? ` at ${e.frame}` : ''} (${e.count} of ${e.total} error${e.total === 1 ? '' : 's'})`;

/**
 * What to do with a canary, given both sides' figures at every evaluation since it started (the
 * last one now):
 *
 * - rollback: its share of page loads is far below its share of browsers (sample-ratio
 *   e-process, judged from the start); or, once each side has `minLoads` loads, its error rate is
 *   above live's (harm e-process), or its p75 LCP or INP is worse than live's by more than the
 *   margin (mSPRT on the log ratio); each at its part of `alpha`;
 * - wait: a side has fewer than `minLoads` page loads;
 * - promote: at the last share for `holdIntervals` evaluations, with evidence that its error
 *   rate is not higher than live's by `margin` or more and that each reported p75 is not worse
 *   by its margin or more (at parts of `promoteAlpha`);
 * - inconclusive: `deadlineIntervals` evaluations without either: the canary stays at its share
 *   and the releaser decides;
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
  const errors = errorEvidence(blocks, policy.margin);
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
      `the canary has ${pct(share)} of the page loads at a ${percent} % share: its pages do not report, or do not load it (sample-ratio evidence ${ev(ratio)} ≥ ${ev(1 / (policy.alpha * ra.ratio))})`,
    );
  }
  if (canary.loads < policy.minLoads || live.loads < policy.minLoads)
    return {
      action: 'wait',
      reason: `too few page loads yet: canary ${canary.loads}, live ${live.loads}, each needs ${policy.minLoads}`,
      evidence,
    };

  const harmBar = 1 / (policy.alpha * ra.errors);
  if (errors.harm >= harmBar)
    return rollback(
      `${rates} (${pts(canary.errorLoads / canary.loads - live.errorLoads / live.loads)}): evidence of more errors ${ev(errors.harm)} ≥ ${ev(harmBar)}`,
    );

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
        `${rates}: not worse by ${pts(policy.margin)} or more (evidence ${ev(errors.noHarm)} ≥ ${ev(noHarmBar)})`,
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
        `no evidence yet that the error rate is not worse by ${pts(policy.margin)} (${ev(errors.noHarm)} of ${ev(noHarmBar)}; ${
          Number.isFinite(needed)
            ? `at these rates at least ${needed} canary loads in all, ${canary.loads} so far`
            : 'at these rates it never will be'
        })`,
      );
    }
    for (const { judged, margin } of unbounded)
      parts.push(`p75 ${judged.name} not yet shown within ${Math.round(margin * 100)} %`);
    return parts.join('; ');
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
