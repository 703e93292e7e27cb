// The scenarios the simulation states its figures for: canaries equal to live (A/A), worse by
// more or less than the margin, slower, or with pages that never report.

/** @typedef {import('./simulated-canary.mjs').Scenario} Scenario */

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
  { name: '1 % -> 1.5 % (worse by the margin: 50 %)', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.015 },
  { name: '1 % -> 1.25 % (worse, within the margin)', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.0125 },
  { name: '0.1 % -> 0.3 % (worse than the floor)', traffic: TRAFFIC, liveRate: 0.001, canaryRate: 0.003 },
  { name: '0.5 % -> 1 % (worse than the margin)', traffic: TRAFFIC, liveRate: 0.005, canaryRate: 0.01 },
  { name: 'p75 LCP 50 % worse', traffic: TRAFFIC, liveRate: 0.01, canaryRate: 0.01, canaryLcp: 1.5 },
  {
    name: '30 % of canary pages never report',
    traffic: TRAFFIC,
    liveRate: 0.01,
    canaryRate: 0.01,
    reporting: 0.7,
  },
];
