import { expect, type WebSocket } from '@playwright/test';
import { REMOTES } from '@marketplace/shared/platform';
import { ADMIN_TOKEN, API, DEMO_PASSWORD, LIVE_URL, PORTS, SHELL } from '../env.js';
import { logIn } from './helpers.js';
import { test } from './fixtures.js';

// Only in the production project (playwright.prod.config.ts): nginx serves the apps, mosquitto
// carries live updates with a login per page.

test('production: the page connects to mosquitto with its own broker login, gets live notifications there, and logout revokes the login', async ({ page }) => {
  const sockets: WebSocket[] = [];
  page.on('websocket', (ws) => sockets.push(ws));
  const logins = page.waitForResponse((r) => r.url() === `${API}/v2/liveCredentials` && r.status() === 200);
  await logIn(page, 'ivy', DEMO_PASSWORD);
  await logins;
  await expect.poll(() => sockets.length).toBe(1);
  expect(sockets[0]?.url()).toMatch(new RegExp(`^${LIVE_URL}`));

  const bell = page.getByRole('button', { name: /^Notifications/ });
  const res = await fetch(`${API}/internal/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ profileName: 'ivy', content: 'Through mosquitto', link: null }),
  });
  expect(res.status).toBe(201);
  await expect(bell).toHaveAccessibleName(/Notifications, \d+ new/);
  await bell.click();
  await expect(page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first()).toContainText('Through mosquitto');

  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect.poll(() => sockets[0]?.isClosed()).toBe(true);
  // Nothing reconnects after the logout: the login is gone from the broker.
  await page.waitForTimeout(2500);
  expect(sockets).toHaveLength(1);
});

test('production: nginx answers a missing remote file with 404, never the page, with nosniff and the policy', async ({ request }) => {
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
  expect(page.headers()['content-security-policy']).toContain(LIVE_URL);
});
