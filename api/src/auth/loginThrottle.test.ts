import { describe, expect, it } from 'vitest';
import { type FailureLog, LOGIN_THROTTLE_RULES, LoginThrottle } from './loginThrottle.js';

const rules = LOGIN_THROTTLE_RULES;
const maxSlowMs = rules.maxSlowSteps * rules.slowMsPerFailure;

/** The rules over a log in memory: the database's log (repositories/loginFailures.ts) is tested with the API. */
function memoryLog(): FailureLog {
  const rows: { key: string; at: number }[] = [];
  return {
    async times(keys, since) {
      const found = new Map<string, number[]>();
      for (const row of rows)
        if (keys.includes(row.key) && row.at > since) found.set(row.key, [...(found.get(row.key) ?? []), row.at]);
      return found;
    },
    async add(keys, at) {
      rows.push(...keys.map((key) => ({ key, at })));
    },
    async forget(key) {
      for (let i = rows.length - 1; i >= 0; i--) if (rows[i]?.key === key) rows.splice(i, 1);
    },
  };
}

function throttleWithClock() {
  const clock = { now: 1_000_000 };
  return { clock, throttle: new LoginThrottle(memoryLog(), rules, () => clock.now) };
}

async function failTimes(throttle: LoginThrottle, n: number, account: string, client: string) {
  const delays: number[] = [];
  for (let i = 0; i < n; i++) delays.push(await throttle.failed(account, client));
  return delays;
}

describe('login throttle', () => {
  it('answers the first failures at once, then slows each further failure more, up to a cap', async () => {
    const { throttle } = throttleWithClock();
    const delays = await failTimes(throttle, 9, 'user:1', 'a');
    expect(delays.slice(0, rules.freeFailures)).toEqual([0, 0, 0]);
    expect(delays.slice(rules.freeFailures, rules.freeFailures + 3)).toEqual([250, 500, 750]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(maxSlowMs);
    expect((await failTimes(throttle, 20, 'user:9', 'a')).at(-1)).toBe(maxSlowMs);
  });

  it('refuses a client that failed too often on one account until the window has passed', async () => {
    const { clock, throttle } = throttleWithClock();
    await failTimes(throttle, rules.refuseAfterPerAccount - 1, 'user:1', 'a');
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(0);
    await throttle.failed('user:1', 'a');
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(rules.windowMs / 1000);
    clock.now += 60_000;
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(rules.windowMs / 1000 - 60);
    clock.now += rules.windowMs;
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(0);
  });

  it("never refuses another client because of one client's failures on the same account", async () => {
    const { throttle } = throttleWithClock();
    await failTimes(throttle, 25, 'user:1', 'attacker');
    expect(await throttle.retryAfterSeconds('user:1', 'attacker')).toBeGreaterThan(0);
    expect(await throttle.retryAfterSeconds('user:1', 'owner')).toBe(0);
  });

  it('refuses a client guessing across many accounts', async () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < rules.refuseAfterPerClient; i++) await throttle.failed(`name:guess${i}`, 'sprayer');
    expect(await throttle.retryAfterSeconds('user:2', 'sprayer')).toBeGreaterThan(0);
    expect(await throttle.retryAfterSeconds('user:2', 'someone else')).toBe(0);
  });

  it("forgets a client's guesses at an account once it logs in", async () => {
    const { throttle } = throttleWithClock();
    await failTimes(throttle, rules.refuseAfterPerAccount - 1, 'user:1', 'a');
    await throttle.succeeded('user:1', 'a');
    await throttle.failed('user:1', 'a');
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(0);
  });
});
