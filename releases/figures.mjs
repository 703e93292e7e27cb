// Real-user figures per remote and version (issue "Releases that watch themselves", item 3), read
// from the API's operator endpoint (GET /internal/rum/figures, behind the admin token) for
// `pnpm releases`, its HTML report and the canary watcher.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The figures' shape is declared once, in the shared package, for the API that answers them and
 * the release plane that reads them.
 * @typedef {import('@marketplace/shared/platform').VersionFigures} VersionFigures
 * @typedef {import('@marketplace/shared/platform').TopError} TopError
 * @typedef {import('@marketplace/shared/platform').SeriesPoint} SeriesPoint
 * @typedef {import('@marketplace/shared/platform').FiguresAnswer} FiguresAnswer
 * What the canary's judge reads of a version's figures, and what the history keeps of each
 * evaluation. `loads` and `errorLoads` are the judge's units and their failures: the watcher
 * gives it browsers, each by its first page load of the version (judgedSample), so they are
 * independent draws however often a browser loads or fails; the simulation gives it loads it
 * draws independently.
 * @typedef {Pick<VersionFigures, 'loads' | 'errorLoads'> & { p75: Pick<VersionFigures['p75'], 'lcp' | 'inp'> & Partial<VersionFigures['p75']> }} Sample
 */

/**
 * A version's figures as the canary's judge takes them: one unit per browser (VersionFigures'
 * `browsers` and `errorBrowsers`), not per page load. A browser that fails often, or loads a
 * cached failed page again and again, is one failed browser, as it would be one failed draw in
 * the test's model; page loads would count it as many. An API that does not count browsers yet
 * (an older instance during its deploy) is read by its loads.
 * @param {VersionFigures} f @returns {Sample}
 */
export const judgedSample = (f) => ({
  loads: f.browsers ?? f.loads,
  errorLoads: f.errorBrowsers ?? f.errorLoads,
  p75: f.p75,
});

/**
 * Where the API's operator routes are and its token: API_INTERNAL_URL, an instance's internal
 * listener (API_INTERNAL_PORT: the public gateway does not pass /internal), or several instances'
 * comma-separated (tried in turn, so that one instance down does not blind the canary watcher),
 * else PLATFORM_API_URL (default: the API `npm start` runs, http://127.0.0.1:4000, which serves
 * them itself); and ADMIN_TOKEN (default: the token the API keeps beside its default database,
 * api/data/admin-token).
 *
 * @param {NodeJS.ProcessEnv} env @param {string} root the workspace
 * @returns {{ url: string, urls: string[], token: string }}
 */
export function apiAccess(env, root) {
  const tokenFile = join(root, 'api', 'data', 'admin-token');
  const urls = (env.API_INTERNAL_URL ?? env.PLATFORM_API_URL ?? 'http://127.0.0.1:4000')
    .split(',')
    .map((url) => url.trim().replace(/\/$/, ''))
    .filter(Boolean);
  return {
    url: urls[0] ?? '',
    urls,
    token: env.ADMIN_TOKEN ?? (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : ''),
  };
}

/**
 * The figures from the first instance that answers (`urls` in turn; a refusal, 4xx, is final).
 * @param {{ url: string, urls?: string[], token: string }} api @param {string} since ISO time @param {number} [bucketMinutes]
 * @returns {Promise<FiguresAnswer>}
 */
