// The release gate's smoke load, in a browser and on the server. smokeLoad: headless Chromium
// (Debian's) opens the live shell with the candidate pinned (that browser alone is given a discovery document naming the candidate live,
// in the page the shell's server composed and when it fetches the document, so nothing changes
// for anyone else) and checks every page the remote renders: the candidate's
// files were loaded, every slot rendered (no fallback), no uncaught error, no
// Content-Security-Policy violation. smokeRender: the shell's server build renders the same
// pages with the candidate, as the page server will once it is live.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { messageOf } from '@marketplace/shared/errors';
import { COMPOSITION_ID, PLATFORM } from '@marketplace/shared/node/platform';
import { INCLUDES, inScript, processIncludes } from 'page-server/page-composition';
import { pageRenderer, rendererOf } from 'page-server/render-page';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SETTLE_MS = 15_000;

/** The paths to open for a remote: its pages (any value fills a parameter), or the home page. @param {string} remote */
function pathsOf(remote) {
  const pages = PLATFORM.pages.filter((p) => p.remote === remote).map((p) => p.path.replace(/:\w+/g, 'smoke'));
  return pages.length ? [...new Set(pages)] : ['/'];
}

/**
 * The live shell's runtime config and the release store's document with the candidate pinned as
 * its remote's live version (no canary), as both smoke loads give them to what they load; or why
 * there is none.
 * @param {{ shellUrl: string, remote: string, version: string }} candidate
 * @returns {Promise<{ config: Record<string, unknown> & { discoveryUrl: string }, pinned: { remotes: Record<string, Record<string, unknown>>, manifests?: Record<string, unknown> }, manifestPath: string } | string>}
 */
async function pinnedCandidate({ shellUrl, remote, version }) {
  const config = await (await fetch(new URL('/runtime-config.json', shellUrl), { cache: 'no-store' })).json();
  if (typeof config.discoveryUrl !== 'string' || !config.discoveryUrl)
    return `the shell at ${shellUrl} does not read a release store (no discoveryUrl)`;
  const live = await (await fetch(config.discoveryUrl, { cache: 'no-store' })).json();
  const manifestPath = `${remote}/${version}/mf-manifest.json`;
  const pinned = {
    ...live,
    remotes: { ...live.remotes, [remote]: { ...live.remotes?.[remote], live: { version, manifest: manifestPath } } },
  };
  delete pinned.remotes[remote].canary;
  return { config, pinned, manifestPath };
}

/**
 * Runs in the smoke browser's pages: once the page is parsed and before its scripts run, the
 * discovery document its server composed into it is replaced by the pinned one, without the
 * manifests it carried (the browser fetches the candidate's). A page whose composition cannot be
 * read is left as it is (it then fetches the document, which is answered pinned too).
 * @param {{ id: string, doc: object }} pin
 */
function pinComposedDiscovery({ id, doc }) {
  document.addEventListener('readystatechange', () => {
    const block = document.readyState === 'interactive' ? document.getElementById(id) : null;
    if (!block) return;
    try {
      block.textContent = JSON.stringify({ ...JSON.parse(block.textContent ?? ''), discovery: doc });
    } catch {
      // Not composed: nothing to replace.
    }
  });
}

/**
 * @param {{ shellUrl: string, remote: string, version: string }} candidate
 * @returns {Promise<string[]>} what went wrong, empty when the candidate loads cleanly
 */
export async function smokeLoad({ shellUrl, remote, version }) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  /** @type {string[]} */
  const problems = [];
  try {
    const candidate = await pinnedCandidate({ shellUrl, remote, version });
    if (typeof candidate === 'string') return [candidate];
    const { config, pinned } = candidate;
    const discoveryUrl = config.discoveryUrl;
    const context = await browser.newContext();
    await context.route(discoveryUrl, (route) =>
      route.fulfill({ json: pinned, headers: { 'Access-Control-Allow-Origin': '*' } }),
    );
    await context.addInitScript(pinComposedDiscovery, { id: COMPOSITION_ID, doc: { ...pinned, manifests: {} } });
    // A synthetic load is not a real user: its beacons (BEACON_PATH, shared/src/platform/beacon.ts)
    // are answered here and never reach the API's figures, which judge canaries.
    if (typeof config.apiOrigin === 'string')
      await context.route(new URL('/rum', config.apiOrigin).href, (route) => route.fulfill({ status: 204 }));
    /** @type {string[]} */
    const candidateFiles = [];
    context.on(
      'request',
      (request) => request.url().includes(`/${remote}/${version}/`) && candidateFiles.push(request.url()),
    );
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`an uncaught error on ${page.url()}: ${error.message}`));
    /** What the shell said of a remote that failed (`[shell] remote header failed to load: …`): why a slot fell back. */
    const shellSaid = /** @type {string[]} */ ([]);
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text()))
        problems.push(`a policy violation on ${page.url()}: ${message.text()}`);
      if (message.text().startsWith('[shell]')) shellSaid.push(message.text().split('\n')[0] ?? '');
    });
    for (const path of pathsOf(remote)) {
      candidateFiles.length = 0;
      shellSaid.length = 0;
      // Settled: the remotes' files fetched, then no slot still loading.
      try {
        await page.goto(new URL(path, shellUrl).href, { waitUntil: 'networkidle', timeout: SETTLE_MS });
      } catch (error) {
        problems.push(`${path} did not settle: ${messageOf(error).split('\n')[0]}`);
        continue;
      }
      try {
        await page.locator('[data-testid^="slot-loading-"]').first().waitFor({ state: 'detached', timeout: SETTLE_MS });
      } catch {
        problems.push(`${path} was still loading a slot after ${SETTLE_MS / 1000} s`);
      }
      if (!candidateFiles.some((url) => url.endsWith('/mf-manifest.json')))
        problems.push(`${path} did not load ${remote} ${version} (does the shell read this store?)`);
      const fallbacks = await page
        .locator('[data-testid^="slot-fallback-"]')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')));
      const why = shellSaid.length ? ` (${[...new Set(shellSaid)].join('; ')})` : '';
      for (const fallback of fallbacks) problems.push(`${path} showed ${fallback}${why}`);
    }
  } finally {
    await browser.close();
  }
  return problems;
}

