import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { compositionBlocks } from 'page-server/page-composition';
import { serveApp } from 'page-server/serve';
import { ROOT, runtimeEnv } from '../env.js';
import { buildNextHeader, headerThatThrows } from './build-copies.js';
import { releasesCli } from './releases-cli.js';
import { startApp, stop } from './servers.js';
import { test } from './fixtures.js';

// Releases through the store (issue "Releases", first part): the real commands against a store
// served by the real static server, and a shell that reads the store's discovery document. The
// shell is never rebuilt.
const SHELL_URL = 'http://localhost:13980';
const STORE_URL = 'http://localhost:13981';
const NEXT_FOLDER = '.e2e-release-mf-header';
const store = mkdtempSync(join(tmpdir(), 'e2e-releases-'));
const servers: Server[] = [];
const copies: string[] = [];
let nextDist = '';

/** `pnpm release|rollback ...` on this test's store; resolves with its exit code and output. */
function command(...args: string[]): Promise<{ code: number; output: string }> {
  // The gate's smoke load opens candidates in this test's shell, which reads the store.
  return commandWith({ RELEASES_DIR: store, LIVE_SHELL_URL: SHELL_URL }, ...args);
}

/** The same command with its own environment (another store, no live shell named). */
const commandWith = releasesCli;

/** A copy of a build with one of its JSON files edited: a bad candidate. */
function editedCopy<T>(dist: string, file: string, edit: (json: T) => void): string {
  const copy = mkdtempSync(join(tmpdir(), 'e2e-candidate-'));
  copies.push(copy);
  cpSync(dist, copy, { recursive: true });
  const json = JSON.parse(readFileSync(join(copy, file), 'utf8')) as T;
  edit(json);
  writeFileSync(join(copy, file), JSON.stringify(json));
  return copy;
}

/** Runs a command that must succeed; its output is the failure message when it does not. */
async function succeeds(...args: string[]): Promise<string> {
  const { code, output } = await command(...args);
  expect(code, output).toBe(0);
  return output;
}

const liveHeader = () =>
  (
    JSON.parse(readFileSync(join(store, 'discovery.json'), 'utf8')) as {
      remotes: { header?: { live?: { version: string } } };
    }
  ).remotes.header?.live?.version;
const logo = (page: Page) => page.getByRole('link', { name: /^EventMedia( Next)?$/ });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  nextDist = buildNextHeader(NEXT_FOLDER, 'EventMedia Next');
  servers.push(await serveApp({ dir: store, port: 13981, log: false }));
  servers.push(
    await startApp('shell', 13980, {
      ...runtimeEnv(),
      DISCOVERY_URL: `${STORE_URL}/discovery.json`,
      ALLOW_VERSION_OVERRIDE: 'true',
    }),
  );
});
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map(stop));
  rmSync(join(ROOT, NEXT_FOLDER), { recursive: true, force: true });
  rmSync(store, { recursive: true, force: true });
  for (const copy of copies.splice(0)) rmSync(copy, { recursive: true, force: true });
});

