import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { loadConfig } from 'api/config';
import { startApi, type RunningApi } from 'api/server';
import { LIVE_MAX_PAYLOAD_BYTES } from '@marketplace/shared/contract';
import { notification } from '@marketplace/shared/factories';
import { ADMIN_TOKEN, DEMO_PASSWORD, RUM_TOKEN_KEY, runtimeEnv } from '../env.js';
import { startApp, stop } from './servers.js';
import { logIn, survivesBrokerRestart } from './helpers.js';
import { test } from './fixtures.js';

// The live channel against a broker that goes away: an API of its own (embedded broker) that the
// test restarts, and a shell pointed at it.
const SHELL = 'http://localhost:13950';
const API_PORT = 14300;
const API_URL = `http://localhost:${API_PORT}`;

test('live faults: the broker restarts while a user is logged in; the client reconnects, resubscribes, and a notification published after it shows without a reload; junk payloads are dropped', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-live-'));
  const config = loadConfig({
    API_PORT: String(API_PORT),
    API_HOST: '127.0.0.1',
    API_PUBLIC_ORIGIN: API_URL,
    API_ALLOWED_ORIGINS: SHELL,
    DATABASE_PATH: join(dataDir, 'db.sqlite'),
    ADMIN_TOKEN,
    // Its shell's page server signs beacon tokens with the suite's key (runtimeEnv).
    RUM_TOKEN_KEY,
    SEED_DEMO: '1',
    // The demo's accounts and notifications only: its media would be made in this test's worker
    // (twice, with the restart), taking the cores from the tests running beside it.
    SEED_DEMO_MEDIA: '0',
  });
  let api: RunningApi = await startApi(config);
  const shell = await startApp('shell', 13950, { ...runtimeEnv(), API_ORIGIN: API_URL });
  try {
    const { bell } = await survivesBrokerRestart(page, {
      shell: SHELL,
      api: API_URL,
      restart: async () => {
        await api.close();
        api = await startApi(config);
      },
    });

    // Malformed and oversized payloads on the user's own topic are dropped; the next good one shows.
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.keyboard.press('Escape');
    const good = notification({ id: 999_001, content: 'After the junk', timestamp: new Date().toISOString() });
    api.services.live.publish('notifications', 'dave', { id: 'not a number', content: 42 } as never);
    api.services.live.publish('notifications', 'dave', {
      ...good,
      id: 999_000,
      content: 'x'.repeat(LIVE_MAX_PAYLOAD_BYTES),
    });
    api.services.live.publish('notifications', 'dave', good);
    await bell.click();
    const items = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
    await expect(items.first()).toContainText('After the junk');
    await expect(items.filter({ hasText: 'xxxxxxxxxx' })).toHaveCount(0);
    await expect(items.filter({ hasText: /^42/ })).toHaveCount(0);
    expect(errors).toEqual([]);
  } finally {
    await Promise.all([api.close(), stop(shell)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('live faults: a broker whose host is not found is retried, and the page keeps working', async ({ page }) => {
  const shell = await startApp('shell', 13950, { ...runtimeEnv(), LIVE_URL: 'ws://broker.invalid/mqtt' });
  try {
    const attempts: string[] = [];
    page.on('websocket', (ws) => attempts.push(ws.url()));
    await logIn(page, 'tom', DEMO_PASSWORD, SHELL);
    await expect.poll(() => attempts.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(new Set(attempts)).toEqual(new Set(['ws://broker.invalid/mqtt']));
    // Everything else works without the live channel.
    await page.getByRole('button', { name: /^Notifications,/ }).click();
    await expect(page.getByRole('list', { name: 'Notifications' })).toBeVisible();
    await page.getByRole('link', { name: 'Posts' }).click();
    await expect(page.getByRole('heading', { name: 'Posts' })).toBeVisible();
  } finally {
    await stop(shell);
  }
});
