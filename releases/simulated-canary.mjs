// One simulated canary: page loads arriving every interval (Poisson around the stated traffic),
// each the canary's with the share's probability, failing with its side's error rate, drawing its
// vitals, and reporting at the end of its interval or a few intervals later; the judge fed both
// sides' cumulative figures at every interval, as the watcher would be, the share stepping up as
// it decides.
//
// With a population of browsers (Scenario.browsers), each load is a browser's: drawn from the
// population, on the canary when the browser's cohort is below the share (it sticks, as the
// cohort cookie does), failing at its browser's own rate (a few fail often). The judge is then
// fed its units either per page load or per browser, each by its first load of the version, as
// the API counts them (firstLoadPerBrowser in api/src/repositories/rum.ts).
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
 * @property {Browsers} [browsers] loads come from this population of browsers, not each from a browser of its own
 * @property {Attack} [attack] scripts adding failed browsers of their own to one side
 * @property {KeptRenders} [keptRenders] loads come in copies of kept server renders, not each rendered afresh
 */

/**
 * A hot page: each server render is kept by nginx and served to the next `copies` visitors of its
 * side (its address is asked for that often while it is kept), each a load of its own, every
 * copy carrying the render's failure; a render fails at its side's rate. `unit`: what the judge
 * counts, every load, or one load per render (Beacon['render'], as the API counts them).
 * @typedef {{ copies: number, unit: 'load' | 'render' }} KeptRenders
 */

/**
 * A population of browsers: `count` of them, each load from one drawn at random; a share of them
 * (`flakyShare`) fails at `flakyRate` on either side (a browser's own trouble, not the version's),
 * the rest at their side's rate. `unit`: what the judge counts, page loads or browsers (each by
 * its first load of the version).
 * @typedef {{ count: number, flakyShare: number, flakyRate: number, unit: 'load' | 'browser' }} Browsers
 */

/**
 * Scripts that ask for tokens and send failing beacons, each from an address (an IPv6 /64) of its
 * own, choosing their side with the cohort cookie: `clients` of them, each bringing as many
 * browsers to a version's figures as the API lets one client (`browsers`,
 * RUM_BROWSERS_PER_VERSION_PER_DAY; a browser is one unit, by its first load of the version,
 * however often it loads), every one failed, all at evaluation `at` (default the second, where
 * they weigh most: the first stakes nothing), to `side`: the canary's to have it rolled back,
 * live's to have a worse canary promoted. `everyInterval`: as many again at every evaluation
 * from `at` on, which is what a cap per hour on page loads let a client add when every load
 * counted (60 an hour: one a minute).
 * @typedef {{ clients: number, browsers: number, side: 'canary' | 'live', at?: number, everyInterval?: boolean }} Attack
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
  const population = scenario.browsers ? browserPopulation(scenario.browsers, random) : null;
  let percent = startPercent;
  /** Loads started, waiting to report: per interval ahead, per side, its units and failed units and its loads. */
  const queued = Array.from({ length: policy.deadlineIntervals + 8 }, () => [unitsOf(), unitsOf()]);
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
    const swing = 1 + drift * Math.sin((2 * Math.PI * t) / 40);
    const kept = scenario.keptRenders;
    if (kept) {
      // Each visitor's side is its cohort's; on each side, a render serves the next `copies`
      // visitors, failed or not.
      let canaryVisitors = 0;
      const all = poisson(random, traffic);
      for (let i = all; i > 0; i--) if (random() < percent / 100) canaryVisitors += 1;
      for (const index of /** @type {const} */ ([0, 1])) {
        const rate = (index === 0 ? canaryRate : liveRate) * swing;
        for (let left = index === 0 ? canaryVisitors : all - canaryVisitors; left > 0; left -= kept.copies) {
          const served = Math.min(left, kept.copies);
          const failed = random() < rate;
          const u = random();
          const slot = queued[t + (DELAYS.find(([p]) => u < p)?.[1] ?? 0)]?.[index];
          if (!slot) continue;
          const units = kept.unit === 'load' ? served : 1;
          slot.loads += served;
          slot.units += units;
          if (failed) slot.failed += units;
        }
      }
    }
    for (let i = kept ? 0 : poisson(random, traffic); i > 0; i--) {
      const browser = population?.draw() ?? null;
      const isCanary = browser ? browser.cohort < percent : random() < percent / 100;
      if (isCanary && random() >= reporting) continue;
      // A browser's load fails as it loads (its browser's rate); one of its own, as it reports.
      const failed = browser ? random() < (browser.rate ?? (isCanary ? canaryRate : liveRate) * swing) : null;
      const u = random();
      const delay = DELAYS.find(([p]) => u < p)?.[1] ?? 0;
      const slot = queued[t + delay]?.[isCanary ? 0 : 1];
      if (!slot) continue;
      slot.loads += 1;
      if (!browser || failed === null) continue;
      // Per browser, only its first load of a version is a unit; per load, every one is.
      const seen = isCanary ? browser.seenOnCanary : browser.seenOnLive;
      if (isCanary) browser.seenOnCanary = true;
      else browser.seenOnLive = true;
      if (scenario.browsers?.unit === 'browser' && seen) continue;
      slot.units += 1;
      if (failed) slot.failed += 1;
    }
    const attack = scenario.attack;
    const at = attack?.at ?? 1;
    if (attack && (t === at || (attack.everyInterval && t > at))) {
      const { clients, browsers, side } = attack;
      const slot = queued[t]?.[side === 'canary' ? 0 : 1];
      if (slot) {
        slot.units += clients * browsers;
        slot.failed += clients * browsers;
      }
    }
    for (const [index, name] of /** @type {const} */ ([
      [0, 'canary'],
      [1, 'live'],
    ])) {
      const s = sides[name];
      const rate = (name === 'canary' ? canaryRate : liveRate) * swing;
      const reported = queued[t]?.[index] ?? unitsOf();
      s.loads += reported.units;
      s.errorLoads += reported.failed;
      for (let i = reported.loads; i > 0; i--) {
        if (!population && !kept) {
          s.loads += 1;
          if (random() < rate) s.errorLoads += 1;
        }
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

/**
 * What one interval of one side reports: its page loads, and, from a population of browsers, the
 * units judged and the failed ones among them (decided as the loads were drawn).
 */
const unitsOf = () => ({ units: 0, failed: 0, loads: 0 });

/**
 * A population of browsers, each with a cohort (0-99) and, for the flaky share, its own failure
 * rate; `draw` picks one at random for a page load.
 * @param {Browsers} browsers @param {() => number} random
 */
function browserPopulation({ count, flakyShare, flakyRate }, random) {
  const all = Array.from({ length: count }, () => ({
    cohort: Math.floor(random() * 100),
    rate: /** @type {number | null} */ (random() < flakyShare ? flakyRate : null),
    seenOnCanary: false,
    seenOnLive: false,
  }));
  return { draw: () => all[Math.floor(random() * count)] ?? null };
}
