#!/usr/bin/env node
// `pnpm --filter releases simulate` (issue 39, item 3): thousands of simulated canaries through the
// real judge (decideCanary in canary.mjs), fed what the watcher would be fed: both sides'
// cumulative figures at every interval, the canary's share stepping up as the judge decides. Page
// loads arrive every interval (Poisson around the stated traffic), each is the canary's with the
// share's probability, fails with its side's error rate (Bernoulli), draws its LCP (and, one load
// in two, an INP) from a log-normal distribution, and reports at the end of its interval or up to
// five intervals later (a page reports when it is hidden). It prints the false-rollback rate of a
// canary equal to live (A/A) with its 95 % interval, the detection rate of a canary going from
// 1 % to 3 % failed loads, the time to a decision and the inconclusive share, and writes a chart
// (docs/canary-simulation.svg). Seeded: the same options give the same figures.
//
//   node simulate.mjs [--runs 4000] [--seed 39] [--svg ../docs/canary-simulation.svg] [--no-svg]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decideCanary, DEFAULT_POLICY } from './canary.mjs';

/** A seeded generator of uniform numbers in [0, 1) (sfc32: small, fast, passes PractRand). @param {number} seed */
export function generator(seed) {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

/** A standard normal draw (Box-Muller). @param {() => number} random */
const normal = (random) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** A Poisson draw: exact below 50, normal above (the traffic's spread only needs to be about right). @param {() => number} random @param {number} mean */
function poisson(random, mean) {
  if (mean >= 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal(random)));
  let k = 0;
  for (let p = random(), limit = Math.exp(-mean); p > limit; p *= random()) k += 1;
  return k;
}

// Vitals are kept as histograms of standard-normal scores (bins of 0.01 over -5..5), so a side's
// p75 is found by moving a pointer rather than sorting every value at every interval; the value is
// the side's median times exp(spread x score), the nearest-rank p75 the API computes to 0.5 %.
const BINS = 1000;
const Z_LOW = -5;
const Z_STEP = 0.01;
/** Uniform -> bin of a standard normal score, by table (2^16 steps). */
const BIN_OF = (() => {
  const table = new Uint16Array(65536);
  // The inverse normal by bisection on its CDF (erf by Abramowitz-Stegun 7.1.26, to 1.5e-7).
  const cdf = (/** @type {number} */ z) => {
    const t = 1 / (1 + 0.3275911 * Math.abs(z / Math.SQRT2));
    const y =
      1 -
      ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
        t *
        Math.exp(-(z * z) / 2);
    return z >= 0 ? (1 + y) / 2 : (1 - y) / 2;
  };
  for (let i = 0; i < table.length; i++) {
    const u = (i + 0.5) / table.length;
    let lo = -8;
    let hi = 8;
    for (let k = 0; k < 40; k++) {
      const mid = (lo + hi) / 2;
      if (cdf(mid) < u) lo = mid;
      else hi = mid;
    }
    table[i] = Math.min(BINS - 1, Math.max(0, Math.floor((lo - Z_LOW) / Z_STEP)));
  }
  return table;
})();

/** A histogram of one vital on one side, with its nearest-rank p75 kept up to date. */
function quantileTracker() {
  const counts = new Uint32Array(BINS);
  let n = 0;
  let at = BINS / 2;
  let below = 0;
  return {
    /** @param {number} bin */
    add(bin) {
      counts[bin] = (counts[bin] ?? 0) + 1;
      n += 1;
      if (bin < at) below += 1;
    },
    get count() {
      return n;
    },
    /** The p75's score (bin centre), or null without values. */
    p75() {
      if (n === 0) return null;
      const rank = Math.ceil(0.75 * n);
      while (below + (counts[at] ?? 0) < rank) below += counts[at++] ?? 0;
      while (below >= rank) below -= counts[--at] ?? 0;
      return Z_LOW + (at + 0.5) * Z_STEP;
    },
  };
}

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
 * The judge canary.mjs had before issue 39, for comparison only: a pooled two-proportion z test at
 * 1.645 on the cumulative totals at every evaluation, p75 vitals compared as point estimates, and
 * a step or promotion after `holdIntervals` evaluations without either.
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
    if (['rollback', 'promote', 'inconclusive'].includes(decision.action))
      return { action: decision.action, intervals: t + 1, canaryLoads: sides.canary.loads };
  }
  return { action: 'inconclusive', intervals: policy.deadlineIntervals, canaryLoads: sides.canary.loads };
}

