import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FOREIGN_ORIGIN, SHELL_ORIGIN, startTestApi, useTestApi } from './harness.js';

const t = useTestApi();

const count = async (table: string) =>
  (await t().rows<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`)[0]?.n;

describe('CORS', () => {
  it("allows the shell's configured origin with credentials", async () => {
    const res = await fetch(`${t().url}/v2/events`, { headers: { origin: SHELL_ORIGIN } });
    expect(res.headers.get('access-control-allow-origin')).toBe(SHELL_ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('answers a preflight for a multipart POST and for an upload PUT', async () => {
    const res = await fetch(`${t().url}/upload/x`, {
      method: 'OPTIONS',
      headers: {
        origin: SHELL_ORIGIN,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHELL_ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
  });

  it('gives a foreign origin no CORS headers', async () => {
    const res = await fetch(`${t().url}/v2/events`, { headers: { origin: FOREIGN_ORIGIN } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('foreign origins', () => {
  it('refuses a state-changing call from a foreign origin and changes nothing', async () => {
    const clara = await t().as('clara');
    const before = await count('cart_items');
    const res = await clara.call(
      'addCartItem',
      { identifier: 'ci-photo-001', itemType: 'CONTENT' },
      { origin: FOREIGN_ORIGIN },
    );
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/not allowed/);
    expect(await count('cart_items')).toBe(before);
    expect(
      (await clara.call('addCartItem', { identifier: 'ci-photo-001', itemType: 'CONTENT' }, { origin: SHELL_ORIGIN }))
        .status,
    ).toBe(200);
  });
});

describe('bad bodies', () => {
  it('answers 413 with a reason for an oversized body and stores nothing', async () => {
    const before = await count('contact_messages');
    const form = new FormData();
    form.append('name', 'Big');
    form.append('email', 'big@example.com');
    form.append('subject', 'Big');
    form.append('message', 'x'.repeat(200 * 1024));
    const res = await t().client().fetch('/v2/submitContactInfo', { method: 'POST', body: form });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/larger than/);
    expect(await count('contact_messages')).toBe(before);
  });

  it('answers 400 for a malformed multipart body', async () => {
    const res = await t()
      .client()
      .fetch('/v2/submitContactInfo', {
        method: 'POST',
        body: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nunterminated',
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
      });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/body|field/i);
  });

  it('refuses a file where a text field is expected', async () => {
    const form = new FormData();
    for (const k of ['name', 'subject', 'message']) form.append(k, 'x');
    form.append('email', new Blob(['a@b.co']), 'email.txt');
    const res = await t().client().fetch('/v2/submitContactInfo', { method: 'POST', body: form });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('email');
  });

  it('refuses a NUL character in text with a reason, on every engine, and stores nothing', async () => {
    const before = await count('contact_messages');
    const contact = await t()
      .client()
      .call('submitContactInfo', { name: 'Pat\u0000', email: 'pat@example.com', subject: 'Hi', message: 'Hello' });
    expect([contact.status, contact.body.field]).toEqual([400, 'name']);
    expect(contact.body.error).toMatch(/NUL/);
    expect(await count('contact_messages')).toBe(before);
    const login = await t().client().call('login', { login: 'mia\u0000', password: 'x' });
    expect(login.status).toBe(400);
    const search = await t().client().call('search', { query: 'jazz\u0000' });
    expect(search.status).toBe(400);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await t().client().fetch('/v2/nope');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/No route/);
  });
});

describe('operator endpoint', () => {
  it('refuses /internal/notify without the admin token', async () => {
    const res = await t()
      .client()
      .fetch('/internal/notify', {
        method: 'POST',
        body: JSON.stringify({ profileName: 'clara', content: 'x' }),
        headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' },
      });
    expect(res.status).toBe(401);
  });
});

describe('cookies over https', () => {
  it('marks the session and loggedIn cookies Secure when the public origin is https', async () => {
    const secure = await startTestApi({ API_PUBLIC_ORIGIN: 'https://api.example.com' });
    try {
      const res = await secure.client().call('login', { login: 'clara', password: 'demo-pass-2026' });
      const cookies = res.headers.getSetCookie();
      expect(cookies.find((c) => c.startsWith('session='))).toMatch(/; Secure/);
      expect(cookies.find((c) => c.startsWith('loggedIn='))).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });
});
