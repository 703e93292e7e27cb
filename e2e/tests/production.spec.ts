import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type WebSocket } from '@playwright/test';
import { loadConfig } from 'api/config';
import { startApi } from 'api/server';
import { startMosquitto } from 'api/mosquitto';
import { REMOTES } from '@marketplace/shared/platform';
import { ADMIN_TOKEN, API, DEMO_PASSWORD, LIVE_URL, PORTS, ROOT, RUM_TOKEN_KEY, SHELL, runtimeEnv } from '../env.js';
import { logIn, notify, survivesBrokerRestart } from './helpers.js';
import { deployBuild } from './servers.js';
import { test } from './fixtures.js';

// Only in the production project (playwright.prod.config.ts): nginx serves the apps, mosquitto
// carries live updates with a login per page.

test('production: the page connects to mosquitto with its own broker login, gets live notifications there, and logout revokes the login', async ({
  page,
}) => {
  const sockets: WebSocket[] = [];
  page.on('websocket', (ws) => sockets.push(ws));
  const logins = page.waitForResponse((r) => r.url() === `${API}/v2/liveCredentials` && r.status() === 200);
  await logIn(page, 'ivy', DEMO_PASSWORD);
  await logins;
  await expect.poll(() => sockets.length).toBe(1);
  expect(sockets[0]?.url()).toMatch(new RegExp(`^${LIVE_URL}`));

  const bell = page.getByRole('button', { name: /^Notifications/ });
  await notify('ivy', 'Through mosquitto');
  await expect(bell).toHaveAccessibleName(/Notifications, \d+ new/);
  await bell.click();
  await expect(page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first()).toContainText(
    'Through mosquitto',
  );

  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect.poll(() => sockets[0]?.isClosed()).toBe(true);
  // Nothing reconnects after the logout: the login is gone from the broker.
  await page.waitForTimeout(2500);
  expect(sockets).toHaveLength(1);
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
  expect(page.headers()['content-security-policy']).toContain(LIVE_URL);
});

test('production: mosquitto restarts while a user is logged in; the page reconnects with its login, resubscribes, and a notification published after shows without a reload', async ({
  page,
}) => {
  test.setTimeout(60_000);
  // A broker, an API and a shell of its own, so restarting the broker touches no other test.
  const work = mkdtempSync(join(tmpdir(), 'e2e-restart-'));
  chmodSync(work, 0o755);
  const liveUrl = 'ws://localhost:14011';
  const apiUrl = 'http://localhost:14310';
  const shellUrl = 'http://localhost:13960';
  const admin = { username: 'api-admin', password: 'restart-test-password' };
  const broker = await startMosquitto({ mqttPort: 14012, wsPort: 14011, dir: join(work, 'mosquitto'), admin });
  const api = await startApi(
    loadConfig({
      API_PORT: '14310',
      API_HOST: '127.0.0.1',
      API_PUBLIC_ORIGIN: apiUrl,
      API_ALLOWED_ORIGINS: shellUrl,
      DATABASE_PATH: join(work, 'db.sqlite'),
      ADMIN_TOKEN,
      // Its shell's page server signs beacon tokens with the suite's key (runtimeEnv).
      RUM_TOKEN_KEY,
      SEED_DEMO: '1',
      MQTT_BROKER_URL: broker.url,
      MQTT_USERNAME: admin.username,
      MQTT_PASSWORD: admin.password,
      LIVE_PUBLIC_URL: liveUrl,
    }),
  );
  const shell = await deployBuild(
    join(ROOT, 'shell', 'dist'),
    13960,
    { ...runtimeEnv(), API_ORIGIN: apiUrl, LIVE_URL: liveUrl },
    'shell',
  );
  try {
    // mqtt.js reconnects with the same login (the plugin kept it in its file).
    const { sockets } = await survivesBrokerRestart(page, {
      shell: shellUrl,
      api: apiUrl,
      restart: () => broker.restart(),
    });
    expect(sockets[0]).toMatch(new RegExp(`^${liveUrl}`));
  } finally {
    await shell.stop();
    await api.close();
    await broker.stop();
    rmSync(work, { recursive: true, force: true });
  }
});
