import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import { serveApp } from 'build-preset/serve';
import { ROOT, runtimeEnv } from '../env.js';
import { buildNextHeader, startApp, stop } from './servers.js';
import { test } from './fixtures.js';

// Releases through the store (issue "Releases", first part): the real commands against a store
// served by the real static server, and a shell that reads the store's discovery document. The
// shell is never rebuilt.
const SHELL_URL = 'http://localhost:13980';
const STORE_URL = 'http://localhost:13981';
const NEXT_FOLDER = '.e2e-release-mf-header';
const store = mkdtempSync(join(tmpdir(), 'e2e-releases-'));
const servers: Server[] = [];
let nextDist = '';

/** `pnpm release|rollback ...` on this test's store; resolves with its exit code and output. */
async function command(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'build-preset', 'release.mjs'), ...args], { env: { ...process.env, RELEASES_DIR: store } });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

const liveHeader = () => (JSON.parse(readFileSync(join(store, 'discovery.json'), 'utf8')) as { remotes: { header?: { live?: { version: string } } } }).remotes.header?.live?.version;
const logo = (page: Page) => page.getByRole('link', { name: /^EventMedia( Next)?$/ });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  nextDist = buildNextHeader(NEXT_FOLDER, 'EventMedia Next');
  servers.push(await serveApp({ dir: store, port: 13981, log: false }));
  servers.push(await startApp('shell', 13980, { ...runtimeEnv(), DISCOVERY_URL: `${STORE_URL}/discovery.json` }));
});
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map(stop));
  rmSync(join(ROOT, NEXT_FOLDER), { recursive: true, force: true });
  rmSync(store, { recursive: true, force: true });
});

test('release: a header release shows on the next reload without a shell rebuild, rollback restores it, and the gate refuses a build the live shell cannot run', async ({ page }) => {
  expect((await command('release', 'header')).code).toBe(0);
  const first = liveHeader();
  await page.goto(SHELL_URL);
  await expect(logo(page)).toHaveText('EventMedia');

  expect((await command('release', 'header', '--dist', nextDist)).code).toBe(0);
  await page.reload();
  await expect(logo(page)).toHaveText('EventMedia Next');
  const manifest = await page.request.get(`${STORE_URL}/header/${liveHeader()}/mf-manifest.json`);
  expect(manifest.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect((await page.request.get(`${STORE_URL}/discovery.json`)).headers()['cache-control']).toBe('no-cache');

  const back = await command('rollback', 'header');
  expect(back.output).toContain(`back on ${first}`);
  await page.reload();
  await expect(logo(page)).toHaveText('EventMedia');

  // A build that needs a react the live shell does not provide: refused, nothing changes live.
  const newer = mkdtempSync(join(tmpdir(), 'e2e-header-newer-'));
  cpSync(nextDist, newer, { recursive: true });
  const manifestPath = join(newer, 'mf-manifest.json');
  const parsed = JSON.parse(readFileSync(manifestPath, 'utf8')) as { shared: { name: string; requiredVersion: string }[] };
  for (const s of parsed.shared) if (s.name === 'react') s.requiredVersion = '^20.0.0';
  writeFileSync(manifestPath, JSON.stringify(parsed));
  const refused = await command('release', 'header', '--dist', newer);
  rmSync(newer, { recursive: true, force: true });
  expect(refused.code).toBe(1);
  expect(refused.output).toMatch(/refused header \w+: needs react \^20\.0\.0, the live shell provides 19\./);
  expect(liveHeader()).toBe(first);
  const history = await command('list');
  expect(history.output).toMatch(/release +- -> \w+ +live[\s\S]*release +\w+ -> \w+ +live[\s\S]*rollback[\s\S]*refused: needs react/);
});

test('release: a 50 % canary splits fresh browsers, each stays on its version across reloads, and promote gives it to everyone', async ({ browser }) => {
  test.setTimeout(90_000);
  if (!liveHeader()) expect((await command('release', 'header')).code).toBe(0);
  expect((await command('release', 'header', '--dist', nextDist, '--canary', '50')).code).toBe(0);
  const seen: string[] = [];
  for (let i = 0; i < 16; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(SHELL_URL);
    const first = (await logo(page).textContent()) ?? '';
    await page.reload();
    await expect(logo(page)).toHaveText(first);
    seen.push(first);
    await context.close();
  }
  expect(seen).toContain('EventMedia');
  expect(seen).toContain('EventMedia Next');

  expect((await command('release', 'header', '--promote')).code).toBe(0);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(SHELL_URL);
  await expect(logo(page)).toHaveText('EventMedia Next');
  await context.close();
});
