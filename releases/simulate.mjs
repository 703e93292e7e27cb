#!/usr/bin/env node
// `pnpm --filter releases simulate`: thousands of simulated canaries through the real judge
// (decideCanary in canary.mjs), fed what the watcher would be fed (simulated-canary.mjs). It
// prints the false-rollback rate of a canary equal to live (A/A) with its 95 % interval, the
// detection rate of a canary going from 1 % to 3 % failed loads, the time to a decision and the
// inconclusive share, and writes them with a chart (canary-simulation.txt, .svg) into the folder `--out` names
// (relative to where the command was run), or a new one under the system's temporary folder: never
// into the repository unless asked (`--out docs` from the root renews the documented one).
// Seeded: the same options give the same figures.
//
//   node simulate.mjs [--runs 4000] [--seed 39] [--out <folder>] [--no-svg]
//
// The simulation's parts are imported from here too (canary.test.ts runs a short one).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { binomialInterval } from './binomial-interval.mjs';
import { DEFAULT_POLICY } from './canary-policy.mjs';
import { runScenario } from './run-scenario.mjs';
import { FLAKY_FEW, SCENARIOS, TRAFFIC } from './scenarios.mjs';
import { chart } from './simulation-chart.mjs';
import { zTestJudge } from './z-test-judge.mjs';

export { binomialInterval, chart, FLAKY_FEW, runScenario, SCENARIOS, TRAFFIC, zTestJudge };
export { generator } from './seeded-random.mjs';
export { simulateCanary } from './simulated-canary.mjs';

/**
 * @typedef {import('./simulated-canary.mjs').Scenario} Scenario
 * @typedef {import('./simulated-canary.mjs').Judge} Judge
 */

const percent = (/** @type {number} */ x) => `${(x * 100).toFixed(1)} %`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const option = (/** @type {string} */ flag, /** @type {string} */ fallback) => {
    const i = args.indexOf(flag);
    return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
  };
  const runs = Number(option('--runs', '4000'));
  const seed = Number(option('--seed', '39'));
  const out = option('--out', '');
  const policy = DEFAULT_POLICY;
  /** @type {string[]} */
  const lines = [];
  const say = (/** @type {string} */ line) => {
    lines.push(line);
    console.log(line);
  };
  say(
    `${runs} simulated canaries per A/A scenario, ${Math.ceil(runs / 4)} per other (seed ${seed}); the default policy: alpha ${policy.alpha}, promotion alpha ${policy.promoteAlpha}, error-rate margin ${(policy.relativeMargin ?? 0) * 100} % of live's rate (at least ${policy.margin * 100} pt), LCP/INP margins ${policy.lcpMargin * 100} %, ${policy.minLoads} loads a side, shares ${10} -> ${policy.steps.join(' -> ')} %, ${policy.holdIntervals} evaluations a share, deadline ${policy.deadlineIntervals} evaluations; ${TRAFFIC} page loads an interval unless stated`,
  );
  const started = Date.now();
  const results = SCENARIOS.map((scenario, i) => {
    const n = scenario.name.startsWith('A/A') ? runs : Math.ceil(runs / 4);
    return runScenario(scenario, { runs: n, seed: seed * 1000 + i, policy });
  });
  say(
    `\n${'scenario'.padEnd(40)} ${'runs'.padStart(5)} ${'rolled back'.padStart(28)} ${'promoted'.padStart(9)} ${'inconcl.'.padStart(9)} ${'median t'.padStart(9)} ${'canary loads at promotion'.padStart(26)}`,
  );
  for (const r of results) {
    const [low, high] = binomialInterval(r.rollback, r.runs);
    say(
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
  say('\nthe z test it replaced (1.645 on cumulative totals every evaluation), same canaries:');
  for (const r of old) {
    const [low, high] = binomialInterval(r.rollback, r.runs);
    say(
      `${r.scenario.name.padEnd(40)} ${String(r.runs).padStart(5)} ${`${percent(r.rollback / r.runs)} (95 %: ${percent(low)}-${percent(high)})`.padStart(28)} ${percent(r.promote / r.runs).padStart(9)}`,
    );
  }
  say(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!args.includes('--no-svg')) {
    // pnpm runs a package's script in the package's folder; INIT_CWD is where it was run from.
    const folder = out
      ? resolve(process.env.INIT_CWD ?? process.cwd(), out)
      : mkdtempSync(join(tmpdir(), 'canary-simulation-'));
    mkdirSync(folder, { recursive: true });
    const svg = join(folder, 'canary-simulation.svg');
    writeFileSync(svg, chart(results, old, policy.deadlineIntervals, policy.alpha));
    writeFileSync(join(folder, 'canary-simulation.txt'), `${lines.join('\n')}\n`);
    console.log(`chart and figures: ${svg}, canary-simulation.txt beside it`);
  }
}
