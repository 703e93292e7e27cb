// One simulated canary: page loads arriving every interval (Poisson around the stated traffic),
// each the canary's with the share's probability, failing with its side's error rate, drawing its
// vitals, and reporting at the end of its interval or a few intervals later; the judge fed both
// sides' cumulative figures at every interval, as the watcher would be, the share stepping up as
// it decides.
import { decideCanary } from './canary.mjs';
import { BIN_OF, quantileTracker } from './p75-histogram.mjs';
import { poisson } from './seeded-random.mjs';

/**
 * A scenario: error rates and vitals of each side, the traffic, and what else is wrong.
 * @typedef {object} Scenario
 * @property {string} name
 * @property {number} traffic page loads of the remote per interval (both versions), on average
 * @property {number} liveRate live's failed-load rate
 * @property {number} canaryRate the canary's
 * @property {number} [drift] the amplitude of a common swing of both rates over 40 intervals (0.8: from 0.2x to 1.8x), as error rates swing over a day
 * @property {number} [canaryLcp] the canary's median LCP as a multiple of live's (1)
 * @property {number} [reporting] the share of the canary's page loads that report at all (1)
 * @property {number} [startPercent] the canary's first share (10)
 */

/** Vitals: LCP log-normal around 1500 ms (spread 0.6) on every load, INP around 150 ms (spread 0.8) on one load in two. */
const VITALS = { lcp: { median: 1500, spread: 0.6, share: 1 }, inp: { median: 150, spread: 0.8, share: 0.5 } };
/** When a load reports, in intervals after the one it started in: [cumulative probability, delay]. */
/** @type {[number, number][]} */
const DELAYS = [
  [0.6, 0],
  [0.85, 1],
  [0.95, 2],
  [1, 5],
];

/**
 * @typedef {(input: { looks: import('./canary.mjs').Look[], policy: import('./canary.mjs').Policy }) => { action: string, percent?: number }} Judge
 */

/**
 * One simulated canary, from its release to the judge's last decision.
 * @param {Scenario} scenario @param {import('./canary.mjs').Policy} policy @param {() => number} random
 * @param {Judge} [judge] the real one unless comparing
 * @returns {{ action: string, intervals: number, canaryLoads: number }}
 */
export function simulateCanary(scenario, policy, random, judge = decideCanary) {
  const { traffic, liveRate, canaryRate, drift = 0, canaryLcp = 1, reporting = 1, startPercent = 10 } = scenario;
  let percent = startPercent;
  /** Loads started, waiting to report: per interval ahead, [canary, live]. */
  const queued = Array.from({ length: policy.deadlineIntervals + 8 }, () => [0, 0]);
  const side = () => ({
    loads: 0,
    errorLoads: 0,
    lcp: quantileTracker(),
    inp: quantileTracker(),
  });
  const sides = { canary: side(), live: side() };
  /** @type {import('./canary.mjs').Look[]} */
  const looks = [];
  for (let t = 0; t < policy.deadlineIntervals; t++) {
    const share = percent / 100;
    for (let i = poisson(random, traffic); i > 0; i--) {
      const isCanary = random() < share;
      if (isCanary && random() >= reporting) continue;
      const u = random();
      const delay = DELAYS.find(([p]) => u < p)?.[1] ?? 0;
      const slot = queued[t + delay];
      if (slot) slot[isCanary ? 0 : 1] = (slot[isCanary ? 0 : 1] ?? 0) + 1;
    }
    const swing = 1 + drift * Math.sin((2 * Math.PI * t) / 40);
    for (const [index, name] of /** @type {const} */ ([
      [0, 'canary'],
      [1, 'live'],
    ])) {
      const s = sides[name];
      const rate = (name === 'canary' ? canaryRate : liveRate) * swing;
      for (let i = queued[t]?.[index] ?? 0; i > 0; i--) {
        s.loads += 1;
        if (random() < rate) s.errorLoads += 1;
        s.lcp.add(BIN_OF[(random() * 65536) | 0] ?? 0);
        if (random() < VITALS.inp.share) s.inp.add(BIN_OF[(random() * 65536) | 0] ?? 0);
      }
    }
    /** @param {'canary' | 'live'} name @returns {import('./figures.mjs').Sample} */
    const sample = (name) => {
      const s = sides[name];
      const scale = name === 'canary' ? canaryLcp : 1;
      const lcp = s.lcp.p75();
      const inp = s.inp.p75();
      return {
        loads: s.loads,
        errorLoads: s.errorLoads,
        p75: {
          lcp: lcp === null ? null : VITALS.lcp.median * scale * Math.exp(VITALS.lcp.spread * lcp),
          inp: inp === null ? null : VITALS.inp.median * Math.exp(VITALS.inp.spread * inp),
        },
      };
    };
    looks.push({ percent, canary: sample('canary'), live: sample('live') });
    const decision = judge({ looks, policy });
    if (decision.action === 'step' && decision.percent !== undefined) percent = decision.percent;
    // Undecided at the deadline, whatever the policy then does with it (rolls it back by default):
    // the rollbacks counted are the evidence's.
    if (decision.action === 'rollback' && 'deadline' in decision && decision.deadline)
      return { action: 'inconclusive', intervals: t + 1, canaryLoads: sides.canary.loads };
    if (['rollback', 'promote', 'inconclusive'].includes(decision.action))
      return { action: decision.action, intervals: t + 1, canaryLoads: sides.canary.loads };
  }
  return { action: 'inconclusive', intervals: policy.deadlineIntervals, canaryLoads: sides.canary.loads };
}
