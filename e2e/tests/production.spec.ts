import { expect } from '@playwright/test';
import { REMOTES } from '@marketplace/shared/platform';
import { API, DEMO_PASSWORD, LIVE_URL, PORTS, SHELL } from '../env.js';
import { brokerConnections, connectAnswer, followLiveSockets } from './broker.js';
import { logIn, notify } from './helpers.js';
import { test } from './fixtures.js';

// Only in the production project (playwright.prod.config.ts): nginx serves the apps, the API's
// gateway passes pages' live connections to RabbitMQ's two nodes, which ask the API (the
// gateway's internal listener) whether a page's signed login may connect and what it may read.

test("production: pages connect through the gateway to a RabbitMQ node with their session's signed login and get live notifications; logout closes every connection of the session on the broker, and the login cannot connect again", async ({
  page,
  context,
}) => {
  const liveUrl = LIVE_URL ?? '';
  const first = followLiveSockets(page);
  const logins = page.waitForResponse((r) => r.url() === `${API}/v2/liveCredentials` && r.status() === 200);
  await logIn(page, 'ivy', DEMO_PASSWORD);
  const login = (await (await logins).json()) as { username: string; password: string };
  // The login names the session (s.<session>.<user>) and is the API's signature, not a broker account.
  expect(login.username).toMatch(/^s\.[^.]+\.[^.]+$/);
  await expect.poll(() => first[0]?.subscribedAt ?? null).not.toBeNull();
  expect(first).toHaveLength(1);
  expect(first[0]?.socket.url()).toBe(liveUrl);
  expect(first[0]?.connack).toBe(0);

  // A second page of the same session: a connection of its own, under the same username.
  const other = await context.newPage();
  const second = followLiveSockets(other);
  await other.goto('/events');
  await expect.poll(() => second[0]?.subscribedAt ?? null).not.toBeNull();
  await expect
    .poll(async () => (await brokerConnections(login.username)).map((c) => c.clientId).sort(), { timeout: 15_000 })
    .toEqual([first[0]?.clientId, second[0]?.clientId].sort());

  const bell = page.getByRole('button', { name: /^Notifications/ });
  const { id } = await notify('ivy', 'Through the RabbitMQ cluster');
  await expect(bell).toHaveAccessibleName(/Notifications, \d+ new/);
  await bell.click();
  await expect(page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first()).toContainText(
    'Through the RabbitMQ cluster',
  );
  // Both pages had it live, through whichever node each is on.
  for (const sockets of [first, second])
    await expect.poll(() => sockets[0]?.notifications.map((n) => n.id)).toContain(id);

  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Profile menu' }).click();
  const loggingOut = Date.now();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  // The other page does not know yet that the session ended: the broker closes its connection
  // (the API asked the management API to close the session's username on every node).
  await expect.poll(() => second[0]?.closedAt ?? null).not.toBeNull();
  const closedMs = (second[0]?.closedAt ?? 0) - loggingOut;
  await expect.poll(async () => (await brokerConnections(login.username)).length, { intervals: [50] }).toBe(0);
  const goneMs = Date.now() - loggingOut;
  // Reported, not asserted: how long these take is a measurement, not the behaviour under test.
  console.log(
    `[revocation] logout to the other page's connection closed: ${closedMs} ms; to none of the session's connections listed by the broker: ${goneMs} ms or less`,
  );

  // The other page ends the session too (told by the first, or refused a new broker login by the
  // API), which closes its live channel: it tries no more, and nothing of the session connects again.
  await expect(other.getByRole('button', { name: 'Log in' }).first()).toBeVisible();
  expect(await brokerConnections(login.username)).toEqual([]);
  for (const socket of [...first.slice(1), ...second.slice(1)]) expect(socket.connack).not.toBe(0);
  expect(first).toHaveLength(1);
  // And the revoked login itself, sent through the gateway: refused, by a CONNACK with code 4 (bad
  // login) or 5 (not authorised), or, from RabbitMQ 3.10's web MQTT, by closing the websocket before
  // any CONNACK.
  const answer = await connectAnswer(other, liveUrl, login);
  expect(
    ('connack' in answer && [4, 5].includes(answer.connack)) || 'closedBeforeConnack' in answer,
    JSON.stringify(answer),
  ).toBe(true);
});

test('production: nginx answers a missing remote file with 404, never the page, with nosniff and the policy', async ({
  request,
}) => {
  for (const name of ['header', 'media'] as const) {
    const base = `http://localhost:${PORTS[name]}`;
    const missing = await request.get(`${base}/remoteEntry.gone.js`);
    expect(missing.status(), `${REMOTES[name].package}`).toBe(404);
    expect(missing.headers()['x-content-type-options']).toBe('nosniff');
    const manifest = await request.get(`${base}/mf-manifest.json`);
    expect(manifest.headers()['cache-control']).toBe('no-cache');
  }
  const page = await request.get(`${SHELL}/user/orders`);
  expect(page.status()).toBe(200);
  // The live connection's origin (the gateway's, whose /mqtt reaches the broker).
  expect(page.headers()['content-security-policy']).toContain(new URL(LIVE_URL ?? '').origin);
});

test("production: a page's beacon token through nginx gives a new browser its id in an HttpOnly cookie, keeps it for that browser, and is never kept for another", async () => {
  // No cookie jar: each request is the browser its Cookie header says.
  const ask = async (cookie = '') => {
    const answer = await fetch(`${SHELL}/platform/rum-token`, { headers: { cookie } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const { token } = (await answer.json()) as { token: string };
    const claims = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as { browser?: string };
    return { setCookie: answer.headers.get('set-cookie'), browser: claims.browser };
  };
  const first = await ask('platform-cohort=50');
  expect(first.setCookie).toMatch(
    /^platform-browser=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/,
  );
  expect(first.setCookie).toContain(`platform-browser=${first.browser};`);
  const again = await ask(`platform-cohort=50; platform-browser=${first.browser}`);
  expect(again).toEqual({ setCookie: null, browser: first.browser });
  // Another new browser of the same cohort, a moment later: its own id, not the first one's answer.
  const other = await ask('platform-cohort=50');
  expect(other.browser).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(other.browser).not.toBe(first.browser);
});
