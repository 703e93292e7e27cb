// `pnpm bench`: what a person pays on a cold load: the federated page as served (rendered by its
// page server), the same build rendered in the browser only (SERVER_RENDERING=off), and the
// single-bundle build. Starts the production builds with the API and its broker on loopback,
// loads every scenario in a new browser context (empty cache) in headless Chromium, the builds
// taking turns, then runs Lighthouse's mobile configuration on three pages of each build and
// times the page server's renders under a bounded load; writes the medians and ratios as
// Markdown (printed), JSON and an SVG chart.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { manifestEnv, PLATFORM } from '@marketplace/shared/node/platform';
import { serveApp, stopServer } from 'page-server/serve';
import { measureColdLoad, NETWORK } from './cold-load.mjs';
import { lighthouseMobile, renderLighthouse } from './lighthouse.mjs';
import { BENCH_RUM_TOKEN_KEY, startApi, waitFor, waitForDemoMedia } from './servers.mjs';
import { median, renderChart, renderMarkdown, summarize, VARIANTS } from './report.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const OUT = join(import.meta.dirname, 'results');
/** Each app of the platform table 20000 above its development port (3000 -> 23000). */
const OFFSET = 20_000;
const REMOTES = Object.entries(PLATFORM.remotes);
const PORTS = {
  shell: PLATFORM.shell.devPort + OFFSET,
  // The same shell build, rendering in the browser only.
  client: PLATFORM.shell.devPort + OFFSET + 20,
  single: PLATFORM.singleBundlePort + OFFSET,
  api: 24000,
  ...Object.fromEntries(REMOTES.map(([name, r]) => [name, r.devPort + OFFSET])),
};
const API = `http://localhost:${PORTS.api}`;
const BASE = {
  federated: `http://localhost:${PORTS.shell}`,
  client: `http://localhost:${PORTS.client}`,
  single: `http://localhost:${PORTS.single}`,
};
/** Lighthouse's pages (issue "Pages that arrive rendered"): `BENCH_LIGHTHOUSE_RUNS=0` skips them. */
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 1);
const LIGHTHOUSE_PAGES = [
  { id: 'home', title: 'home', path: '/' },
  { id: 'gallery', title: 'event gallery', path: '/event/summer-jazz-night-2026' },
  { id: 'login', title: 'log in', path: '/user/login' },
];
/** The page server's renders under a bounded load: this many at once, this many in all per page. */
const RENDER_LOAD = { concurrency: 4, requests: Number(process.env.BENCH_RENDERS ?? 120) };

/** Each scenario: where to go, what counts as its main content, and what to do first (log in, open the viewer). */
const ALL_SCENARIOS = [
  { id: 'home', title: 'home, anonymous', path: '/', main: 'main ul li a h2' },
  { id: 'events', title: '/events', path: '/events', main: 'main ul li a h2' },
  {
    id: 'gallery',
    title: 'event gallery',
    path: '/event/summer-jazz-night-2026',
    main: 'main [aria-label="Gallery"] li',
  },
  {
    id: 'viewer-video',
    title: 'gallery + viewer on a video',
    path: '/event/summer-jazz-night-2026',
    main: null,
    video: true,
  },
  { id: 'order', title: 'event order, logged in', path: null, main: 'main h1', login: 'clara' },
];
/** `BENCH_ONLY=home,order`: some scenarios only. */
const SCENARIOS = process.env.BENCH_ONLY
  ? ALL_SCENARIOS.filter((s) => process.env.BENCH_ONLY?.split(',').includes(s.id))
  : ALL_SCENARIOS;

