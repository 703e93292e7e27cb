import { describe, expect, it } from 'vitest';
import { type FailureLog, LOGIN_THROTTLE_RULES, LoginThrottle } from './loginThrottle.js';

const rules = LOGIN_THROTTLE_RULES;
const maxSlowMs = rules.maxSlowSteps * rules.slowMsPerFailure;

/** The rules over a log in memory: the database's log (repositories/loginFailures.ts) is tested with the API. */
function memoryLog(): FailureLog {
  const rows: { id: number; key: string; at: number }[] = [];
  let lastId = 0;
  return {
    async times(keys, since) {
      const found = new Map<string, number[]>();
      for (const row of rows)
        if (keys.includes(row.key) && row.at > since) found.set(row.key, [...(found.get(row.key) ?? []), row.at]);
      return found;
    },
    async add(keys, at) {
      const added = keys.map((key) => ({ id: ++lastId, key, at }));
      rows.push(...added);
      return added.map((row) => row.id);
    },
    async remove(ids) {
      for (let i = rows.length - 1; i >= 0; i--) if (ids.includes(rows[i]?.id as number)) rows.splice(i, 1);
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

/** One wrong password: admitted, then failed; answers the hold-back, or null when it was refused. */
async function fail(throttle: LoginThrottle, account: string, client: string): Promise<number | null> {
  const admission = await throttle.admit(account, client);
  return 'attempt' in admission ? admission.attempt.failed() : null;
}

async function failTimes(throttle: LoginThrottle, n: number, account: string, client: string) {
  const delays: (number | null)[] = [];
  for (let i = 0; i < n; i++) delays.push(await fail(throttle, account, client));
  return delays;
}

describe('login throttle', () => {
  it('answers the first failures at once, then slows each further failure more, up to a cap', async () => {
    const { throttle } = throttleWithClock();
    const delays = await failTimes(throttle, 9, 'user:1', 'a');
    expect(delays.slice(0, rules.freeFailures)).toEqual([0, 0, 0]);
    expect(delays.slice(rules.freeFailures, rules.freeFailures + 3)).toEqual([250, 500, 750]);
    expect(Math.max(...delays.map(Number))).toBeLessThanOrEqual(maxSlowMs);
    // The account's failures from many clients slow its answers too.
    for (let i = 0; i < rules.lockAccountAfter - 1; i++) await fail(throttle, 'user:9', `10.0.0.${i}`);
    expect(await fail(throttle, 'user:9', '10.0.1.1')).toBe(
      Math.min(rules.lockAccountAfter - rules.freeFailures, rules.maxSlowSteps) * rules.slowMsPerFailure,
    );
  });

  it('locks an account that failed too often, for every client, until the window has passed', async () => {
    const { clock, throttle } = throttleWithClock();
    await failTimes(throttle, rules.lockAccountAfter - 1, 'user:1', 'a');
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(0);
    await fail(throttle, 'user:1', 'a');
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(rules.windowMs / 1000);
    expect(await throttle.retryAfterSeconds('user:1', 'owner')).toBe(rules.windowMs / 1000);
    expect(await throttle.admit('user:1', 'a')).toEqual({ refusedForSeconds: rules.windowMs / 1000 });
    clock.now += 60_000;
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(rules.windowMs / 1000 - 60);
    clock.now += rules.windowMs;
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(0);
  });

  it('locks an account guessed from many networks, and a reset lifts the lock', async () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < rules.lockAccountAfter; i++) await fail(throttle, 'user:1', `2001:db8:${i}::1`);
    expect(await throttle.admit('user:1', '2001:db8:ffff::1')).toEqual({ refusedForSeconds: rules.windowMs / 1000 });
    // Another account is not touched.
    expect(await throttle.retryAfterSeconds('user:2', '2001:db8:ffff::1')).toBe(0);
    await throttle.unlock('user:1');
    expect(await throttle.retryAfterSeconds('user:1', '2001:db8:ffff::1')).toBe(0);
  });

  it('counts the addresses of one IPv6 /64 as one client, and another /64 apart', async () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < rules.refuseAfterPerClient; i++)
      await fail(throttle, `name:guess${i}`, `2001:db8:1:2:${(i + 1).toString(16)}::${i}`);
    expect(await throttle.retryAfterSeconds('user:2', '2001:db8:1:2:ffff:ffff:ffff:ffff')).toBeGreaterThan(0);
    expect(await throttle.retryAfterSeconds('user:2', '2001:db8:1:3::1')).toBe(0);
  });

  it('refuses a client guessing across many accounts', async () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < rules.refuseAfterPerClient; i++) await fail(throttle, `name:guess${i}`, 'sprayer');
    expect(await throttle.retryAfterSeconds('user:2', 'sprayer')).toBeGreaterThan(0);
    expect(await throttle.retryAfterSeconds('user:2', 'someone else')).toBe(0);
  });

  it("forgets an account's failures once its owner logs in", async () => {
    const { throttle } = throttleWithClock();
    await failTimes(throttle, rules.lockAccountAfter - 1, 'user:1', 'a');
    const right = await throttle.admit('user:1', 'a');
    if (!('attempt' in right)) throw new Error('the right password was refused');
    await right.attempt.succeeded();
    await fail(throttle, 'user:1', 'a');
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(0);
  });

  it('checks at most the limit of passwords when guesses arrive at once, and refuses the rest with a wait', async () => {
    const { throttle } = throttleWithClock();
    const admissions = await Promise.all(Array.from({ length: 50 }, () => throttle.admit('user:1', 'a')));
    const admitted = admissions.filter((a) => 'attempt' in a);
    expect(admitted.length).toBeLessThanOrEqual(rules.lockAccountAfter);
    for (const a of admissions) if ('refusedForSeconds' in a) expect(a.refusedForSeconds).toBeGreaterThan(0);
    // The refused ones were taken back: the client is refused now only if the admitted ones failed enough.
    for (const a of admitted) if ('attempt' in a) await a.attempt.failed();
    expect(await throttle.retryAfterSeconds('user:1', 'a')).toBe(
      admitted.length >= rules.lockAccountAfter ? rules.windowMs / 1000 : 0,
    );
  });
});