test('release: a header release shows on the next reload without a shell rebuild, rollback restores it, and the gate refuses builds the live shell cannot run (singleton version, shared export, missing page module, failing smoke load)', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await succeeds('release', 'header');
  const first = liveHeader();
  await page.goto(SHELL_URL);
  await expect(logo(page)).toHaveText('EventMedia');

  // The shell's server composes the store's document into the page on every load: the page
  // never asks for it, and after each switch it names the new live version with its manifest.
  const discoveryRequests: string[] = [];
  page.on('request', (request) => request.url().includes('/discovery.json') && discoveryRequests.push(request.url()));
  const composedHeader = async () => {
    const html = await (await page.request.get(SHELL_URL)).text();
    const composed = JSON.parse(compositionBlocks(html)[0] ?? '') as {
      discovery: {
        remotes: { header: { live: { version: string; manifest: string } } };
        manifests: Record<string, { metaData: { buildInfo: { buildVersion: string } } }>;
      };
    };
    const { live } = composed.discovery.remotes.header;
    return {
      version: live.version,
      manifestVersion: composed.discovery.manifests[live.manifest]?.metaData.buildInfo.buildVersion,
    };
  };
  expect(await composedHeader()).toEqual({ version: first, manifestVersion: first });

  // The page server renders the header at the version live now: a switch changes its next render.
  const renderedLogo = async () =>
    /<a [^>]*href="\/"[^>]*>(EventMedia(?: Next)?)<\/a>/.exec(await (await page.request.get(SHELL_URL)).text())?.[1];
  expect(await renderedLogo()).toBe('EventMedia');
  await succeeds('release', 'header', '--dist', nextDist);
  const next = liveHeader();
  expect(await composedHeader()).toEqual({ version: next, manifestVersion: next });
  expect(await renderedLogo()).toBe('EventMedia Next');
  await page.reload();
  await expect(logo(page)).toHaveText('EventMedia Next');
  const manifest = await page.request.get(`${STORE_URL}/header/${liveHeader()}/mf-manifest.json`);
  expect(manifest.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect((await page.request.get(`${STORE_URL}/discovery.json`)).headers()['cache-control']).toBe('no-cache');

  const back = await command('rollback', 'header');
  expect(back.output).toContain(`back on ${first}`);
  expect(await composedHeader()).toEqual({ version: first, manifestVersion: first });
  expect(await renderedLogo()).toBe('EventMedia');
  await page.reload();
  await expect(logo(page)).toHaveText('EventMedia');
  expect(discoveryRequests).toEqual([]);

  // Builds the live shell cannot run: each refused with its reason, nothing changes live.
  const needsReact20 = await command(
    'release',
    'header',
    '--dist',
    editedCopy(nextDist, 'mf-manifest.json', (m: { shared: { name: string; requiredVersion: string }[] }) => {
      for (const s of m.shared) if (s.name === 'react') s.requiredVersion = '^20.0.0';
    }),
  );
  expect(needsReact20.code).toBe(1);
  expect(needsReact20.output).toMatch(/refused header \w+: needs react \^20\.0\.0, the live shell provides 19\./);
  const newHelper = await command(
    'release',
    'header',
    '--dist',
    editedCopy(nextDist, 'shared-imports.json', (m: Record<string, string[]>) => {
      m['@marketplace/shared']?.push('formatDuration');
    }),
  );
  expect(newHelper.code).toBe(1);
  expect(newHelper.output).toContain("uses formatDuration from @marketplace/shared, which the live shell's copy lacks");
  const noCart = await command(
    'release',
    'media',
    '--dist',
    editedCopy(join(ROOT, 'mf-media', 'dist'), 'mf-manifest.json', (m: { exposes: { name: string }[] }) => {
      m.exposes = m.exposes.filter((e) => e.name !== 'CartPage');
    }),
  );
  expect(noCart.code).toBe(1);
  expect(noCart.output).toContain("does not expose CartPage, which the platform table's pages need from media");
  // A build that throws while rendering passes the manifest checks but fails the smoke load.
  const broken = headerThatThrows('broken build');
  copies.push(broken);
  const throwing = await command('release', 'header', '--dist', broken);
  expect(throwing.code).toBe(1);
  expect(throwing.output).toMatch(/refused header \w+: smoke load: .*showed slot-fallback-header/);
  // One whose browser build is sound but whose server build throws: the smoke load renders it on the server too.
  const brokenOnServer = headerThatThrows('broken on the server', { build: 'server' });
  copies.push(brokenOnServer);
  const throwingOnServer = await command('release', 'header', '--dist', brokenOnServer);
  expect(throwingOnServer.code).toBe(1);
  expect(throwingOnServer.output).toMatch(/refused header \w+: smoke load: \/\S* on the server: broken on the server/);
  expect(throwingOnServer.output).not.toContain('slot-fallback-header');
  expect(liveHeader()).toBe(first);
  const history = await command('list');
  expect(history.output).toMatch(
    /release +- -> \w+ +live[\s\S]*release +\w+ -> \w+ +live[\s\S]*rollback[\s\S]*refused: needs react[\s\S]*refused: uses formatDuration[\s\S]*media +release +- -> \w+ +refused: does not expose CartPage[\s\S]*refused: smoke load/,
  );
});

test('release: a 50 % canary splits fresh browsers, each stays on its version across reloads, and promote gives it to everyone', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  if (!liveHeader()) await succeeds('release', 'header');
  await succeeds('release', 'header', '--dist', nextDist, '--canary', '50');
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
  // The page server honours the cohort cookie: a browser in the canary's half is rendered the
  // canary, one outside it live; one with no cohort yet gets the header's slot to decide itself.
  const served = async (cookie?: string) =>
    (await request.get(SHELL_URL, cookie ? { headers: { cookie } } : {})).text();
  expect(await served('platform-cohort=3')).toContain('>EventMedia Next</a>');
  expect(await served('platform-cohort=97')).toMatch(/>EventMedia<\/a>/);
  const undecided = await served();
  expect(undecided).toContain('data-testid="slot-loading-header"');
  expect(undecided).not.toMatch(/>EventMedia( Next)?<\/a>/);

  await succeeds('release', 'header', '--promote');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(SHELL_URL);
  await expect(logo(page)).toHaveText('EventMedia Next');
  await context.close();
});

