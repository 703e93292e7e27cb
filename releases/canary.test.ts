import { describe, expect, it } from 'vitest';
import { decideCanary, DEFAULT_POLICY, errorRateZ } from './canary.mjs';

// The canary's judge over crafted samples (issue "Releases that watch themselves", item 4).
const sample = (loads: number, errorLoads: number, lcp: number | null = 1500, inp: number | null = 120) => ({
  loads,
  errorLoads,
  p75: { lcp, inp },
});
const policy = { ...DEFAULT_POLICY, minLoads: 100, holdIntervals: 2, steps: [25, 50] };

describe('decideCanary', () => {
  it('waits while either side has too few page loads, whatever its figures', () => {
    const decision = decideCanary({ canary: sample(40, 40), live: sample(500, 0), percent: 10, healthy: 0, policy });
    expect(decision.action).toBe('wait');
    expect(decision.reason).toBe('too few page loads yet: canary 40, live 500, each needs 100');
    expect(decideCanary({ canary: sample(500, 0), live: sample(99, 0), percent: 10, healthy: 5, policy }).action).toBe(
      'wait',
    );
  });

  it('keeps a canary equal to live: holds, then steps up through the shares, then promotes', () => {
    const equal = { canary: sample(300, 3), live: sample(3000, 30), policy };
    expect(decideCanary({ ...equal, percent: 10, healthy: 0 })).toMatchObject({ action: 'hold' });
    expect(decideCanary({ ...equal, percent: 10, healthy: 1 })).toMatchObject({ action: 'step', percent: 25 });
    expect(decideCanary({ ...equal, percent: 25, healthy: 1 })).toMatchObject({ action: 'step', percent: 50 });
    expect(decideCanary({ ...equal, percent: 50, healthy: 1 })).toMatchObject({ action: 'promote' });
  });

  it('keeps a canary worse within noise (2 % against 1.5 % over 300 loads is chance)', () => {
    const decision = decideCanary({ canary: sample(300, 6), live: sample(2000, 30), percent: 10, healthy: 0, policy });
    expect(errorRateZ(sample(300, 6), sample(2000, 30))).toBeLessThan(1.645);
    expect(decision.action).toBe('hold');
  });

  it('rolls back a canary whose error rate is clearly worse, saying by how much', () => {
    const decision = decideCanary({ canary: sample(300, 30), live: sample(2000, 30), percent: 10, healthy: 3, policy });
    expect(decision.action).toBe('rollback');
    expect(decision.reason).toMatch(/^error rate 10\.0 % against live's 1\.5 %, z = \d+\.\d\d > 1\.645$/);
  });

  it('rolls back a canary that fails every load against a live version that never does', () => {
    expect(errorRateZ(sample(8, 8), sample(8, 0))).toBeGreaterThan(3);
    const decision = decideCanary({
      canary: sample(8, 8),
      live: sample(8, 0),
      percent: 50,
      healthy: 0,
      policy: { ...policy, minLoads: 8 },
    });
    expect(decision.action).toBe('rollback');
  });

  it('rolls back a canary whose p75 LCP or INP is worse than the margin, and keeps one within it', () => {
    const slowLcp = decideCanary({
      canary: sample(300, 0, 1900),
      live: sample(300, 0, 1500),
      percent: 10,
      healthy: 0,
      policy,
    });
    expect(slowLcp).toEqual({
      action: 'rollback',
      reason: "p75 LCP 1900 ms against live's 1500 ms (more than 20 % worse)",
    });
    const slowInp = decideCanary({
      canary: sample(300, 0, 1500, 300),
      live: sample(300, 0, 1500, 200),
      percent: 10,
      healthy: 0,
      policy,
    });
    expect(slowInp.action).toBe('rollback');
    expect(slowInp.reason).toMatch(/^p75 INP 300 ms/);
    const within = decideCanary({
      canary: sample(300, 0, 1750),
      live: sample(300, 0, 1500),
      percent: 10,
      healthy: 0,
      policy,
    });
    expect(within.action).toBe('hold');
    // No INP on a side (no interaction yet) decides nothing.
    const noInp = decideCanary({
      canary: sample(300, 0, 1500, null),
      live: sample(300, 0, 1500),
      percent: 10,
      healthy: 0,
      policy,
    });
    expect(noInp.action).toBe('hold');
  });

  it('a canary better than live is kept', () => {
    expect(
      decideCanary({ canary: sample(300, 0, 900), live: sample(3000, 300), percent: 10, healthy: 0, policy }).action,
    ).toBe('hold');
  });
});
