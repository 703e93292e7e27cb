/**
 * Failed logins, on both engines: refused per client (an IPv6 client counted by its /64) and
 * capped per account across all clients, with a lock the owner lifts by the reset mail, and the
 * same answers for a name nobody has as for a real account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE_RULES } from '../src/auth/loginThrottle.js';
import { startSmtpCatcher, type SmtpCatcher } from '../src/mail/devMailbox.js';
import { readMail, type ReadMail } from '../src/mail/mime.js';
import { DEMO_PASSWORD, SHELL_ORIGIN, startTestApi, until, type TestApi } from './harness.js';

let api: TestApi;
let smtp: SmtpCatcher;
const inbox: (ReadMail & { envelope: string[] })[] = [];

// Behind the proxy the tests play, each X-Forwarded-For address is one client (documentation
// ranges). The slowing's steps are unit-tested (loginThrottle.test.ts); here they are 1 ms so the
// refusals come within the test's time.
beforeAll(async () => {
  smtp = await startSmtpCatcher((raw, to) => void inbox.push({ ...readMail(raw), envelope: to }));
  api = await startTestApi({
    API_TRUST_PROXY: 'true',
    LOGIN_FAILURE_DELAY_MS: '1',
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '50',
  });
});
afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
let networks = 0;
/** An address in a /64 of its own. */
const newNetwork = () => `2001:db8:${(++networks).toString(16)}:${process.pid.toString(16)}::1`;

let accounts = 0;
async function newAccount() {
  const name = `locked${++accounts}x${process.pid}`;
  const email = `${name}@example.com`;
  const password = 'first-pass-123';
  const res = await api
    .client()
    .call('signup', { username: name, profileName: name, email, password }, from(newNetwork()));
  expect(res.status).toBe(201);
  return { email, password };
}

const login = (login: string, password: string, address = newNetwork()) =>
  api.client().call('login', { login, password }, from(address));

/** What a login answer tells its caller, but for the wait's exact seconds. */
const seen = (res: Awaited<ReturnType<typeof login>>) => ({
  status: res.status,
  error: (res.body as { error?: string }).error?.replace(/\d+ s/, 'N s'),
  retryAfter: res.headers.get('retry-after') !== null,
});

describe('failed logins', () => {
  it('lock an account guessed from many networks, refuse its right password then, and answer an unknown name alike', async () => {
    const { email, password } = await newAccount();
    const ghost = `nobody-${process.pid}@example.com`;
    for (const target of [email, ghost]) expect(target).toBeTruthy();
    const answers = { known: [] as ReturnType<typeof seen>[], unknown: [] as ReturnType<typeof seen>[] };
    // Every guess from a /64 of its own: no client limit applies, only the account's.
    for (let i = 0; i < LOGIN_THROTTLE_RULES.lockAccountAfter + 2; i++) {
      answers.known.push(seen(await login(email, `guess-${i}`)));
      answers.unknown.push(seen(await login(ghost, `guess-${i}`)));
    }
    const lock = LOGIN_THROTTLE_RULES.lockAccountAfter;
    expect(answers.known.slice(0, lock).map((a) => a.status)).toEqual(Array(lock).fill(401));
    expect(answers.known.slice(lock).map((a) => a.status)).toEqual([429, 429]);
    expect(answers.known[lock]?.error).toMatch(/too many failed logins.*reset your password/i);
    // The right password, from yet another network, is refused the same way while the lock lasts.
    const right = await login(email, password);
    expect(seen(right)).toEqual(answers.known[lock]);
    expect(right.headers.getSetCookie()).toEqual([]);
    // A name nobody has got the very same answers at every step.
    expect(answers.unknown).toEqual(answers.known);
    expect(seen(await login(ghost, password))).toEqual(seen(right));

    // The owner completes a reset from the mail: the lock is lifted, the new password works.
    expect((await api.client().call('requestPasswordReset', { email }, { origin: SHELL_ORIGIN })).status).toBe(200);
    const mail = await until(() => inbox.find((m) => m.envelope.includes(email)), 'the reset mail');
    const token = /#token=([\w-]+)/.exec(mail.text)?.[1] ?? '';
    expect((await api.client().call('resetPassword', { token, password: 'second-pass-456' })).status).toBe(200);
    const after = await login(email, 'second-pass-456');
    expect(after.status).toBe(200);
  });

  it('count one /64 as one client whatever the low bits of its addresses', async () => {
    for (let i = 0; i < LOGIN_THROTTLE_RULES.refuseAfterPerClient; i++) {
      // Each guess at another name (no account lock) from another address of one /64.
      const res = await login(`sprayed-${i}`, 'x', `2001:db8:ff:1:${(i + 1).toString(16)}::${i + 7}`);
      expect(res.status).toBe(401);
    }
    expect((await login('clara', DEMO_PASSWORD, '2001:db8:ff:1:abcd:ef01:2345:6789')).status).toBe(429);
    // The next /64 is another client.
    expect((await login('clara', DEMO_PASSWORD, '2001:db8:ff:2::1')).status).toBe(200);
  });

  it('refuse a client guessing across many accounts, and count unknown names too', async () => {
    for (let i = 0; i < LOGIN_THROTTLE_RULES.refuseAfterPerClient; i++) {
      expect((await login(`nobody-${i}`, 'x', '203.0.113.99')).status).toBe(401);
    }
    expect((await login('clara', DEMO_PASSWORD, '203.0.113.99')).status).toBe(429);
    expect((await login('clara', DEMO_PASSWORD, '198.51.100.21')).status).toBe(200);
  });

  it('check at most the limit of passwords when guesses arrive at once', async () => {
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => login('leo', `guess-${i}`, newNetwork())));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_THROTTLE_RULES.lockAccountAfter);
    // Every refusal says when to try again.
    const waits = replies.filter((r) => r.status === 429).map((r) => Number(r.headers.get('retry-after')));
    expect(waits.filter((seconds) => !(seconds > 0))).toEqual([]);
  });
});
