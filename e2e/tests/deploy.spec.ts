import { expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PORTS, ROOT, runtimeEnv } from '../env.js';
import { deployBuild } from './servers.js';
import { test } from './fixtures.js';

// A copy of the header package beside the real one, so its node_modules links resolve the same way.
const NEXT = join(ROOT, '.e2e-deploy-mf-header');
const servers: { stop(): Promise<void> }[] = [];

test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  rmSync(NEXT, { recursive: true, force: true });
});

test('independent deploy: a rebuilt header served at the same manifest URL shows in the unchanged shell on reload', async ({ page }) => {
  test.setTimeout(120_000);
  const headerPort = 13401;
  servers.push(await deployBuild(join(ROOT, 'shell', 'dist'), 13400, runtimeEnv({ ...PORTS, header: headerPort }), 'shell'));
  let header = await deployBuild(join(ROOT, 'mf-header', 'dist'), headerPort, runtimeEnv(), 'remote');
  await page.goto('http://localhost:13400/');
  await expect(page.getByRole('link', { name: 'EventMedia', exact: true })).toBeVisible();

  // The header team changes its logo text and builds, alone.
  rmSync(NEXT, { recursive: true, force: true });
  cpSync(join(ROOT, 'mf-header'), NEXT, { recursive: true, verbatimSymlinks: true, filter: (src) => !src.includes('/dist') });
  const file = join(NEXT, 'src/header/HeaderBar.tsx');
  writeFileSync(file, readFileSync(file, 'utf8').replace('>EventMedia<', '>EventMedia Next<'));
  execFileSync(join(ROOT, 'build-preset/build-app.mjs'), [], { cwd: NEXT, stdio: 'pipe' });

  // Deploy: the new build behind the same manifest URL (served no-cache).
  await header.stop();
  header = await deployBuild(join(NEXT, 'dist'), headerPort, runtimeEnv(), 'remote');
  servers.push(header);
  await page.reload();
  await expect(page.getByRole('link', { name: 'EventMedia Next' })).toBeVisible();
  // The shell itself was not rebuilt: same main.js served from the same dist.
  expect(await page.evaluate(() => document.querySelector('script[src*="main.js"]') !== null)).toBe(true);
});