/** The id of one of clara's orders, for the logged-in scenario. */
async function orderPath() {
  const login = await fetch(`${API}/v2/login`, {
    method: 'POST',
    body: new URLSearchParams({ login: 'clara', password: 'demo-pass-2026' }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { eventOrders } = await (await fetch(`${API}/v2/user/eventOrders`, { headers: { cookie } })).json();
  return `/eventorder/${eventOrders[0].orderId}`;
}

/** The page server's answer times for each page, under RENDER_LOAD. */
async function renderTimes(origin, paths) {
  const results = [];
  for (const path of paths) {
    const times = [];
    let errors = 0;
    let sent = 0;
    const worker = async () => {
      while (sent < RENDER_LOAD.requests) {
        sent++;
        const start = performance.now();
        const response = await fetch(`${origin}${path}`).catch(() => null);
        if (!response || response.status >= 500) errors++;
        await response?.arrayBuffer();
        times.push(performance.now() - start);
      }
    };
    await Promise.all(Array.from({ length: RENDER_LOAD.concurrency }, worker));
    const sorted = times.sort((a, b) => a - b);
    results.push({ path, p50: median(sorted), p95: sorted[Math.floor(sorted.length * 0.95)] ?? NaN, errors });
  }
  return results;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const api = startApi({ port: PORTS.api, dataDir, allowedOrigins: Object.values(BASE) });
  const env = {
    ...process.env,
    API_ORIGIN: API,
    RUM_TOKEN_KEY: BENCH_RUM_TOKEN_KEY,
    ...manifestEnv(PORTS),
  };
  const servers = await Promise.all([
    serveApp({ dir: join(ROOT, PLATFORM.shell.package, 'dist'), port: PORTS.shell, env, log: false }),
    serveApp({
      dir: join(ROOT, PLATFORM.shell.package, 'dist'),
      port: PORTS.client,
      env: { ...env, SERVER_RENDERING: 'off' },
      log: false,
    }),
    ...REMOTES.map(([name, r]) => serveApp({ dir: join(ROOT, r.package, 'dist'), port: PORTS[name], env, log: false })),
    serveApp({ dir: join(ROOT, 'shell/dist-single'), port: PORTS.single, env, log: false }),
  ]);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    await waitFor(`${API}/health`);
    // SEED_DEMO_MEDIA=0: the demo's small pictures served as seeded, nothing to wait for (the
    // "before" of docs/performance.md's image bytes).
    if (process.env.SEED_DEMO_MEDIA !== '0') await waitForDemoMedia(API);
    const paths = { order: await orderPath() };
    /** @type {Record<string, Record<string, object[]>>} */
    const samples = {};
    for (let run = 0; run < RUNS; run++) {
      for (const scenario of SCENARIOS) {
        // Rotate which variant goes first, so none always meets a warmer API or disk.
        const order = VARIANTS.map((_, i) => VARIANTS[(i + run) % VARIANTS.length]);
        for (const variant of order) {
          const sample = await measureColdLoad(browser, {
            api: API,
            origin: BASE[variant],
            variant,
            scenario,
            path: scenario.path ?? paths[scenario.id],
          });
          ((samples[scenario.id] ??= {})[variant] ??= []).push(sample);
        }
      }
      process.stdout.write(`run ${run + 1}/${RUNS} done\n`);
    }
    const renders = await renderTimes(BASE.federated, ['/', '/event/summer-jazz-night-2026', '/user/login']);
    const lighthouse =
      LIGHTHOUSE_RUNS > 0
        ? await lighthouseMobile({ variants: BASE, pages: LIGHTHOUSE_PAGES, runs: LIGHTHOUSE_RUNS })
        : null;
    const report = {
      ...summarize(SCENARIOS, samples, { runs: RUNS, network: NETWORK, date: new Date().toISOString() }),
      renders,
      lighthouse,
    };
    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    const markdown = [
      renderMarkdown(report),
      '',
      `The page server's render time (its answer, anonymous, no cache in front), ${RENDER_LOAD.concurrency} at once, ${RENDER_LOAD.requests} per page:`,
      '',
      '| page | p50 (ms) | p95 (ms) | errors |',
      '|---|---|---|---|',
      ...renders.map((r) => `| ${r.path} | ${Math.round(r.p50)} | ${Math.round(r.p95)} | ${r.errors} |`),
      ...(lighthouse
        ? [
            '',
            `Lighthouse 13 as its CLI runs it (a new headless Chromium per audit, the default categories), mobile (simulated slow 4G, 4x CPU), median of ${LIGHTHOUSE_RUNS} run(s); targets on the server-rendered page:`,
            '',
            renderLighthouse(lighthouse, LIGHTHOUSE_PAGES, 'federated'),
          ]
        : []),
    ].join('\n');
    writeFileSync(join(OUT, 'latest.md'), markdown);
    writeFileSync(join(OUT, 'latest.svg'), renderChart(report));
    console.log(`\n${markdown}\nWritten: e2e/bench/results/latest.{json,md,svg}`);
  } finally {
    await browser.close();
    await Promise.all(servers.map(stopServer));
    api.kill('SIGTERM');
  }
}

await main();
