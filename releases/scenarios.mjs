// The scenarios the simulation states its figures for: canaries equal to live (A/A), worse by
// more or less than the margin, slower, with pages that never report, among browsers that load
// again and again, a few of them failing often, on a hot page whose renders nginx keeps, at a
// 5 % share, or with scripts sending failing beacons.

/** @typedef {import('./simulated-canary.mjs').Scenario} Scenario */

/** The traffic the figures are stated at: page loads of the remote per interval (a minute by default). */
export const TRAFFIC = 1000;

/**
 * Loads that are not independent: 2 000 browsers load the page again and again, and 2 % of them
 * fail 40 % of their loads whatever the version (judged per browser, as the watcher does).
 * @type {import('./simulated-canary.mjs').Browsers}
 */
export const FLAKY_FEW = { count: 2000, flakyShare: 0.02, flakyRate: 0.4, unit: 'browser' };

/** The same among 50 000 browsers: enough that a clean canary can be promoted. */
const MANY = { ...FLAKY_FEW, count: 50_000 };

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
  { name: '1 % -> 1.5 % (worse by the margin: 50 %)', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.015 },
  { name: '1 % -> 1.25 % (worse, within the margin)', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.0125 },
  { name: '0.1 % -> 0.3 % (worse than the floor)', traffic: TRAFFIC, liveRate: 0.001, canaryRate: 0.003 },
  { name: '0.5 % -> 1 % (worse than the margin)', traffic: TRAFFIC, liveRate: 0.005, canaryRate: 0.01 },
  { name: 'p75 LCP 50 % worse', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.01, canaryLcp: 1.5 },
  {
    name: 'A/A, 2 % of 2 000 browsers failing 40 % of their loads',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.01,
    browsers: FLAKY_FEW,
  },
  {
    name: 'A/A, 2 % of 50 000 browsers failing 40 % of their loads',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.01,
    browsers: MANY,
  },
  {
    name: '1 % -> 3 %, 2 % of 50 000 browsers failing 40 % of their loads',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.03,
    browsers: MANY,
  },
  {
    name: 'A/A, a hot page: each render kept for 20 visitors',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.01,
    keptRenders: { copies: 20, unit: 'render' },
  },
  {
    name: '1 % -> 3 %, the hot page',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.03,
    keptRenders: { copies: 20, unit: 'render' },
  },
  { name: 'A/A at a 5 % share', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.01, startPercent: 5 },
  { name: '1 % -> 3 % at a 5 % share', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.03, startPercent: 5 },
  {
    name: 'A/A, 3 scripts failing the canary (a browser each)',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.01,
    browsers: MANY,
    attack: { clients: 3, browsers: 1, side: 'canary' },
  },
  {
    name: 'A/A at 100 loads an interval, the same 3 scripts',
    traffic: 100,
    liveRate: 0.01,
    canaryRate: 0.01,
    browsers: MANY,
    attack: { clients: 3, browsers: 1, side: 'canary' },
  },
  {
    name: '1 % -> 3 %, 5 scripts failing live (a browser each)',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.03,
    browsers: MANY,
    attack: { clients: 5, browsers: 1, side: 'live' },
  },
  {
    name: '1 % -> 3 % at 100 loads an interval, the same 5 scripts',
    traffic: 100,
    liveRate: 0.01,
    canaryRate: 0.03,
    browsers: MANY,
    attack: { clients: 5, browsers: 1, side: 'live' },
  },
  {
    name: '30 % of canary pages never report',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.01,
    reporting: 0.7,
  },
];
