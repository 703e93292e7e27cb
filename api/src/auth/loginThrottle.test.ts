import { describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE_RULES, LoginThrottle } from './loginThrottle.js';

const rules = LOGIN_THROTTLE_RULES;
const maxSlowMs = rules.maxSlowSteps * rules.slowMsPerFailure;

function throttleWithClock() {
  const clock = { now: 1_000_000 };
  return { clock, throttle: new LoginThrottle(rules, () => clock.now) };
}

const failTimes = (throttle: LoginThrottle, n: number, account: string, client: string) =>
  Array.from({ length: n }, () => throttle.failed(account, client));

describe('login throttle', () => {
  it('answers the first failures at once, then slows each further failure more, up to a cap', () => {
    const { throttle } = throttleWithClock();
    const delays = failTimes(throttle, 9, 'user:1', 'a');
    expect(delays.slice(0, rules.freeFailures)).toEqual([0, 0, 0]);
    expect(delays.slice(rules.freeFailures, rules.freeFailures + 3)).toEqual([250, 500, 750]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(maxSlowMs);
    expect(failTimes(throttle, 20, 'user:9', 'a').at(-1)).toBe(maxSlowMs);
  });

  it('refuses a client that failed too often on one account until the window has passed', () => {
    const { clock, throttle } = throttleWithClock();
    failTimes(throttle, rules.refuseAfterPerAccount - 1, 'user:1', 'a');
    expect(throttle.retryAfterSeconds('user:1', 'a')).toBe(0);
    throttle.failed('user:1', 'a');
    expect(throttle.retryAfterSeconds('user:1', 'a')).toBe(rules.windowMs / 1000);
    clock.now += 60_000;
    expect(throttle.retryAfterSeconds('user:1', 'a')).toBe(rules.windowMs / 1000 - 60);
    clock.now += rules.windowMs;
    expect(throttle.retryAfterSeconds('user:1', 'a')).toBe(0);
  });

  it("never refuses another client because of one client's failures on the same account", () => {
    const { throttle } = throttleWithClock();
    failTimes(throttle, 25, 'user:1', 'attacker');
    expect(throttle.retryAfterSeconds('user:1', 'attacker')).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds('user:1', 'owner')).toBe(0);
  });

  it('refuses a client guessing across many accounts', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < rules.refuseAfterPerClient; i++) throttle.failed(`name:guess${i}`, 'sprayer');
    expect(throttle.retryAfterSeconds('user:2', 'sprayer')).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds('user:2', 'someone else')).toBe(0);
  });

  it("forgets a client's guesses at an account once it logs in", () => {
    const { throttle } = throttleWithClock();
    failTimes(throttle, rules.refuseAfterPerAccount - 1, 'user:1', 'a');
    throttle.succeeded('user:1', 'a');
    throttle.failed('user:1', 'a');
    expect(throttle.retryAfterSeconds('user:1', 'a')).toBe(0);
  });

  it('keeps at most maxKeys entries', () => {
    const small = new LoginThrottle({ ...rules, maxKeys: 5, refuseAfterPerAccount: 1 });
    small.failed('user:1', 'first');
    expect(small.retryAfterSeconds('user:1', 'first')).toBeGreaterThan(0);
    for (let i = 0; i < 10; i++) small.failed(`user:${100 + i}`, `c${i}`);
    expect(small.retryAfterSeconds('user:1', 'first')).toBe(0);
  });
});
