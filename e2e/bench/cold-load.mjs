// One cold load of a page, as `pnpm bench` measures it: a new browser context (empty cache) on a
// modest broadband line, the network recorded through CDP, and the page's own timings (header and
// main content in the DOM, FCP, LCP, long tasks, layout shifts) read once its main content is there.
import { criticalPathDepth, cumulativeLayoutShift } from './report.mjs';

/** A modest broadband line, so that bytes and request waterfalls cost what they cost people. */
export const NETWORK = {
  offline: false,
  latency: 40,
  downloadThroughput: (20 * 1024 * 1024) / 8,
  uploadThroughput: (5 * 1024 * 1024) / 8,
};

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

/**
 * One cold load: new context, network recorded through CDP, metrics read once the main content is there.
 * `api`: the API's origin (to log in); `origin`: the build's.
 */
export async function measureColdLoad(browser, { api, origin, variant, scenario, path }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    if (scenario.login) {
      const res = await context.request.post(`${api}/v2/login`, {
        form: { login: scenario.login, password: 'demo-pass-2026' },
      });
      if (!res.ok()) throw new Error(`login ${res.status()}`);
      await context.addCookies([{ name: 'loggedIn', value: 'yes', url: origin }]);
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
    await page.goto(`${origin}${path}`, { waitUntil: 'domcontentloaded' });
    if (scenario.video) {
      // A click before the app has the page is held and done once it has (the rendered page,
      // shell/src/boot) or finds nothing to press yet (the others): clicked until the viewer opens.
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
