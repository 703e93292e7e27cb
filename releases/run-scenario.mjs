// A scenario run many times, from one seed: the shares rolled back, promoted and inconclusive, the
// time to a decision and the canary loads promotion took.
import { decideCanary } from './canary.mjs';
import { DEFAULT_POLICY } from './canary-policy.mjs';
import { generator } from './seeded-random.mjs';
import { simulateCanary } from './simulated-canary.mjs';

/**
 * @typedef {import('./simulated-canary.mjs').Scenario} Scenario
 * @typedef {import('./simulated-canary.mjs').Judge} Judge
 */

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

/** @typedef {ReturnType<typeof runScenario>} ScenarioResult */
