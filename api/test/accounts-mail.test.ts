/**
 * Mail for real and accounts people can recover (issue items 3 and 4), on both engines. Mail goes
 * over SMTP to a real listener (smtp-server, the dev mailbox's own catcher), read back as it
 * arrived: the reset link, the sign-in notice, the receipt, the order update.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startSmtpCatcher, type SmtpCatcher } from '../src/mail/devMailbox.js';
import { readMail, type ReadMail } from '../src/mail/mime.js';
import { queueMail } from '../src/mail/queue.js';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import { RESET_REQUESTS_PER_CLIENT_HOUR, RESETS_PER_HOUR } from '../src/routes/accountSecurity.js';
import {
  awayFromWindowEnd,
  ENGINE,
  SHELL_ORIGIN,
  startTestApi,
  until,
  type TestApi,
  type TestClient,
} from './harness.js';
import { paidEvent, sendWebhook } from './webhooks.js';

type Received = ReadMail & { envelope: string[] };

let api: TestApi;
let smtp: SmtpCatcher;
const inbox: Received[] = [];
/** While set, the SMTP server refuses every mail: true with a temporary failure (451), a number with that code. */
let refusing: boolean | number = false;
/** Mails the SMTP server refused. */
let refusals = 0;

beforeAll(async () => {
  smtp = await startSmtpCatcher((raw, to) => void inbox.push({ ...readMail(raw), envelope: to }), {
    refuse: () => {
      if (refusing !== false) refusals++;
      return refusing;
    },
  });
  api = await startTestApi({
    SMTP_URL: smtp.url,
    // The tests' requests say which client they come from (X-Forwarded-For), as the gateway would.
    API_TRUSTED_PROXIES: 'loopback',
    MAIL_POLL_MS: '50',
    MAIL_RETRY_FIRST_MS: '50',
    MAIL_RETRY_MOST_MS: '200',
  });
});
afterAll(async () => {
  await api?.close();
  await smtp?.close();
});
afterEach(() => {
  refusing = false;
  vi.useRealTimers();
});

const mailTo = (address: string, subject: RegExp) =>
  until(() => inbox.find((m) => m.envelope.includes(address) && subject.test(m.subject)), `a mail to ${address}`);
const mailsTo = (address: string) => inbox.filter((m) => m.envelope.includes(address));
/**
 * A pass of the mail sender now: every mail queued by then is in the inbox after it (the catcher
 * keeps a mail before it accepts it), so a mail not there was not queued.
 */
const sent = async () => void (await api.api.mail?.pass());

let people = 0;
/** A new account of its own (no other test touches it), logged in on a client with this user agent. */
async function newAccount(userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0') {
  const name = `acct${++people}${Date.now() % 100000}`;
  const email = `${name}@example.com`;
  const password = 'first-pass-123';
  const client = api.client();
  const res = await client.call(
    'signup',
    { username: `Person ${name}`, profileName: name, email, password },
    { headers: { 'user-agent': userAgent } },
  );
  expect(res.status).toBe(201);
  return { name, email, password, client };
}

async function login(login: string, password: string, userAgent = 'test-agent') {
  const client = api.client();
  const res = await client.call('login', { login, password }, { headers: { 'user-agent': userAgent } });
  return { client, status: res.status };
}

const authenticated = async (client: TestClient) => (await client.call('checkAuthentication')).status === 200;

let clients = 0;
/** A client address (an IPv6 /64) of its own: reset requests are limited per client. */
const newClientAddress = () => `2001:db8:${(++clients).toString(16)}:${process.pid.toString(16)}::1`;
/** Asks for a reset link for `email`, from `address` (by default a client of its own). */
const askReset = (email: string, address = newClientAddress(), init: { origin?: string } = {}) =>
  api.client().call('requestPasswordReset', { email }, { ...init, headers: { 'x-forwarded-for': address } });