/**
 * The smoke load on the server: every page the remote renders, rendered by the shell's server
 * build (beside `shellDist`) with the candidate pinned in the composition it is given, as the
 * page server would render it once the candidate is live: the candidate's server build must be
 * fetched, load and render its slot, with no error in the render.
 *
 * The candidate's code is not trusted yet: it runs in a process of its own (this file, with
 * `--render`, through runSandboxed), which writes only its own scratch folder (not the store,
 * which this process is writing), has none of this process's environment, and is killed past
 * `timeoutMs`.
 *
 * @param {{ shellUrl: string, shellDist: string, remote: string, version: string }} candidate
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<string[]>} what went wrong, empty when the candidate renders cleanly
 */
export async function smokeRender(candidate, { timeoutMs = 60_000 } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'smoke-render-'));
  try {
    const { error, stdout, stderr } = await runSandboxed(
      [fileURLToPath(import.meta.url), '--render', JSON.stringify({ ...candidate, scratch })],
      { scratch, timeoutMs },
    );
    const answer = /^SMOKE-RENDER (.*)$/m.exec(stdout)?.[1];
    if (answer) return JSON.parse(answer);
    if (error?.killed) return [`the server render did not finish within ${timeoutMs} ms`];
    return [`the server render failed: ${stderr.trim().split('\n').slice(-3).join(' ') || error?.message}`];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Runs `node <args>` with limits: it writes only `scratch`, starts no process (Node's permission
 * model), gets no environment but PATH (no token or password of the release's runner), and is
 * killed (SIGKILL) past `timeoutMs`. It may read files: Node's module resolution reads package
 * scopes up to the file system's root, which a narrower list breaks. Node says its permission
 * model is no barrier against code written to escape it: this keeps a candidate from writing the
 * store and from the runner's secrets by the plain means, not a determined attacker (a container
 * or user namespace would).
 * @param {string[]} args @param {{ scratch: string, timeoutMs: number }} limits
 * @returns {Promise<{ error: (Error & { killed?: boolean }) | null, stdout: string, stderr: string }>}
 */
export function runSandboxed(args, { scratch, timeoutMs }) {
  const permissions = ['--permission', '--allow-fs-read=*', `--allow-fs-write=${scratch}`];
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [...permissions, ...args],
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 << 20, env: { PATH: process.env.PATH ?? '' } },
      (error, stdout, stderr) => resolve({ error, stdout, stderr }),
    ),
  );
}

/**
 * smokeRender's work, in its own process: renders the pages, writing only to `scratch`.
 * @param {{ shellUrl: string, shellDist: string, remote: string, version: string, scratch: string }} candidate
 */
async function renderCandidate({ shellUrl, shellDist, remote, version, scratch }) {
  const renderer = pageRenderer({ distDir: shellDist, env: {}, cacheDir: join(scratch, 'builds') });
  if (!renderer) return [`the shell's server build is not at ${rendererOf(shellDist)}: build the shell`];
  const candidate = await pinnedCandidate({ shellUrl, remote, version });
  if (typeof candidate === 'string') return [candidate];
  const { config, pinned, manifestPath } = candidate;
  // The candidate's manifest in the document, as the store writes a live version's.
  const manifest = await (await fetch(new URL(manifestPath, config.discoveryUrl))).json();
  const doc = { ...pinned, manifests: { ...pinned.manifests, [manifestPath]: manifest } };
  const inBlock = (/** @type {unknown} */ value) => inScript(JSON.stringify(value));
  const template = await processIncludes(readFileSync(join(shellDist, 'index.html'), 'utf8'), async (path) =>
    path === INCLUDES.config ? inBlock(config) : path === INCLUDES.discovery ? inBlock(doc) : null,
  );
  /** @type {string[]} */
  const problems = [];
  for (const path of pathsOf(remote)) {
    const page = await renderer.render({ template, url: path, cookie: '', origin: shellUrl });
    if (!page) {
      problems.push(`${path} was not rendered on the server: renders were at their limit`);
      continue;
    }
    for (const problem of page.problems) problems.push(`${path} on the server: ${problem}`);
    const state = /id="platform-server-state">(.*?)<\/script>/s.exec(page.body)?.[1];
    /** @type {Record<string, string>} */
    const slots = state ? JSON.parse(state).slots : {};
    const rendered = Object.entries(slots).some(
      ([id, url]) => id.startsWith(`${remote}/`) && url.includes(`/${remote}/${version}/`),
    );
    if (!rendered) problems.push(`${path} was not rendered on the server with ${remote} ${version}`);
  }
  return problems;
}

// The render's own process (smokeRender): its answer is one line, whatever the render logged.
if (process.argv[2] === '--render' && process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = await renderCandidate(JSON.parse(process.argv[3] ?? '{}'));
  process.stdout.write(`SMOKE-RENDER ${JSON.stringify(problems)}\n`);
  process.exit(0);
}
