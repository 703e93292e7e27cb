import { expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { PORTS, ROOT, runtimeEnv } from '../env.js';
import { startApp, stop } from './servers.js';
import { test } from './fixtures.js';

// A copy of the header package beside the real one, so its node_modules links resolve the same way.
const NEXT = join(ROOT, '.e2e-deploy-mf-header');
const servers: Server[] = [];

test.afterAll(async () => {
  await Promise.all(servers.splice(0).map(stop));
  rmSync(NEXT, { recursive: true, force: true });
});

test('independent deploy: a rebuilt header served at the same manifest URL shows in the unchanged shell on reload', async ({ page }) => {
  test.setTimeout(120_000);
  const headerPort = 13401;
  servers.push(await startApp('shell', 13400, runtimeEnv({ ...PORTS, header: headerPort })));
  let header = await startApp('mf-header', headerPort);
  await page.goto('http://localhost:13400/');
  await expect(page.getByRole('link', { name: 'EventMedia', exact: true })).toBeVisible();

  // The header team changes its logo text and builds, alone.
  rmSync(NEXT, { recursive: true, force: true });
  cpSync(join(ROOT, 'mf-header'), NEXT, { recursive: true, verbatimSymlinks: true, filter: (src) => !src.includes('/dist') });
  const file = join(NEXT, 'src/header/HeaderBar.tsx');
  writeFileSync(file, readFileSync(file, 'utf8').replace('>EventMedia<', '>EventMedia Next<'));
  execFileSync(join(ROOT, 'build-preset/build-app.mjs'), [], { cwd: NEXT, stdio: 'pipe' });

  // Deploy: the new build behind the same manifest URL (served no-cache).
  await stop(header);
  header = await startApp(join(NEXT, 'dist'), headerPort);
  servers.push(header);
  await page.reload();
  await expect(page.getByRole('link', { name: 'EventMedia Next' })).toBeVisible();
  // The shell itself was not rebuilt: same main.js served from the same dist.
  expect(await page.evaluate(() => document.querySelector('script[src*="main.js"]') !== null)).toBe(true);
});