/** Asks for a reset link for `email` and answers the token from the mail that came. */
async function resetToken(email: string): Promise<string> {
  const before = mailsTo(email).length;
  expect((await askReset(email, undefined, { origin: SHELL_ORIGIN })).status).toBe(200);
  const mail = await until(
    () =>
      mailsTo(email)
        .slice(before)
        .find((m) => /new password/.test(m.subject)),
    `the reset mail to ${email}`,
  );
  // The token is in the fragment, which a browser sends to no server: never in the query string.
  const link = /(http:\/\/\S+\/user\/reset-password#token=([\w-]+))/.exec(mail.text);
  expect(link?.[1]?.startsWith(`${SHELL_ORIGIN}/user/reset-password#token=`)).toBe(true);
  expect(mail.html).toContain(`href="${link?.[1]}"`);
  expect(`${mail.text}${mail.html}`).not.toMatch(/\?token=/);
  return link?.[2] ?? '';
}

describe('forgot password', () => {
  it('answers the same status and body whether or not an account has the email, and mails only the account', async () => {
    const { email } = await newAccount();
    const unknown = 'nobody-here@example.com';
    const known = await askReset(email);
    const other = await askReset(unknown);
    expect([known.status, known.body]).toEqual([other.status, other.body]);
    expect(known.status).toBe(200);
    await mailTo(email, /new password/);
    await sent();
    expect(mailsTo(unknown)).toEqual([]);
    const queued = await api.rows<{
      n: number | string;
    }>`SELECT count(*) AS n FROM mail_outbox WHERE to_address = ${unknown}`;
    expect(Number(queued[0]?.n)).toBe(0);
  });

  it('refuses a client asking for too many links in an hour, whatever the emails, counting an IPv6 /64 as one client', async () => {
    await awayFromWindowEnd(3600_000, 10_000);
    const { email } = await newAccount();
    const network = `2001:db8:${process.pid.toString(16)}:ffff`;
    for (let i = 1; i <= RESET_REQUESTS_PER_CLIENT_HOUR; i++) {
      // Another address of the same /64 each time, and unknown emails: all one client's requests.
      const res = await askReset(`probe${i}@example.com`, `${network}::${i.toString(16)}`);
      expect(res.status).toBe(200);
    }
    // Past the limit: refused for an unknown email and for an account's alike, so it tells nothing.
    const refused = await Promise.all(
      [email, 'nobody-at-all@example.com'].map((e) => askReset(e, `${network}:1:2:3:4`)),
    );
    expect(refused.map((r) => [r.status, r.body.error])).toEqual([
      [429, refused[0]?.body.error],
      [429, refused[0]?.body.error],
    ]);
    expect(Number(refused[0]?.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not refused for it.
    expect((await askReset('probe-else@example.com', `${network.replace(/ffff$/, 'fffe')}::1`)).status).toBe(200);
  });

  it(`mails one account at most ${RESETS_PER_HOUR} links an hour, answering past that as for an unknown email`, async () => {
    await awayFromWindowEnd(3600_000, 10_000);
    const { email } = await newAccount();
    const answers = [];
    // At once, from many clients: the account's limit holds all the same.
    answers.push(...(await Promise.all(Array.from({ length: RESETS_PER_HOUR + 2 }, () => askReset(email)))));
    const unknown = await askReset('nobody-either@example.com');
    for (const answer of answers) expect([answer.status, answer.body]).toEqual([unknown.status, unknown.body]);
    const [user] = await api.rows<{ id: number }>`SELECT id FROM users WHERE email = ${email}`;
    // Every request was looked at (each counted once, in the background, after its answer).
    await until(async () => {
      const [window] = await api.rows<{ hits: number | string }>`
        SELECT hits FROM rate_windows WHERE rate_key = ${`password-reset:${user?.id}`}`;
      return Number(window?.hits) === RESETS_PER_HOUR + 2 ? true : undefined;
    }, 'the requests counted');
    await until(() => (mailsTo(email).length === RESETS_PER_HOUR ? true : undefined), 'the mails');
    const [queued] = await api.rows<{ n: number | string }>`
      SELECT count(*) AS n FROM mail_outbox WHERE to_address = ${email}`;
    expect(Number(queued?.n)).toBe(RESETS_PER_HOUR);
  });

  it('stores only the hash of the token, for 30 minutes', async () => {
    const { email } = await newAccount();
    const token = await resetToken(email);
    const rows = await api.rows<{ token_hash: string; created_at: string; expires_at: string }>`
      SELECT r.token_hash, r.created_at, r.expires_at FROM password_resets r JOIN users u ON u.id = r.user_id
      WHERE u.email = ${email}`;
    expect(rows.map((r) => r.token_hash)).toEqual([createHash('sha256').update(token).digest('hex')]);
    const [row] = rows;
    expect(Date.parse(row?.expires_at ?? '') - Date.parse(row?.created_at ?? '')).toBe(30 * 60_000);
  });

  it('sets the new password with the link and ends every session of the account', async () => {
    const { email, password, client } = await newAccount();
    const elsewhere = await login(email, password);
    expect(await authenticated(elsewhere.client)).toBe(true);
    const token = await resetToken(email);
    expect((await api.client().call('resetPassword', { token, password: 'second-pass-456' })).status).toBe(200);
    expect(await authenticated(client)).toBe(false);
    expect(await authenticated(elsewhere.client)).toBe(false);
    expect((await login(email, password)).status).toBe(401);
    expect((await login(email, 'second-pass-456')).status).toBe(200);
  });

  it('refuses a link used a second time', async () => {
    const { email } = await newAccount();
    const token = await resetToken(email);
    expect((await api.client().call('resetPassword', { token, password: 'second-pass-456' })).status).toBe(200);
    const again = await api.client().call('resetPassword', { token, password: 'third-pass-789' });
    expect([again.status, again.body.field]).toEqual([400, 'token']);
    expect((await login(email, 'second-pass-456')).status).toBe(200);
  });

  it('refuses a link used after 30 minutes', async () => {
    const { email, password } = await newAccount();
    const token = await resetToken(email);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30 * 60_000 + 1000 });
    const late = await api.client().call('resetPassword', { token, password: 'second-pass-456' });
    vi.useRealTimers();
    expect([late.status, late.body.field]).toEqual([400, 'token']);
    expect((await login(email, password)).status).toBe(200);
  });

  it('refuses a forged token, and one made of the stored hash', async () => {
    const { email } = await newAccount();
    const token = await resetToken(email);
    const hash = createHash('sha256').update(token).digest('hex');
    for (const forged of ['A'.repeat(43), `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, hash]) {
      const res = await api.client().call('resetPassword', { token: forged, password: 'second-pass-456' });
      expect([res.status, res.body.field]).toEqual([400, 'token']);
    }
  });

  it("changes only the link's own account: another account's password and sessions stay", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const tokenOfA = await resetToken(a.email);
    await resetToken(b.email);
    expect((await api.client().call('resetPassword', { token: tokenOfA, password: 'second-pass-456' })).status).toBe(
      200,
    );
    expect(await authenticated(b.client)).toBe(true);
    expect((await login(b.email, b.password)).status).toBe(200);
    expect((await login(b.email, 'second-pass-456')).status).toBe(401);
    expect((await login(a.email, 'second-pass-456')).status).toBe(200);
  });

  it('lets one of two resets with the same link at once succeed, the other refused', async () => {
    const { email } = await newAccount();
    const token = await resetToken(email);
    const answers = await Promise.all(
      ['second-pass-aaa', 'second-pass-bbb'].map((password) => api.client().call('resetPassword', { token, password })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const winner = answers[0]?.status === 200 ? 'second-pass-aaa' : 'second-pass-bbb';
    expect((await login(email, winner)).status).toBe(200);
  });

  it('holds a new password to the sign-up rule', async () => {
    const { email } = await newAccount();
    const token = await resetToken(email);
    const short = await api.client().call('resetPassword', { token, password: 'short' });
    expect([short.status, short.body.field]).toEqual([400, 'password']);
    // Refused before the link is spent: it still works.
    expect((await api.client().call('resetPassword', { token, password: 'long-enough-1' })).status).toBe(200);
  });
});

describe('the mail outbox', () => {
  it('keeps a mail the SMTP server refused and sends it once the server takes mail again, across a restart', async () => {
    const { email } = await newAccount();
    refusing = true;
    await askReset(email);
    const failed = await until(async () => {
      const [row] = await api.rows<{ attempts: number; sent_at: string | null; last_error: string | null }>`
        SELECT attempts, sent_at, last_error FROM mail_outbox WHERE to_address = ${email}`;
      return row && row.attempts >= 2 ? row : undefined;
    }, 'failed sends');
    expect(failed.sent_at).toBeNull();
    expect(failed.last_error).toMatch(/451|busy/i);
    expect(mailsTo(email)).toEqual([]);
    // The instance goes (its sender with it) while the mail is still unsent; the row outlives it.
    await api.stop();
    refusing = false;
    await api.start();
    await mailTo(email, /new password/);
    // The sender marks the row once the SMTP server has taken the mail, a moment after it arrives.
    const sent = await until(async () => {
      const [row] = await api.rows<{
        sent_at: string | null;
      }>`SELECT sent_at FROM mail_outbox WHERE to_address = ${email}`;
      return row?.sent_at ? row : undefined;
    }, 'the mail marked sent');
    expect(sent.sent_at).toEqual(expect.any(String));
  });

  it('gives up a mail the SMTP server refused for good (550), without sending it again', async () => {
    const { email } = await newAccount();
    refusing = 550;
    const before = refusals;
    await askReset(email);
    const given = await until(async () => {
      const [row] = await api.rows<{ attempts: number; failed_at: string | null; last_error: string | null }>`
        SELECT attempts, failed_at, last_error FROM mail_outbox WHERE to_address = ${email}`;
      return row?.failed_at ? row : undefined;
    }, 'the mail given up');
    expect([given.attempts, given.last_error]).toEqual([1, expect.stringMatching(/550/)]);
    // The server takes mail again: a given-up mail is still not sent, however often the sender passes.
    refusing = false;
    for (let i = 0; i < 3; i++) await api.api.mail?.pass();
    expect(refusals - before).toBe(1);
    expect(mailsTo(email)).toEqual([]);
  });

  it('sends nothing for a mail whose transaction fails after queueing it', async () => {
    const { email } = await newAccount();
    const [user] = await api.rows<{ id: number }>`SELECT id FROM users WHERE email = ${email}`;
    const { repos, config } = api.api.services;
    let passed = Promise.resolve();
    await expect(
      repos.transaction(async (tx) => {
        await queueMail({ repos: tx, config }, user?.id ?? 0, 'orderUpdate', {
          orderId: 'ord-x',
          eventName: 'Rolled back',
          news: 'Never sent',
          link: 'http://localhost:3000/',
        });
        // A pass of the sender while it is queued and not committed. SQLite's one connection is
        // the transaction's until it ends, so there the pass reads only after the rollback.
        passed = sent();
        if (ENGINE === 'postgres') await passed;
        throw new Error('the change fails after its mail');
      }),
    ).rejects.toThrow('the change fails');
    await passed;
    await sent();
    expect(mailsTo(email)).toEqual([]);
    expect(await api.rows`SELECT id FROM mail_outbox WHERE to_address = ${email}`).toEqual([]);
  });
});

describe('notification mails', () => {
  it('mails a new sign-in with its device, unless the owner switched sign-in mails off', async () => {
    const { name, email, password, client } = await newAccount();
    expect((await login(name, password, 'Mozilla/5.0 (Windows NT 10.0) Chrome/126.0 Safari/537.36')).status).toBe(200);
    const notice = await mailTo(email, /sign-in/);
    expect(notice.text).toContain('Chrome on Windows');
    const off = { signIn: false, receipts: true, orderUpdates: true };
    expect((await client.call('updateMailPreferences', { signIn: false })).body).toEqual(off);
    expect((await client.call('getMailPreferences')).body).toEqual(off);
    await login(name, password);
    await sent();
    expect(mailsTo(email).filter((m) => /sign-in/.test(m.subject))).toHaveLength(1);
  });

  it('changes only the kinds of mail a change names: two tabs changing different kinds at once both stay', async () => {
    const { client } = await newAccount();
    const tabs = [client, client];
    const answers = await Promise.all([
      tabs[0]?.call('updateMailPreferences', { receipts: false }),
      tabs[1]?.call('updateMailPreferences', { orderUpdates: false }),
    ]);
    expect(answers.map((a) => a?.status)).toEqual([200, 200]);
    expect((await client.call('getMailPreferences')).body).toEqual({
      signIn: true,
      receipts: false,
      orderUpdates: false,
    });
    // The same change twice changes nothing more; nothing named, or a value not a boolean, is refused.
    expect((await client.call('updateMailPreferences', { receipts: false })).body).toEqual({
      signIn: true,
      receipts: false,
      orderUpdates: false,
    });
    for (const forged of [{}, { signIn: 'maybe' }, { signIn: '' }]) {
      const res = await client.call('updateMailPreferences', forged);
      expect(res.status).toBe(400);
    }
    expect((await client.call('getMailPreferences')).body).toEqual({
      signIn: true,
      receipts: false,
      orderUpdates: false,
    });
  });

  it('mails the buyer a receipt for a paid purchase', async () => {
    const { email, client } = await newAccount();
    const [item] = await api.rows<{ identifier: string }>`
      SELECT ci.identifier FROM content_items ci JOIN users u ON u.id = ci.owner_id
      WHERE u.profile_name = 'max' AND ci.for_sale = 1 ORDER BY ci.identifier DESC`;
    expect((await client.call('addCartItem', { identifier: item?.identifier ?? '', itemType: 'CONTENT' })).status).toBe(
      200,
    );
    const { purchase } = (await client.call('checkout')).body;
    expect((await sendWebhook(api, paidEvent(purchase.purchaseNumber, purchase.totalCents).payload)).body.outcome).toBe(
      'paid',
    );
    const receipt = await mailTo(email, new RegExp(purchase.purchaseNumber));
    expect(receipt.text).toContain(`/receipt`);
    expect(receipt.text).toContain('Total paid');
  });

  it("mails the other party an order's change, unless they switched order updates off", async () => {
    const clara = await api.as('clara');
    const mia = await api.as('mia');
    expect((await clara.call('updateEventOrderStatus', { orderId: 'ord-1002', status: 'CANCELLED' })).status).toBe(200);
    const update = await mailTo('mia@example.com', /ord-1002/);
    expect(update.text).toContain('/eventorder/ord-1002');
    await mia.call('updateMailPreferences', { signIn: true, receipts: true, orderUpdates: false });
    expect((await clara.call('updateEventOrderStatus', { orderId: 'ord-1001', status: 'CANCELLED' })).status).toBe(200);
    await sent();
    expect(mailsTo('mia@example.com').filter((m) => /ord-1001/.test(m.subject))).toEqual([]);
    // The notification itself still comes: only the mail was switched off.
    const [notified] = await api.rows<{ n: number | string }>`
      SELECT count(*) AS n FROM notifications n JOIN users u ON u.id = n.user_id
      WHERE u.profile_name = 'mia' AND n.link LIKE ${'%ord-1001%'} AND n.content LIKE ${'%cancel%'}`;
    expect(Number(notified?.n)).toBeGreaterThan(0);
  });
});

describe('sessions and password change', () => {
  it('lists the sessions with their device and last use, marks the current one, and logs one out', async () => {
    const { email, password, client } = await newAccount();
    const phone = await login(email, password, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1');
    const { sessions } = (await client.call('getAccountSessions')).body;
    expect(sessions.map((s) => [s.device, s.current]).sort()).toEqual([
      ['Firefox on Linux', true],
      ['Safari on iOS', false],
    ]);
    expect(sessions.every((s) => !Number.isNaN(Date.parse(s.lastSeenAt)))).toBe(true);
    const other = sessions.find((s) => !s.current);
    expect((await client.call('endAccountSession', { sessionId: other?.id ?? '' })).status).toBe(200);
    expect(await authenticated(phone.client)).toBe(false);
    expect(await authenticated(client)).toBe(true);
    // Another account's session is not found, not ended.
    const stranger = await newAccount();
    const mine = (await client.call('getAccountSessions')).body.sessions[0];
    expect((await stranger.client.call('endAccountSession', { sessionId: mine?.id ?? '' })).status).toBe(404);
    expect(await authenticated(client)).toBe(true);
  });

  it('logs out everywhere, this browser too', async () => {
    const { email, password, client } = await newAccount();
    const other = await login(email, password);
    expect((await client.call('endAllAccountSessions')).body).toEqual({ ended: 2 });
    expect(await authenticated(client)).toBe(false);
    expect(await authenticated(other.client)).toBe(false);
  });

  it('changes the password only with the current one, ending every other session', async () => {
    const { email, password, client } = await newAccount();
    const other = await login(email, password);
    const wrong = await client.call('changePassword', {
      currentPassword: 'not-it-123',
      newPassword: 'second-pass-456',
    });
    expect([wrong.status, wrong.body.field]).toEqual([400, 'currentPassword']);
    const short = await client.call('changePassword', { currentPassword: password, newPassword: 'short' });
    expect([short.status, short.body.field]).toEqual([400, 'newPassword']);
    expect(await authenticated(other.client)).toBe(true);
    const res = await client.call('changePassword', { currentPassword: password, newPassword: 'second-pass-456' });
    expect(res.status).toBe(200);
    expect(await authenticated(client)).toBe(true);
    expect(await authenticated(other.client)).toBe(false);
    expect((await login(email, 'second-pass-456')).status).toBe(200);
    expect((await login(email, password)).status).toBe(401);
  });

  it("replaces this browser's session at a password change: a copy of its old token is logged out", async () => {
    const { password, client } = await newAccount();
    const oldToken = client.cookies.get(SESSION_COOKIE) ?? '';
    const stolen = api.client();
    stolen.cookies.set(SESSION_COOKIE, oldToken);
    expect(await authenticated(stolen)).toBe(true);
    expect(
      (await client.call('changePassword', { currentPassword: password, newPassword: 'second-pass-456' })).status,
    ).toBe(200);
    const newToken = client.cookies.get(SESSION_COOKIE);
    expect(newToken).toBeTruthy();
    expect(newToken).not.toBe(oldToken);
    expect(await authenticated(client)).toBe(true);
    expect(await authenticated(stolen)).toBe(false);
    expect((await client.call('getAccountSessions')).body.sessions).toHaveLength(1);
  });

  it('starts no session for a password that a reset replaced while the login was checking it', async () => {
    const { email, password } = await newAccount();
    const token = await resetToken(email);
    const { repos } = api.api.services;
    const transaction = repos.transaction;
    let reset = 0;
    // The login checked the password and is about to start its session: the reset commits now.
    repos.transaction = (async (work: Parameters<typeof transaction>[0]) => {
      repos.transaction = transaction;
      reset = (await api.client().call('resetPassword', { token, password: 'second-pass-456' })).status;
      return transaction(work);
    }) as typeof transaction;
    try {
      const late = await login(email, password);
      expect([reset, late.status]).toEqual([200, 401]);
      expect(await authenticated(late.client)).toBe(false);
    } finally {
      repos.transaction = transaction;
    }
    const [row] = await api.rows<{ n: number | string }>`
      SELECT count(*) AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ${email}`;
    expect(Number(row?.n)).toBe(0);
    expect((await login(email, 'second-pass-456')).status).toBe(200);
  });

  it('leaves no session of the old password when a login and a reset run at once', async () => {
    for (let round = 0; round < 4; round++) {
      const { email, password } = await newAccount();
      const token = await resetToken(email);
      const [attempt, reset] = await Promise.all([
        login(email, password),
        api.client().call('resetPassword', { token, password: 'second-pass-456' }),
      ]);
      expect(reset.status).toBe(200);
      expect([200, 401]).toContain(attempt.status);
      expect(await authenticated(attempt.client)).toBe(false);
    }
  });
});

describe('mail configuration', () => {
  it('refuses a production start without SMTP_URL, unless mail is off', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mail-config-'));
    const base = {
      NODE_ENV: 'production',
      DATABASE_PATH: join(dir, 'db.sqlite'),
      ADMIN_TOKEN: 'x',
      RUM_TOKEN_KEY: 'k'.repeat(32),
      FILE_LINK_KEY: 'f'.repeat(32),
    };
    try {
      expect(() => loadConfig(base)).toThrow(/SMTP_URL/);
      expect(loadConfig({ ...base, MAIL: 'off' }).mail).toEqual({ mode: 'off' });
      expect(loadConfig({ ...base, SMTP_URL: 'smtp://mail.example:587' }).mail.mode).toBe('smtp');
      expect(loadConfig({ ...base, NODE_ENV: 'development' }).mail.mode).toBe('dev');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('catches mail in the dev mailbox without SMTP_URL, and lists it at /internal/mailbox', async () => {
    const dev = await startTestApi({ MAIL_POLL_MS: '50' });
    try {
      expect(dev.config.mail.mode).toBe('dev');
      const mailbox = join(dev.dir, 'mailbox');
      expect((await dev.client().call('requestPasswordReset', { email: 'clara@example.com' })).status).toBe(200);
      await until(() => (readdirSync(mailbox).some((f) => f.endsWith('.eml')) ? true : undefined), 'the mailbox file');
      const page = await dev.client().fetch<{ text: string }>('/internal/mailbox');
      expect(page.body.text).toContain('Set a new password');
      expect(page.body.text).toContain('clara@example.com');
      // Not to a request that came through a proxy (a gateway before a preview server): the
      // mailbox holds reset links.
      const proxied: Record<string, string>[] = [
        { 'x-forwarded-for': '203.0.113.9' },
        { forwarded: 'for=203.0.113.9' },
      ];
      for (const headers of proxied) {
        expect((await dev.client().fetch('/internal/mailbox', { headers })).status).toBe(404);
        const name = readdirSync(mailbox).find((f) => f.endsWith('.eml')) ?? '';
        expect((await dev.client().fetch(`/internal/mailbox/${name}`, { headers })).status).toBe(404);
      }
    } finally {
      await dev.close();
    }
  });
});
