/**
 * No secret at rest, on both engines: after a sign-up, logins, a password change and a reset
 * mail, every row of every table of the database is read, and none holds a password, a session
 * cookie's token or a reset link's token, in any form. What idempotency keeps of a login is an
 * HMAC without the password, and never the session it started.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCall } from '@marketplace/shared/contract';
import { GUEST_CART_COOKIE, SESSION_COOKIE } from '../src/auth/sessions.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrationProvider } from '../src/db/migrations.js';
import type { Schema } from '../src/db/schema.js';
import { startSmtpCatcher, type SmtpCatcher } from '../src/mail/devMailbox.js';
import { readMail, type ReadMail } from '../src/mail/mime.js';
import { sessionKeyOf } from '../src/repositories/sessions.js';
import { unmigrated, useFreshDatabase } from './databases.js';
import { ADMIN_TOKEN, ENGINE, SHELL_ORIGIN, startTestApi, until, type TestApi, type TestClient } from './harness.js';

let api: TestApi;
let smtp: SmtpCatcher;
const inbox: (ReadMail & { envelope: string[] })[] = [];

beforeAll(async () => {
  smtp = await startSmtpCatcher((raw, to) => void inbox.push({ ...readMail(raw), envelope: to }));
  api = await startTestApi({ SMTP_URL: smtp.url, MAIL_POLL_MS: '50' });
});
afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });

/** A visitor known by a guest cart cookie: its idempotency keys are kept, in a scope of its own. */
function guest(): TestClient {
  const client = api.client();
  client.cookies.set(GUEST_CART_COOKIE, randomUUID().replaceAll('-', ''));
  return client;
}

/** Every session token handed out in these tests, live or ended since. */
const tokens: string[] = [];
function sessionOf(client: TestClient): string {
  const token = client.cookies.get(SESSION_COOKIE);
  if (!token) throw new Error('expected a session cookie');
  if (!tokens.includes(token)) tokens.push(token);
  return token;
}

/** A secret as it may sit in a column: as sent, and (for a base64url token) as hex and base64. */
function formsOf(secret: string): string[] {
  const forms = [secret];
  if (/^[\w-]{40,}$/.test(secret)) {
    const bytes = Buffer.from(secret, 'base64url');
    forms.push(bytes.toString('hex'), bytes.toString('base64'));
  }
  return forms;
}

/** Every table of the database, from the engine's own catalogue (pg-boss's schema too), as `schema.table`. */
async function tables(): Promise<string[]> {
  if (ENGINE === 'postgres') {
    const rows = await api.rows<{ s: string; t: string }>`
      SELECT table_schema AS s, table_name AS t FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`;
    return rows.map(({ s, t }) => `${s}.${t}`);
  }
  const rows = await api.rows<{ t: string }>`SELECT name AS t FROM sqlite_master WHERE type = 'table'`;
  return rows.map(({ t }) => `main.${t}`);
}

