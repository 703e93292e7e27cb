import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, nullRate } from './canary.mjs';
import { binomialInterval, runScenario } from './simulate.mjs';

// The relative margin: promotion needs evidence that the canary fails less than half as often
// again as live (0.2 points at least), so a team reads the same promise at 0.1 % as at 5 %.

const logLik = (x: number, n: number, p: number) =>
  (x > 0 ? x * Math.log(p) : 0) + (n - x > 0 ? (n - x) * Math.log1p(-p) : 0);
const logChoose = (n: number, k: number) => {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log((n - k + i) / i);
  return s;
};

describe('the no-harm test on a relative margin', () => {
  it('stakes each block against the ratio edge with a factor whose expectation is at most 1 at every rate of the null, over every outcome of small blocks', () => {
    const ratio = 1 + DEFAULT_POLICY.relativeMargin!;
    let worst = 0;
    for (const [na, nb] of [
      [1, 1],
      [3, 7],
      [10, 10],
      [5, 40],
      [20, 3],
    ] as const)
      for (const tb of [0.001, 0.01, 0.05, 0.2, 0.5])
        for (const below of [0, 0.3, 0.7, 0.95]) {
          // The guesses: the canary's anywhere under the edge at live's guess.
          const ta = below * ratio * tb;
          const p0 = nullRate(na, nb, ta, tb, 0, ratio);
          // Rates of the null: on the edge, and beyond it.
          for (const pb of [0.0005, 0.002, 0.01, 0.03, 0.1, 0.3, 0.6])
            for (const beyond of [0, 0.01, 0.1]) {
              const pa = Math.min(ratio * pb + beyond, 0.999);
              let expectation = 0;
              for (let xa = 0; xa <= na; xa++)
                for (let xb = 0; xb <= nb; xb++) {
                  const chance = logChoose(na, xa) + logLik(xa, na, pa) + logChoose(nb, xb) + logLik(xb, nb, pb);
                  const factor =
                    logLik(xa, na, ta) + logLik(xb, nb, tb) - logLik(xa, na, ratio * p0) - logLik(xb, nb, p0);
                  expectation += Math.exp(chance + factor);
                }
              worst = Math.max(worst, expectation);
            }
        }
    expect(worst).toBeLessThanOrEqual(1 + 1e-9);
    // Reached on the edge itself: the test is as sharp as it is valid.
    expect(worst).toBeGreaterThan(0.999);
  });

  it('promotes 0.1 % -> 0.3 % and 0.5 % -> 1 % in at most its alpha of runs (an absolute 1-point margin promoted most), and a canary equal to live at 1 % still', () => {
    const runs = 60;
    const scenario = (liveRate: number, canaryRate: number) => ({
      name: `${liveRate} -> ${canaryRate}`,
      traffic: 1000,
      liveRate,
      canaryRate,
    });
    for (const [live, canary] of [
      [0.001, 0.003],
      [0.005, 0.01],
    ] as const) {
      const promoted = runScenario(scenario(live, canary), { runs, seed: 5 }).promote;
      expect(binomialInterval(promoted, runs)[1], `${live} -> ${canary}`).toBeLessThan(
        DEFAULT_POLICY.promoteAlpha + 0.06,
      );
      const absolute = { ...DEFAULT_POLICY, margin: 0.01, relativeMargin: undefined };
      expect(runScenario(scenario(live, canary), { runs, seed: 5, policy: absolute }).promote / runs).toBeGreaterThan(
        0.3,
      );
    }
    const equal = runScenario(scenario(0.01, 0.01), { runs, seed: 6 });
    expect(equal.promote / runs).toBeGreaterThan(0.8);
  }, 60_000);
});

describe('pnpm --filter releases simulate', () => {
  const simulate = (cwd: string, ...args: string[]) =>
    execFileSync(process.execPath, [join(import.meta.dirname, 'simulate.mjs'), '--runs', '4', '--seed', '3', ...args], {
      cwd,
      env: { ...process.env, INIT_CWD: cwd },
      encoding: 'utf8',
    });

  it('writes its figures and chart into the folder it is given, relative to where it was run, and by default into a new temporary one, never the repository', () => {
    const caller = mkdtempSync(join(tmpdir(), 'simulate-caller-'));
    try {
      simulate(caller, '--out', 'figures');
      expect(readdirSync(join(caller, 'figures')).sort()).toEqual(['canary-simulation.svg', 'canary-simulation.txt']);
      expect(readFileSync(join(caller, 'figures', 'canary-simulation.txt'), 'utf8')).toMatch(
        /^A\/A: canary equal to live/m,
      );
      const printed = simulate(caller);
      const folder = /chart and figures: (.+)\/canary-simulation\.svg/.exec(printed)?.[1];
      expect(folder && relative(realpathSync(tmpdir()), realpathSync(folder)).startsWith('..')).toBe(false);
      expect(readdirSync(folder!).sort()).toEqual(['canary-simulation.svg', 'canary-simulation.txt']);
      rmSync(folder!, { recursive: true });
    } finally {
      rmSync(caller, { recursive: true });
    }
  });
});
