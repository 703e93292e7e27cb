import { describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE_RULES } from '../src/auth/loginThrottle.js';
import { DEMO_PASSWORD, useTestApi } from './harness.js';

// Behind the proxy the tests play, each X-Forwarded-For address is one client (documentation
// range). The slowing's steps are unit-tested (loginThrottle.test.ts); here they are 1 ms so the
// refusals come within the test's time.
const t = useTestApi({ API_TRUST_PROXY: 'true', LOGIN_FAILURE_DELAY_MS: '1' });
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

describe('failed logins', () => {
  it('refuse a client with 429 and Retry-After after repeated failures, even with the right password then', async () => {
    const attacker = t().client();
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_THROTTLE_RULES.refuseAfterPerAccount; i++) {
      statuses.push(
        (await attacker.call('login', { login: 'mia', password: `guess-${i}` }, from('203.0.113.7'))).status,
      );
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    const refused = await attacker.call(
      'login',
      { login: 'mia@example.com', password: DEMO_PASSWORD },
      from('203.0.113.7'),
    );
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/too many failed logins/i);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.getSetCookie()).toEqual([]);
  });

  it("do not stop the account's owner logging in from another client", async () => {
    const owner = t().client();
    const res = await owner.call('login', { login: 'mia', password: DEMO_PASSWORD }, from('198.51.100.20'));
    expect(res.status).toBe(200);
    expect(res.body.profileName).toBe('mia');
  });

  it('refuse a client guessing across many accounts, and count unknown names too', async () => {
    const sprayer = t().client();
    for (let i = 0; i < LOGIN_THROTTLE_RULES.refuseAfterPerClient; i++) {
      const res = await sprayer.call('login', { login: `nobody-${i}`, password: 'x' }, from('203.0.113.99'));
      expect(res.status).toBe(401);
    }
    expect(
      (await sprayer.call('login', { login: 'clara', password: DEMO_PASSWORD }, from('203.0.113.99'))).status,
    ).toBe(429);
    expect(
      (await t().client().call('login', { login: 'clara', password: DEMO_PASSWORD }, from('198.51.100.21'))).status,
    ).toBe(200);
  });

  it('check at most the limit of passwords when guesses arrive at once', async () => {
    const from203 = from('203.0.113.8');
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t()
          .client()
          .call('login', { login: 'leo', password: `guess-${i}` }, from203),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_THROTTLE_RULES.refuseAfterPerAccount);
    for (const reply of replies)
      if (reply.status === 429) expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
