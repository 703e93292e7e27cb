import type { Server } from 'node:http';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { PAGE_LIST, REMOTES } from '@marketplace/shared/platform';
import { ROOT, SINGLE_PORT } from '../env.js';
import { watchConsole } from './helpers.js';
import { startApp, stop } from './servers.js';
import { test } from './fixtures.js';

const SINGLE = `http://localhost:${SINGLE_PORT}`;
let server: Server | undefined;
test.beforeAll(async () => {
  server = await startApp(join(ROOT, 'shell', 'dist-single'), SINGLE_PORT);
});
test.afterAll(() => stop(server));

test('single-bundle build: the same product from one origin, no federation requests, routes split the same way', async ({
  page,
}) => {
  const problems = watchConsole(page);
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.goto(`${SINGLE}/`);
  await expect(page.getByRole('link', { name: /Summer Jazz Night/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'EventMedia' })).toBeVisible();
  // The account pages' code is not loaded before its route.
  expect(urls.filter((u) => /mf-account/.test(u))).toEqual([]);

  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByLabel('Email or profile name').fill('sam');
  await page.getByLabel('Password').fill('demo-pass-2026');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  await page.goto(`${SINGLE}/event/city-marathon-2026`);
  await expect(page.getByRole('heading', { name: 'City Marathon', level: 1 })).toBeVisible();

  expect(urls.filter((u) => /mf-manifest\.json|remoteEntry\.js/.test(u))).toEqual([]);
  expect(
    urls.filter((u) => u.startsWith('http://localhost:') && !u.startsWith(SINGLE) && !u.includes(':14000/')),
  ).toEqual([]);
  expect(urls.some((u) => /mf-account_src_exposes_LoginPage/.test(u))).toBe(true);
  expect(problems).toEqual([]);
});

// Item 1 of the platform map: a page in the table is a route of the single bundle too, with no
// list of modules to keep in step (the shell's unit test proves the same for the federated build).
test('single-bundle build: every page of the platform table is routed to its remote module', async ({ page }) => {
  // A visitor on made-up parameters is answered 401 and 404 by the API; the pages show that.
  const problems = watchConsole(page, [/status of 40[14]/]);
  const chunks: string[] = [];
  page.on('request', (r) => chunks.push(r.url()));
  for (const entry of PAGE_LIST) {
    chunks.length = 0;
    // Any value fills a parameter: an unknown event or order still renders its page (as "not found").
    await page.goto(`${SINGLE}${entry.path.replace(/:\w+/g, 'someone')}`);
    await expect(page.getByTestId(`slot-loading-${entry.remote}`)).toHaveCount(0);
    await expect(page.getByTestId(`slot-fallback-${entry.remote}`), entry.key).toHaveCount(0);
    // The module, whichever chunk webpack put it in: the loaded scripts' source maps name it.
    const source = `${REMOTES[entry.remote].package}/src/exposes/${entry.module}.tsx`;
    const sources = await Promise.all(
      chunks
        .filter((u) => u.endsWith('.js'))
        .map(async (u) => ((await (await page.request.get(`${u}.map`)).json()) as { sources: string[] }).sources),
    );
    expect(
      sources.flat().some((s) => s.endsWith(source)),
      `${entry.key} loads ${source}`,
    ).toBe(true);
  }
  expect(problems).toEqual([]);
});
