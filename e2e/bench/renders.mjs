// `pnpm --filter e2e bench:renders` (issue 38): the page server under a slow API and under more
// load than it renders. Starts the API, the remotes' and the shell's production builds on
// loopback, the shell's API calls through a proxy that holds each call a set time; measures the
// page server's answer times with the API at 0, 300 and 3,000 ms, how many API calls the server
// made per page, and the renders per second at the concurrency bound (PAGE_RENDER_CONCURRENCY,
// PAGE_RENDER_QUEUE: the serve.ts defaults) with the pages past it sent unrendered.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { manifestEnv, PLATFORM } from '@marketplace/shared/node/platform';
import { serveApp, stopServer } from 'page-server/serve';
import { median } from './report.mjs';
import { delayingApi, startApi, waitFor } from './servers.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const OFFSET = 30_000;
const REMOTES = Object.entries(PLATFORM.remotes);
const PORTS = {
  shell: PLATFORM.shell.devPort + OFFSET,
  api: 34_000,
  ...Object.fromEntries(REMOTES.map(([name, r]) => [name, r.devPort + OFFSET])),
};
const API = `http://localhost:${PORTS.api}`;
const SHELL = `http://localhost:${PORTS.shell}`;
const PAGES = ['/', '/event/summer-jazz-night-2026'];
const DELAYS = [0, 300, 3000];
const REQUESTS = Number(process.env.BENCH_RENDERS ?? 60);
/** Clients at once while timing answers: the machine's two cores, each kept busy. */
const CONCURRENCY = 2;
/** The overload: more clients than renders and queue together (4 + 32), for this long. */
const OVERLOAD = { clients: 64, ms: 10_000 };

/** One page load's answer: time, status, whether it was rendered (not sent for the browser to render) and whether its data was in it. */
async function load(path) {
  const start = performance.now();
  const response = await fetch(`${SHELL}${path}`).catch(() => null);
  const body = (await response?.text()) ?? '';
  return {
    ms: performance.now() - start,
    status: response?.status ?? 0,
    rendered: response?.headers.get('x-accel-expires') !== '0',
    withData: /"queries":\[\{/.test(body),
  };
}

const p95 = (sorted) => sorted[Math.floor(sorted.length * 0.95)] ?? NaN;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-renders-'));
  const api = startApi({ port: PORTS.api, dataDir, allowedOrigins: [SHELL] });
  const proxy = await delayingApi(API, 0);
  const env = {
    ...process.env,
    API_ORIGIN: proxy.origin,
    FILES_ORIGIN: API,
    ...manifestEnv(PORTS),
  };
  const servers = await Promise.all([
    serveApp({ dir: join(ROOT, PLATFORM.shell.package, 'dist'), port: PORTS.shell, env, log: false }),
    ...REMOTES.map(([name, r]) => serveApp({ dir: join(ROOT, r.package, 'dist'), port: PORTS[name], env, log: false })),
  ]);
  // The renders' own lines (data left to the browser, renders at their limit) are what is measured here.
  console.warn = () => {};
  try {
    await waitFor(`${API}/health`);
    const rows = [];
    for (const delay of DELAYS) {
      proxy.state.ms = delay;
      for (const path of PAGES) {
        for (let i = 0; i < 4; i++) await load(path);
        const before = proxy.calls.length;
        const results = [];
        let sent = 0;
        const worker = async () => {
          while (sent < REQUESTS) {
            sent++;
            results.push(await load(path));
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        const times = results.map((r) => r.ms).sort((a, b) => a - b);
        rows.push({
          delay,
          path,
          p50: median(times),
          p95: p95(times),
          withData: results.filter((r) => r.withData).length / results.length,
          callsPerPage: (proxy.calls.length - before) / results.length,
          errors: results.filter((r) => r.status >= 500 || r.status === 0).length,
        });
      }
    }

    proxy.state.ms = 0;
    const until = Date.now() + OVERLOAD.ms;
    const overload = { rendered: 0, unrendered: 0, errors: 0 };
    const client = async () => {
      while (Date.now() < until) {
        const r = await load(PAGES[1]);
        if (r.status >= 500 || r.status === 0) overload.errors++;
        else if (r.rendered) overload.rendered++;
        else overload.unrendered++;
      }
    };
    await Promise.all(Array.from({ length: OVERLOAD.clients }, client));

    const lines = [
      `The page server's answer (no cache in front), ${CONCURRENCY} clients at once, ${REQUESTS} loads per page and delay, data deadline 500 ms (the default):`,
      '',
      '| API delay (ms) | page | p50 (ms) | p95 (ms) | with its data | server API calls per page | 5xx |',
      '|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.delay} | ${r.path} | ${Math.round(r.p50)} | ${Math.round(r.p95)} | ${Math.round(r.withData * 100)}% | ${r.callsPerPage.toFixed(2)} | ${r.errors} |`,
      ),
      '',
      `${OVERLOAD.clients} clients for ${OVERLOAD.ms / 1000} s on ${PAGES[1]} (renders bounded at 4 at once, 32 waiting): ` +
        `${(overload.rendered / (OVERLOAD.ms / 1000)).toFixed(1)} rendered pages/s, ` +
        `${(overload.unrendered / (OVERLOAD.ms / 1000)).toFixed(1)} sent unrendered/s, ${overload.errors} errors.`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await Promise.all([...servers.map(stopServer), stopServer(proxy.server)]);
    api.kill('SIGTERM');
  }
}

await main();
