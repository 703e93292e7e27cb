import { describe, expect, it } from 'vitest';
import { useTestApi } from './harness.js';

const t = useTestApi();

describe('log in', () => {
  it('sets an HttpOnly SameSite=Lax session cookie and a readable loggedIn=yes cookie', async () => {
    const client = t().client();
    const res = await client.call('login', { login: 'clara', password: 'demo-pass-2026' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ profileName: 'clara', username: 'Clara Client', roles: ['DRIVER'] });
    const cookies = res.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('session='));
    const loggedIn = cookies.find((c) => c.startsWith('loggedIn='));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).not.toMatch(/Secure/i);
    expect(loggedIn).toMatch(/^loggedIn=yes/);
    expect(loggedIn).not.toMatch(/HttpOnly/i);
  });

  it('accepts the email as well as the profile name', async () => {
    const res = await t().client().call('login', { login: 'Mia@Example.com', password: 'demo-pass-2026' });
    expect(res.status).toBe(200);
    expect(res.body.profileName).toBe('mia');
  });

  it('refuses a wrong password with 401 and a reason, setting no cookie', async () => {
    const res = await t().client().call('login', { login: 'clara', password: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/wrong/i);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('answers 400 naming a missing field', async () => {
    const res = await t().client().call('login', { login: 'clara' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Missing field 'password'", field: 'password' });
  });
});

describe('sign up', () => {
  it('creates a user with no roles, logged in at once', async () => {
    const client = t().client();
    const res = await client.call('signup', {
      username: 'Nina New',
      profileName: 'nina',
      email: 'nina@example.com',
      password: 'long-enough',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ roles: [], profileName: 'nina', profilePicture: null, username: 'Nina New' });
    expect(client.cookies.get('loggedIn')).toBe('yes');
    expect((await client.call('getUserInfo')).body.profileName).toBe('nina');
  });

  it('refuses a taken profile name or email with 409', async () => {
    const taken = await t()
      .client()
      .call('signup', { username: 'X', profileName: 'mia', email: 'x@example.com', password: 'long-enough' });
    expect(taken.status).toBe(409);
    expect(taken.body.field).toBe('profileName');
    const email = await t()
      .client()
      .call('signup', { username: 'X', profileName: 'xavier', email: 'mia@example.com', password: 'long-enough' });
    expect(email.status).toBe(409);
    expect(email.body.field).toBe('email');
  });

  it.each([
    [
      { username: 'A', profileName: 'ann', email: 'not-an-email', password: 'long-enough' },
      'email',
      /Email is invalid/,
    ],
    [{ username: 'A', profileName: 'ann', email: 'ann@example.com', password: 'short' }, 'password', /at least 8/],
    [
      { username: 'A', profileName: 'Ann Upper', email: 'ann@example.com', password: 'long-enough' },
      'profileName',
      /lowercase/,
    ],
  ])('validates %j', async (body, field, message) => {
    const res = await t().client().call('signup', body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.error).toMatch(message);
  });
});

describe('session', () => {
  it('checkAuthentication answers 401 without a session and 200 with one', async () => {
    expect((await t().client().call('checkAuthentication')).status).toBe(401);
    const clara = await t().as('clara');
    const res = await clara.call('checkAuthentication');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ authenticated: true });
  });

  it('checkAuthentication answers 401 for a forged session cookie', async () => {
    const client = t().client();
    client.cookies.set('session', 'forged');
    expect((await client.call('checkAuthentication')).status).toBe(401);
  });

  it('userInfo returns roles, profileName, profilePicture and username', async () => {
    const max = await t().as('max');
    const res = await max.call('getUserInfo');
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual(['DRIVER', 'EVENT_ORGANIZER', 'MEDIA']);
    expect(res.body.profilePicture).toMatch(/\/media\/avatars\/max\.png$/);
    expect((await t().client().call('getUserInfo')).status).toBe(401);
  });

  it('logout ends the session and sets loggedIn=no', async () => {
    const clara = await t().as('clara');
    const stolen = clara.cookieHeader;
    const res = await clara.call('logout');
    expect(res.status).toBe(200);
    expect(clara.cookies.get('loggedIn')).toBe('no');
    expect(clara.cookies.has('session')).toBe(false);
    // The old cookie no longer works anywhere, even if someone kept it.
    const replay = await t()
      .client()
      .fetch('/v2/checkAuthentication', { method: 'POST', headers: { cookie: stolen } });
    expect(replay.status).toBe(401);
  });

  it('logout without a session answers 401 (the browser counts it as success)', async () => {
    const res = await t().client().call('logout');
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('loggedIn=no'))).toBe(true);
  });
});

describe('updateRoles', () => {
  it('sets MEDIA and/or DRIVER from a multipart body and keeps EVENT_ORGANIZER', async () => {
    const nora = await t().as('nora');
    const res = await nora.call('updateRoles', { driver: true, media: true });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual(['DRIVER', 'MEDIA']);
    expect((await nora.call('updateRoles', { driver: false, media: true })).body.roles).toEqual(['MEDIA']);
    const olga = await t().as('olga');
    expect((await olga.call('updateRoles', { driver: true, media: false })).body.roles).toEqual([
      'DRIVER',
      'EVENT_ORGANIZER',
    ]);
  });

  it('refuses no role at all, a non-boolean, and a form-encoded body', async () => {
    const dave = await t().as('dave');
    expect((await dave.call('updateRoles', { driver: false, media: false })).status).toBe(400);
    const bad = await dave.call('updateRoles', { driver: 'yes', media: 'false' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('driver');
    const form = await dave.fetch('/v2/updateRoles', {
      method: 'POST',
      body: new URLSearchParams({ driver: 'true', media: 'true' }),
    });
    expect(form.status).toBe(415);
    expect(form.body.error).toMatch(/multipart\/form-data/);
    expect((await dave.call('getUserInfo')).body.roles).toEqual(['DRIVER']);
  });

  it('requires a session', async () => {
    expect((await t().client().call('updateRoles', { driver: true, media: true })).status).toBe(401);
  });
});