/** The 95 % Clopper-Pearson interval of k successes in n (by bisection on the binomial tails). @param {number} k @param {number} n @returns {[number, number]} */
export function binomialInterval(k, n) {
  const logChoose = (/** @type {number} */ m) => {
    let s = 0;
    for (let i = 1; i <= m; i++) s += Math.log((n - m + i) / i);
    return s;
  };
  const tail = (/** @type {number} */ p, /** @type {number} */ from, /** @type {number} */ to) => {
    let s = 0;
    for (let i = from; i <= to; i++) s += Math.exp(logChoose(i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
    return s;
  };
  const solve = (/** @type {(p: number) => boolean} */ above) => {
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 50; i++) {
      const mid = (lo + hi) / 2;
      if (above(mid)) hi = mid;
      else lo = mid;
    }
    return (lo + hi) / 2;
  };
  const low = k === 0 ? 0 : solve((p) => tail(p, k, n) > 0.025);
  const high = k === n ? 1 : solve((p) => tail(p, 0, k) < 0.025);
  return [low, high];
}

/**
 * Runs a scenario `runs` times.
 * @param {Scenario} scenario @param {{ runs: number, seed: number, policy?: import('./canary.mjs').Policy, judge?: Judge }} options
 */
export function runScenario(scenario, { runs, seed, policy = DEFAULT_POLICY, judge = decideCanary }) {
  const random = generator(seed);
  const outcomes = Array.from({ length: runs }, () => simulateCanary(scenario, policy, random, judge));
  /** @param {string} action */
  const share = (action) => outcomes.filter((o) => o.action === action).length;
  const times = outcomes.map((o) => o.intervals).sort((a, b) => a - b);
  const loads = outcomes
    .filter((o) => o.action === 'promote')
    .map((o) => o.canaryLoads)
    .sort((a, b) => a - b);
  return {
    scenario,
    runs,
    rollback: share('rollback'),
    promote: share('promote'),
    inconclusive: share('inconclusive'),
    medianIntervals: times[Math.floor(times.length / 2)] ?? 0,
    medianPromotionLoads: loads[Math.floor(loads.length / 2)] ?? null,
    /** Per interval, the runs decided (rolled back, promoted) by then. */
    byInterval: (/** @type {string} */ action) =>
      Array.from(
        { length: policy.deadlineIntervals + 1 },
        (_, t) => outcomes.filter((o) => o.action === action && o.intervals <= t).length / runs,
      ),
  };
}

/** The traffic the figures are stated at: page loads of the remote per interval (a minute by default). */
export const TRAFFIC = 1000;

/** @type {Scenario[]} */
export const SCENARIOS = [
  { name: 'A/A: canary equal to live (1 %)', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.01 },
  {
    name: 'A/A, both rates swinging 0.2x to 1.8x',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.01,
    drift: 0.8,
  },
  { name: 'A/A at 100 loads an interval', traffic: 100, liveRate: 0.01, canaryRate: 0.01 },
  { name: '1 % -> 3 % failed loads', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.03 },
  { name: '1 % -> 3 % at 100 loads an interval', traffic: 100, liveRate: 0.01, canaryRate: 0.03 },
  { name: '1 % -> 3 % at 50 loads an interval', traffic: 50, liveRate: 0.01, canaryRate: 0.03 },
  { name: '1 % -> 2.5 % (worse than the margin)', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.025 },
  { name: '1 % -> 1.5 % (worse, within the margin)', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.015 },
  { name: 'p75 LCP 50 % worse', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.01, canaryLcp: 1.5 },
  {
    name: '30 % of canary pages never report',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.01,
    reporting: 0.7,
  },
];

const percent = (/** @type {number} */ x) => `${(x * 100).toFixed(1)} %`;

/**
 * The chart, two panels over the evaluations since the canary started. Above: per scenario, the
 * share of canaries rolled back (solid) or promoted (dashed) by then. Below, on a finer scale: the
 * share of canaries equal to live rolled back by then (false rollbacks), against alpha and against
 * the z test this judge replaced.
 * @param {ReturnType<typeof runScenario>[]} results @param {ReturnType<typeof runScenario>[]} old the z test's A/A runs
 */
export function chart(results, old, deadline = DEFAULT_POLICY.deadlineIntervals, alpha = DEFAULT_POLICY.alpha) {
  const [width, left, plotW, legendX] = [860, 50, 460, 540];
  const colours = [
    '#1b6ac9',
    '#6a3d9a',
    '#7f7f7f',
    '#d62728',
    '#ff7f0e',
    '#bcbd22',
    '#8c564b',
    '#2ca02c',
    '#e377c2',
    '#17becf',
  ];
  const x = (/** @type {number} */ t) => (left + (t / deadline) * plotW).toFixed(1);
  /** @type {string[]} */
  const out = [];
  /**
   * One panel: axes, grid and the lines given.
   * @param {number} top @param {number} plotH @param {number} yMax @param {{ series: number[], colour: string, dash?: boolean }[]} lines @param {string} caption
   */
  const panel = (top, plotH, yMax, lines, caption) => {
    const y = (/** @type {number} */ v) => (top + (1 - Math.min(v, yMax) / yMax) * plotH).toFixed(1);
    for (let k = 0; k <= 4; k++) {
      const v = (yMax * k) / 4;
      out.push(
        `<line x1="${left}" x2="${left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e5e5"/><text x="${left - 6}" y="${Number(y(v)) + 4}" text-anchor="end">${Math.round(v * 1000) / 10} %</text>`,
      );
    }
    for (let t = 0; t <= deadline; t += 20)
      out.push(`<text x="${x(t)}" y="${top + plotH + 14}" text-anchor="middle">${t}</text>`);
    out.push(
      `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="#333"/><line x1="${left}" x2="${left + plotW}" y1="${top + plotH}" y2="${top + plotH}" stroke="#333"/>`,
      `<text x="${left + plotW / 2}" y="${top + plotH + 30}" text-anchor="middle">${caption}</text>`,
    );
    for (const line of lines) {
      const d = line.series.map((v, t) => `${t === 0 ? 'M' : 'L'}${x(t)},${y(v)}`).join('');
      out.push(
        `<path d="${d}" fill="none" stroke="${line.colour}" stroke-width="1.6"${line.dash ? ' stroke-dasharray="5 3"' : ''}/>`,
      );
    }
    return y;
  };
  const label = (/** @type {string} */ name) => name.replace('->', '→');

  /** @type {{ series: number[], colour: string, dash?: boolean }[]} */
  const top = [];
  results.forEach((result, i) => {
    const colour = colours[i % colours.length] ?? '#000';
    for (const action of ['rollback', 'promote']) {
      const series = result.byInterval(action);
      if ((series.at(-1) ?? 0) > 0) top.push({ series, colour, dash: action === 'promote' });
    }
    out.push(
      `<rect x="${legendX}" y="${20 + i * 20 - 8}" width="14" height="3" fill="${colour}"/><text x="${legendX + 20}" y="${20 + i * 20 - 3}">${label(result.scenario.name)}</text>`,
    );
  });
  panel(20, 300, 1, top, 'evaluations since the canary started: share rolled back (solid) or promoted (dashed)');

  const aa = results.flatMap((result, i) =>
    result.scenario.name.startsWith('A/A')
      ? [{ series: result.byInterval('rollback'), colour: colours[i % colours.length] ?? '#000' }]
      : [],
  );
  const zTest = old
    .filter((result) => result.scenario.name.startsWith('A/A'))
    .map((result) => ({ series: result.byInterval('rollback'), colour: '#000', dash: true }));
  const y = panel(
    390,
    200,
    0.3,
    [...aa, ...zTest],
    'evaluations since the canary started: canaries equal to live rolled back',
  );
  out.push(
    `<line x1="${left}" x2="${left + plotW}" y1="${y(alpha)}" y2="${y(alpha)}" stroke="#d62728" stroke-dasharray="2 2"/><text x="${left + plotW - 4}" y="${Number(y(alpha)) - 4}" text-anchor="end" fill="#d62728">alpha ${alpha * 100} %</text>`,
    `<rect x="${legendX}" y="${398}" width="14" height="3" fill="#000"/><text x="${legendX + 20}" y="${403}">the z test it replaced, A/A (dashed)</text>`,
    `<text x="${legendX}" y="${425}">solid: this judge's A/A scenarios (colours above)</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="640" viewBox="0 0 ${width} 640" font-family="sans-serif" font-size="11">
<rect width="${width}" height="640" fill="#fff"/>
${out.join('\n')}
</svg>
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const option = (/** @type {string} */ flag, /** @type {string} */ fallback) => {
    const i = args.indexOf(flag);
    return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
  };
  const runs = Number(option('--runs', '4000'));
  const seed = Number(option('--seed', '39'));
  const svg = option('--svg', join(import.meta.dirname, '..', 'docs', 'canary-simulation.svg'));
  const policy = DEFAULT_POLICY;
  console.log(
    `${runs} simulated canaries per A/A scenario, ${Math.ceil(runs / 4)} per other (seed ${seed}); the default policy: alpha ${policy.alpha}, promotion alpha ${policy.promoteAlpha}, margin ${policy.margin * 100} pt, LCP/INP margins ${policy.lcpMargin * 100} %, ${policy.minLoads} loads a side, shares ${10} -> ${policy.steps.join(' -> ')} %, ${policy.holdIntervals} evaluations a share, deadline ${policy.deadlineIntervals} evaluations; ${TRAFFIC} page loads an interval unless stated`,
  );
  const started = Date.now();
  const results = SCENARIOS.map((scenario, i) => {
    const n = scenario.name.startsWith('A/A') ? runs : Math.ceil(runs / 4);
    return runScenario(scenario, { runs: n, seed: seed * 1000 + i, policy });
  });
  console.log(
    `\n${'scenario'.padEnd(40)} ${'runs'.padStart(5)} ${'rolled back'.padStart(28)} ${'promoted'.padStart(9)} ${'inconcl.'.padStart(9)} ${'median t'.padStart(9)} ${'canary loads at promotion'.padStart(26)}`,
  );
  for (const r of results) {
    const [low, high] = binomialInterval(r.rollback, r.runs);
    console.log(
      `${r.scenario.name.padEnd(40)} ${String(r.runs).padStart(5)} ${`${percent(r.rollback / r.runs)} (95 %: ${percent(low)}-${percent(high)})`.padStart(28)} ${percent(r.promote / r.runs).padStart(9)} ${percent(r.inconclusive / r.runs).padStart(9)} ${String(r.medianIntervals).padStart(9)} ${String(r.medianPromotionLoads ?? '-').padStart(26)}`,
    );
  }
  // The z test this judge replaced, on the same simulated canaries, for the record.
  const old = [0, 3].flatMap((i) => {
    const scenario = SCENARIOS[i];
    return scenario
      ? [runScenario(scenario, { runs: Math.ceil(runs / 4), seed: seed * 1000 + i, policy, judge: zTestJudge })]
      : [];
  });
  console.log('\nthe z test it replaced (1.645 on cumulative totals every evaluation), same canaries:');
  for (const r of old) {
    const [low, high] = binomialInterval(r.rollback, r.runs);
    console.log(
      `${r.scenario.name.padEnd(40)} ${String(r.runs).padStart(5)} ${`${percent(r.rollback / r.runs)} (95 %: ${percent(low)}-${percent(high)})`.padStart(28)} ${percent(r.promote / r.runs).padStart(9)}`,
    );
  }
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!args.includes('--no-svg')) {
    writeFileSync(svg, chart(results, old, policy.deadlineIntervals, policy.alpha));
    console.log(`chart: ${svg}`);
  }
}