test('release: a tester loads a stored version in their tab only, with a marker; a version not in the store is not loaded', async ({
  browser,
}) => {
  if (!liveHeader()) await succeeds('release', 'header');
  const stored = (
    JSON.parse(readFileSync(join(store, 'discovery.json'), 'utf8')) as { remotes: { header: { versions: string[] } } }
  ).remotes.header.versions;
  const other = stored.find((v) => v !== liveHeader());
  expect(other).toBeDefined();
  const everyone = await browser.newContext();
  const everyonePage = await everyone.newPage();
  await everyonePage.goto(SHELL_URL);
  const liveLogo = (await logo(everyonePage).textContent()) ?? '';

  const tester = await browser.newContext();
  const page = await tester.newPage();
  // The page server renders the version the address asks for, as the tab will hydrate it.
  const rendered = await (await tester.request.get(`${SHELL_URL}/?version=header@${other}`)).text();
  expect(rendered).toMatch(/>EventMedia( Next)?<\/a>/);
  expect(rendered).not.toContain(`>${liveLogo}</a>`);
  await page.goto(`${SHELL_URL}/?version=header@${other}`);
  const marker = page.getByRole('status', { name: 'Testing remote versions' });
  await expect(marker).toContainText(`header ${other}`);
  const testedLogo = (await logo(page).textContent()) ?? '';
  expect(testedLogo).not.toBe(liveLogo);
  // Kept for the tab: another page of the site without the parameter still loads it.
  await page.goto(`${SHELL_URL}/events`);
  await expect(logo(page)).toHaveText(testedLogo);
  await expect(marker).toBeVisible();
  await page.getByRole('link', { name: 'Stop testing' }).click();
  await expect(logo(page)).toHaveText(liveLogo);
  await expect(marker).toHaveCount(0);

  // Everyone else is untouched, and a version the store does not hold is not loaded.
  await everyonePage.reload();
  await expect(logo(everyonePage)).toHaveText(liveLogo);
  await page.goto(`${SHELL_URL}/?version=header@000000000000`);
  await expect(logo(page)).toHaveText(liveLogo);
  await expect(marker).toHaveCount(0);
  await Promise.all([everyone.close(), tester.close()]);
});

test('release: two releases started at once both land, one after the other, in the history', async () => {
  test.setTimeout(90_000);
  const before = (await command('list')).output
    .split('\n')
    .filter((line) => / header +(release|canary|promote|rollback) /.test(line)).length;
  const [one, two] = await Promise.all([
    command('release', 'header'),
    command('release', 'header', '--dist', nextDist),
  ]);
  expect(one.code, one.output).toBe(0);
  expect(two.code, two.output).toBe(0);
  const lines = (await command('list')).output
    .split('\n')
    .filter((line) => / header +(release|canary|promote|rollback) /.test(line));
  expect(lines).toHaveLength(before + 2);
  // The second to take the lock saw the first's version live: "from" of the last is "to" of the one before.
  const [first, second] = lines.slice(-2).map((line) => /(\S+) -> (\S+) +live/.exec(line));
  expect(second?.[1]).toBe(first?.[2]);
});

test('release: without LIVE_SHELL_URL the smoke load still runs, in the live shell build served on loopback; a header that throws as it loads is refused with its error, and --skip-smoke lets it through on the record', async () => {
  test.setTimeout(120_000);
  const own = mkdtempSync(join(tmpdir(), 'e2e-releases-local-'));
  copies.push(own);
  const release = (...args: string[]) => commandWith({ RELEASES_DIR: own }, ...args);

  const healthy = await release('release', 'header');
  expect(healthy.code, healthy.output).toBe(0);
  expect(healthy.output).not.toContain('skipped');

  // The exposed module throws as soon as it is loaded (its factory's first statement), edited in
  // place in a copy of the build (its file keeps its name, so the remote entry still finds it).
  const throwing = mkdtempSync(join(tmpdir(), 'e2e-header-throwing-'));
  cpSync(join(ROOT, 'mf-header', 'dist'), throwing, { recursive: true });
  const expose = readdirSync(throwing).find((f) => f.startsWith('__federation_expose_Header') && f.endsWith('.js'));
  const code = readFileSync(join(throwing, expose ?? ''), 'utf8');
  const factory = /\{\d+\(\w,\w,\w\)\{/.exec(code)?.[0];
  expect(factory, 'the exposed module factory in the build').toBeTruthy();
  writeFileSync(
    join(throwing, expose ?? ''),
    code.replace(factory ?? '', `${factory}throw new Error("header failed at load");`),
  );
  copies.push(throwing);
  const refused = await release('release', 'header', '--dist', throwing);
  expect(refused.code).toBe(1);
  expect(refused.output).toMatch(/refused header \w+: smoke load: .*header failed at load/);

  const skipped = await release('release', 'header', '--dist', throwing, '--skip-smoke');
  expect(skipped.code, skipped.output).toBe(0);
  const history = await release('list');
  expect(history.output).toMatch(/refused: smoke load: .*header failed at load[\s\S]*live +\(smoke load skipped\)/);
});