export async function fetchFigures(api, since, bucketMinutes = 10) {
  const query = new URLSearchParams({ since, bucketMinutes: String(bucketMinutes) });
  /** @type {unknown} */
  let failure;
  for (const url of api.urls?.length ? api.urls : [api.url]) {
    try {
      const response = await fetch(`${url}/internal/rum/figures?${query}`, {
        headers: { authorization: `Bearer ${api.token}` },
        signal: AbortSignal.timeout(10_000),
      });
      if (response.ok) return /** @type {Promise<FiguresAnswer>} */ (response.json());
      failure = new Error(`the API at ${url} answered ${response.status}`);
      if (response.status < 500) break;
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/** A version's figures, or an empty sample when no page load used it. @param {VersionFigures[]} figures @param {string} remote @param {string} version @returns {VersionFigures} */
export function figuresOf(figures, remote, version) {
  return (
    figures.find((f) => f.remote === remote && f.version === version) ?? {
      remote,
      version,
      loads: 0,
      errorLoads: 0,
      errorRate: 0,
      browsers: 0,
      errorBrowsers: 0,
      p75: { lcp: null, inp: null, cls: null, ttfb: null },
      lcpOwnedShare: 0,
      topError: null,
    }
  );
}

/** `24h`, `30m`, `7d` or an ISO time, as an ISO time. @param {string} value @param {number} [now] */
export function sinceTime(value, now = Date.now()) {
  const relative = /^(\d+)([mhd])$/.exec(value);
  if (relative) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[/** @type {'m' | 'h' | 'd'} */ (relative[2])];
    return new Date(now - Number(relative[1]) * unit).toISOString();
  }
  if (Number.isNaN(Date.parse(value))) throw new Error(`--since takes 24h, 30m, 7d or an ISO time, not '${value}'`);
  return new Date(value).toISOString();
}

const ms = (/** @type {number | null | undefined} */ v) => (v == null ? '-' : `${Math.round(v)} ms`);
const cls = (/** @type {number | null | undefined} */ v) => (v == null ? '-' : v.toFixed(3));
const share = (/** @type {VersionFigures} */ f) => (f.loads ? `${Math.round(f.lcpOwnedShare * 100)} %` : '-');
const rate = (/** @type {VersionFigures} */ f) => (f.loads ? `${(f.errorRate * 100).toFixed(1)} %` : '-');
const signed = (/** @type {number} */ v, /** @type {string} */ unit, digits = 0) =>
  `${v >= 0 ? '+' : ''}${v.toFixed(digits)}${unit}`;

/** @param {string} label @param {VersionFigures} f */
const row = (label, f) =>
  `  ${label.padEnd(30)} ${String(f.loads).padStart(6)} ${rate(f).padStart(8)} ${ms(f.p75.lcp).padStart(9)} ${ms(f.p75.inp).padStart(8)} ${cls(f.p75.cls).padStart(7)} ${ms(f.p75.ttfb).padStart(9)} ${share(f).padStart(8)}`;

/**
 * The figures table of `pnpm releases`: per remote, its live version, its canary with the
 * difference to live, then any other version pages still used in the window. "LCP here": the
 * share of the version's loads whose largest paint was its own element (a remote whose LCP
 * worsens while its share is low is slowed by another part of the page).
 *
 * @param {{ remotes: Record<string, { live?: { version: string }, canary?: { version: string, percent: number } }> }} doc
 * @param {VersionFigures[]} figures
 * @param {string[]} remotes the platform table's remotes, in order
 */
export function figureLines(doc, figures, remotes) {
  const lines = [
    `  ${''.padEnd(30)} ${'loads'.padStart(6)} ${'errors'.padStart(8)} ${'p75 LCP'.padStart(9)} ${'p75 INP'.padStart(8)} ${'p75 CLS'.padStart(7)} ${'p75 TTFB'.padStart(9)} ${'LCP here'.padStart(8)}`,
  ];
  for (const remote of remotes) {
    const entry = doc.remotes[remote];
    const shown = new Set();
    if (entry?.live) {
      shown.add(entry.live.version);
      lines.push(row(`${remote} ${entry.live.version} live`, figuresOf(figures, remote, entry.live.version)));
    }
    if (entry?.canary) {
      shown.add(entry.canary.version);
      const canary = figuresOf(figures, remote, entry.canary.version);
      lines.push(row(`${remote} ${entry.canary.version} canary ${entry.canary.percent} %`, canary));
      if (entry.live) {
        const live = figuresOf(figures, remote, entry.live.version);
        const diff = (
          /** @type {number | null | undefined} */ a,
          /** @type {number | null | undefined} */ b,
          /** @type {string} */ unit,
          digits = 0,
        ) => (a == null || b == null ? '-' : signed(a - b, unit, digits));
        lines.push(
          `  ${'  canary - live'.padEnd(30)} ${''.padStart(6)} ${(canary.loads && live.loads ? signed((canary.errorRate - live.errorRate) * 100, ' pt', 1) : '-').padStart(8)} ${diff(canary.p75.lcp, live.p75.lcp, ' ms').padStart(9)} ${diff(canary.p75.inp, live.p75.inp, ' ms').padStart(8)} ${diff(canary.p75.cls, live.p75.cls, '', 3).padStart(7)} ${diff(canary.p75.ttfb, live.p75.ttfb, ' ms').padStart(9)}`,
        );
      }
    }
    for (const other of figures.filter((f) => f.remote === remote && !shown.has(f.version)))
      lines.push(row(`${remote} ${other.version}`, other));
  }
  return lines;
}
