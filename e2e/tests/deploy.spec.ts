import { expect } from '@playwright/test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PORTS, ROOT, runtimeEnv } from '../env.js';
import { buildNextHeader } from './build-copies.js';
import { deployBuild } from './servers.js';
import { test } from './fixtures.js';

const NEXT_FOLDER = '.e2e-deploy-mf-header';
const servers: { stop(): Promise<void> }[] = [];

test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  rmSync(join(ROOT, NEXT_FOLDER), { recursive: true, force: true });
});

test('independent deploy: a rebuilt header served at the same manifest URL shows in the unchanged shell on reload', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const headerPort = 13401;
  servers.push(
    await deployBuild(join(ROOT, 'shell', 'dist'), 13400, runtimeEnv({ ...PORTS, header: headerPort }), 'shell'),
  );
  let header = await deployBuild(join(ROOT, 'mf-header', 'dist'), headerPort, runtimeEnv(), 'remote');
  // Whichever header is up when the test ends (or fails) is stopped with the others.
  servers.push({ stop: () => header.stop() });
  await page.goto('http://localhost:13400/');
  await expect(page.getByRole('link', { name: 'EventMedia', exact: true })).toBeVisible();

  // The header team changes its logo text and builds, alone.
  const nextDist = buildNextHeader(NEXT_FOLDER, 'EventMedia Next');

  // Deploy: the new build behind the same manifest URL (served no-cache).
  await header.stop();
  header = await deployBuild(nextDist, headerPort, runtimeEnv(), 'remote');
  // Shown on a reload; behind nginx, once the visitor's page it keeps for a few seconds is renewed.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('link', { name: 'EventMedia Next' })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  // The shell itself was not rebuilt: same main.js served from the same dist.
  expect(await page.evaluate(() => document.querySelector('script[src*="main.js"]') !== null)).toBe(true);
});