/** Each row of each table as text (binary columns as hex and as UTF-8), with the table it came from. */
async function everyRow(): Promise<{ table: string; text: string }[]> {
  const found: { table: string; text: string }[] = [];
  for (const table of await tables()) {
    const [schema = '', name = ''] = table.split('.');
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(`${schema}.${name}`)}`.execute(
      api.api.database.db,
    );
    for (const row of rows)
      found.push({
        table,
        text: Object.values(row)
          .map((value) =>
            Buffer.isBuffer(value) || value instanceof Uint8Array
              ? `${Buffer.from(value).toString('hex')} ${Buffer.from(value).toString('utf8')}`
              : typeof value === 'object' && value !== null
                ? JSON.stringify(value)
                : String(value),
          )
          .join('\u0000'),
      });
  }
  return found;
}

describe('secrets at rest', () => {
  it('keeps no password, session token or reset token in any table', async () => {
    const name = `rest${Date.now() % 1_000_000}`;
    const email = `${name}@example.com`;
    const first = `first-secret-${randomUUID()}`;
    const second = `second-secret-${randomUUID()}`;

    // Sign-up from a guest, with a key: the key is kept, the session it started is not.
    const signupKey = randomUUID();
    const signer = guest();
    const signup = { username: `Person ${name}`, profileName: name, email, password: first };
    expect((await signer.call('signup', signup, keyed(signupKey))).status).toBe(201);
    const signupToken = sessionOf(signer);
    const again = guest();
    again.cookies.set(GUEST_CART_COOKIE, signer.cookies.get(GUEST_CART_COOKIE) ?? '');
    const replayed = await again.call('signup', signup, keyed(signupKey));
    expect(replayed.status).toBe(409);
    expect(replayed.headers.getSetCookie().join('\n')).not.toContain(signupToken);
    expect(again.cookies.has(SESSION_COOKIE)).toBe(false);

    // A login from another guest, with a key.
    const loginKey = randomUUID();
    const loginClient = guest();
    expect((await loginClient.call('login', { login: name, password: first }, keyed(loginKey))).status).toBe(200);
    const loginToken = sessionOf(loginClient);

    // The password changed on that session, with a key: every session ends, this browser gets a new one.
    const changeKey = randomUUID();
    const change = { currentPassword: first, newPassword: second };
    expect((await loginClient.call('changePassword', change, keyed(changeKey))).status).toBe(200);
    const changedToken = sessionOf(loginClient);
    expect(changedToken).not.toBe(loginToken);
    const changeReplay = await loginClient.call('changePassword', change, keyed(changeKey));
    expect(changeReplay.status).toBe(409);
    expect(changeReplay.headers.getSetCookie()).toEqual([]);
    expect((await loginClient.call('checkAuthentication')).status).toBe(200);

    // A login with the new password, kept live.
    const live = api.client();
    expect((await live.call('login', { login: email, password: second })).status).toBe(200);
    sessionOf(live);

    // A reset link by mail; the mail is sent (the outbox done with it) before the tables are read.
    expect((await api.client().call('requestPasswordReset', { email }, { origin: SHELL_ORIGIN })).status).toBe(200);
    const mail = await until(
      () => inbox.find((m) => m.envelope.includes(email) && /new password/.test(m.subject)),
      'the reset mail',
    );
    const resetToken = /#token=([\w-]+)/.exec(mail.text)?.[1] ?? '';
    expect(resetToken.length).toBeGreaterThan(40);
    await until(async () => {
      const [pending] = await api.rows<{ n: number }>`SELECT COUNT(*) AS n FROM mail_outbox WHERE sent_at IS NULL`;
      return Number(pending?.n) === 0 ? true : undefined;
    }, 'the outbox marking the mail sent');

    const rows = await everyRow();
    expect(rows.some((row) => row.table.endsWith('.sessions'))).toBe(true);
    expect(rows.some((row) => row.table.endsWith('.idempotency_keys'))).toBe(true);
    const secrets = { first, second, resetToken, ...Object.fromEntries(tokens.map((t, i) => [`session ${i}`, t])) };
    const leaks = Object.entries(secrets).flatMap(([what, secret]) =>
      formsOf(secret).flatMap((form) =>
        rows.filter((row) => row.text.includes(form)).map((row) => `${what} in ${row.table}`),
      ),
    );
    expect(leaks).toEqual([]);
  });

  it("keeps a login's fingerprint as an HMAC without its password: a database copy cannot test a guess", async () => {
    const key = randomUUID();
    const client = guest();
    const request = { login: 'leo', password: 'demo-pass-2026' };
    expect((await client.call('login', request, keyed(key))).status).toBe(200);
    const [row] = await api.rows<{ fingerprint: string }>`
      SELECT fingerprint FROM idempotency_keys WHERE idempotency_key = ${key}`;
    // What anyone could compute from the request's known shape and a guessed password.
    const { method, path, body } = encodeCall('login', request);
    const fields = JSON.stringify(
      [...new URLSearchParams(body?.toString()).entries()].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    const withoutPassword = JSON.stringify([['login', 'leo']]);
    const guesses = [fields, withoutPassword].map((text) =>
      createHash('sha256').update(`${method} ${path}\napplication/x-www-form-urlencoded\n${text}`).digest('base64url'),
    );
    expect(row?.fingerprint).toBeTruthy();
    expect(guesses).not.toContain(row?.fingerprint);
  });
});

describe('0019_hashed_tokens', () => {
  const fresh = useFreshDatabase();

  it('hashes the tokens of sessions made before in place, so their owners stay logged in, and drops kept keys', async () => {
    const token = randomUUID();
    const old = unmigrated<Schema>(fresh().target);
    try {
      const before = await new Migrator({ db: old, provider: migrationProvider(ENGINE) }).migrateTo(
        '0018_mail_outbox_leases',
      );
      expect(before.error).toBeUndefined();
      const { id } = await old
        .insertInto('users')
        .values({
          profile_name: 'olden',
          username: 'Olden',
          email: 'o@example.com',
          password_hash: '-',
          created_at: '',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await old
        .insertInto('sessions')
        .values({ token, user_id: id, created_at: '', expires_at: '2999-01-01T00:00:00.000Z', live_id: 'live-olden' })
        .execute();
      await old
        .insertInto('idempotency_keys')
        .values({
          scope: `user:${id}`,
          idempotency_key: 'an-old-key',
          fingerprint: '-',
          status: 200,
          response: JSON.stringify({ setCookies: [`session=${token}`] }),
          locked_until: '',
          created_at: '',
        })
        .execute();
    } finally {
      await old.destroy();
    }
    const database = await openDatabase(fresh().target);
    try {
      const sessions = await database.db.selectFrom('sessions').select(['token', 'live_id']).execute();
      expect(sessions).toEqual([{ token: sessionKeyOf(token), live_id: 'live-olden' }]);
      expect(await database.db.selectFrom('idempotency_keys').selectAll().execute()).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe('the idempotency key', () => {
  const env = { DATABASE_PATH: '/nonexistent/platform.sqlite', ADMIN_TOKEN, RUM_TOKEN_KEY: 'k'.repeat(32) };
  const linkKey = (c: string) => ({ ...env, FILE_LINK_KEY: c.repeat(32) });

  it('is IDEMPOTENCY_KEY when set (32 characters at least), else derived from FILE_LINK_KEY and not equal to it', () => {
    expect(loadConfig({ ...linkKey('f'), IDEMPOTENCY_KEY: 'i'.repeat(32) }).idempotencyKey.toString()).toBe(
      'i'.repeat(32),
    );
    expect(() => loadConfig({ ...linkKey('f'), IDEMPOTENCY_KEY: 'short' })).toThrow(/IDEMPOTENCY_KEY/);
    const derived = loadConfig(linkKey('f')).idempotencyKey;
    // The same on every instance that shares the link key, and a key of its own.
    expect(loadConfig(linkKey('f')).idempotencyKey.equals(derived)).toBe(true);
    expect(loadConfig(linkKey('g')).idempotencyKey.equals(derived)).toBe(false);
    expect(derived.toString('utf8')).not.toContain('f'.repeat(32));
  });
});
