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
import { lighthouseMobile, renderLighthouse } from './lighthouse.mjs';
import { BENCH_RUM_TOKEN_KEY, startApi, waitFor, waitForDemoMedia } from './servers.mjs';
import {
  criticalPathDepth,
  cumulativeLayoutShift,
  median,
  renderChart,
  renderMarkdown,
  summarize,
  VARIANTS,
} from './report.mjs';

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
/** A modest broadband line, so that bytes and request waterfalls cost what they cost people. */
const NETWORK = {
  offline: false,
  latency: 40,
  downloadThroughput: (20 * 1024 * 1024) / 8,
  uploadThroughput: (5 * 1024 * 1024) / 8,
};
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

/** Runs in the page before any of its scripts: when header and main content enter the DOM, LCP, long tasks, layout shifts. */
const probe = (main, video) => `(() => {
  const b = (window.__bench = { header: null, main: null, fcp: 0, lcp: 0, longTasks: [], shifts: [] });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') b.fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
  const check = () => {
    const now = performance.now();
    if (b.header === null && document.querySelector('header a[href="/"]')) b.header = now;
    if (b.main === null && ${JSON.stringify(main)} && document.querySelector(${JSON.stringify(main)})) b.main = now;
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) b.lcp = e.startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) b.longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  // A shift right after a click (opening the viewer) is expected by the user and not counted.
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) b.shifts.push([e.startTime, e.value]); }).observe({ type: 'layout-shift', buffered: true });
  if (${Boolean(video)}) document.addEventListener('timeupdate', (e) => {
    const v = e.target;
    if (b.main === null && v.currentTime > 0 && v.closest('[role="dialog"]')) b.main = performance.now();
  }, true);
})();`;

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

/** One cold load: new context, network recorded through CDP, metrics read once the main content is there. */
async function measure(browser, variant, scenario, path) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    if (scenario.login) {
      const res = await context.request.post(`${API}/v2/login`, {
        form: { login: scenario.login, password: 'demo-pass-2026' },
      });
      if (!res.ok()) throw new Error(`login ${res.status()}`);
      await context.addCookies([{ name: 'loggedIn', value: 'yes', url: BASE[variant] }]);
    }
    const page = await context.newPage();
    await page.addInitScript(probe(scenario.main, scenario.video));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    const types = new Map();
    const net = { requests: 0, federation: 0, jsBytes: 0, imageBytes: 0, bytes: 0 };
    /** Each request's start and end (CDP seconds), for the critical path. */
    const timings = new Map();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.request.url.startsWith('data:')) return;
      if (!timings.has(e.requestId))
        timings.set(e.requestId, { url: e.request.url, start: e.timestamp, end: Infinity });
      net.requests++;
      if (/mf-manifest\.json|remoteEntry\.js/.test(e.request.url)) net.federation++;
    });
    const urls = new Map();
    cdp.on('Network.responseReceived', (e) => {
      types.set(e.requestId, e.type);
      urls.set(e.requestId, e.response.url);
    });
    const finished = (e) => {
      const timing = timings.get(e.requestId);
      if (timing) timing.end = e.timestamp;
    };
    cdp.on('Network.loadingFailed', finished);
    cdp.on('Network.loadingFinished', (e) => {
      finished(e);
      net.bytes += e.encodedDataLength;
      if (types.get(e.requestId) === 'Image') net.imageBytes += e.encodedDataLength;
      if (types.get(e.requestId) !== 'Script') return;
      net.jsBytes += e.encodedDataLength;
      if (process.env.BENCH_DEBUG)
        console.log(`${variant} ${scenario.id} ${Math.round(e.encodedDataLength / 1024)} KB ${urls.get(e.requestId)}`);
    });

    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    // The probe times what matters; the load event may wait on late media.
    await page.goto(`${BASE[variant]}${path}`, { waitUntil: 'domcontentloaded' });
    if (scenario.video) {
      // A click before the app has the page is held and done once it has (the rendered page,
      // page-server/boot-script.mjs) or finds nothing to press yet (the others): clicked until the viewer opens.
      const viewer = page.getByRole('dialog');
      for (let attempt = 0; attempt < 20 && !(await viewer.isVisible()); attempt++) {
        await page.getByRole('button', { name: 'Open Opening set clip' }).click({ timeout: 30_000 });
        await viewer.waitFor({ timeout: 1000 }).catch(() => undefined);
      }
    }
    await page
      .waitForFunction(() => window.__bench.main !== null && window.__bench.header !== null, null, { timeout: 30_000 })
      .catch(async (e) => {
        const text = await page.evaluate(() => document.body.innerText.slice(0, 400) + JSON.stringify(window.__bench));
        throw new Error(`${variant} ${scenario.id}: ${e.message} ${errors.join('; ')} PAGE: ${text}`);
      });
    // Let late chunks, images, LCP, long tasks and shifts settle before reading.
    await page.waitForTimeout(1000);
    const b = await page.evaluate(() => window.__bench);
    const tbt = b.longTasks
      .filter(([start]) => start < b.main)
      .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
    const depth = criticalPathDepth([...timings.values()], b.main);
    if (process.env.BENCH_DEBUG) {
      console.log(
        `${variant} ${scenario.id} shifts ${JSON.stringify(b.shifts.map(([t, v]) => [Math.round(t), Number(v.toFixed(4))]))}`,
      );
      console.log(
        `${variant} ${scenario.id} depth ${depth.depth}: ${depth.chain.join(' -> ')}; header ${Math.round(b.header)} main ${Math.round(b.main)}`,
      );
      const t0 = Math.min(...[...timings.values()].map((t) => t.start));
      for (const t of [...timings.values()].sort((x, y) => x.start - y.start))
        console.log(`  ${Math.round((t.start - t0) * 1000)}-${Math.round((t.end - t0) * 1000)} ${t.url.slice(0, 110)}`);
    }
    return {
      ...net,
      header: b.header,
      main: b.main,
      fcp: b.fcp,
      lcp: b.lcp,
      tbt,
      depth: depth.depth,
      cls: cumulativeLayoutShift(b.shifts),
    };
  } finally {
    await context.close();
  }
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
          const sample = await measure(browser, variant, scenario, scenario.path ?? paths[scenario.id]);
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
            `Lighthouse 12 as its CLI runs it (a new headless Chromium per audit, the default categories), mobile (simulated slow 4G, 4x CPU), median of ${LIGHTHOUSE_RUNS} run(s); targets on the server-rendered page:`,
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
