import { expect } from '@playwright/test';
import type { Server } from 'node:http';
import { PORTS, runtimeEnv } from '../env.js';
import { brokenCopy } from './build-copies.js';
import { startApp, stop } from './servers.js';
import { test } from './fixtures.js';

// Each test runs its own shell whose runtime config points one remote at a port of its own.
const servers: Server[] = [];
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map(stop));
});

test('media down: its slot shows a fallback, the header and account still work, and navigating picks media up when it is back', async ({
  page,
}) => {
  const mediaPort = 13102;
  servers.push(await startApp('shell', 13100, runtimeEnv({ ...PORTS, media: mediaPort })));
  await page.goto('http://localhost:13100/events');
  await expect(page.getByTestId('slot-fallback-media')).toBeVisible();
  await expect(page.getByTestId('slot-fallback-media')).toContainText('This page is unavailable right now.');
  // Everything else works: the header, and the account remote through it.
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await page.getByRole('link', { name: 'EventMedia' }).click();
  await expect(page.getByTestId('slot-fallback-media')).toBeVisible();

  servers.push(await startApp('mf-media', mediaPort));
  await page.getByRole('link', { name: 'Posts' }).click();
  await expect(page.getByRole('heading', { name: 'Posts' })).toBeVisible();
  await expect(page.getByTestId('slot-fallback-media')).toHaveCount(0);
});

test('header down: the page still shows its content and footer; Retry brings the header back', async ({ page }) => {
  const headerPort = 13201;
  servers.push(await startApp('shell', 13200, runtimeEnv({ ...PORTS, header: headerPort })));
  await page.goto('http://localhost:13200/');
  await expect(page.getByTestId('slot-fallback-header')).toBeVisible();
  await expect(page.getByRole('link', { name: /Summer Jazz Night/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Question?' })).toBeVisible();

  servers.push(await startApp('mf-header', headerPort));
  await page.getByTestId('slot-fallback-header').getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});

test('media throwing while rendering: only its slot falls back; its other pages and the header keep working', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const broken = brokenCopy(
    'mf-media',
    '__federation_expose_EventsPage',
    'children:"Events"',
    'children:(()=>{throw new Error("broken build")})()',
  );
  servers.push(await startApp(broken, 13302));
  servers.push(await startApp('shell', 13300, runtimeEnv({ ...PORTS, media: 13302 })));
  await page.goto('http://localhost:13300/events');
  await expect(page.getByTestId('slot-fallback-media')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await page.getByRole('link', { name: 'Posts' }).click();
  await expect(page.getByRole('heading', { name: 'Posts' })).toBeVisible();
  // React reports the caught error; nothing escapes as an uncaught page error.
  expect(errors).toEqual([]);
});
