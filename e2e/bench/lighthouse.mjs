// The bench's Lighthouse runs: Lighthouse 13 as its CLI runs it
// (`lighthouse URL`): its own launcher starts Debian's Chromium headless in a new profile for
// each audit, with the CLI's default categories, and the mobile defaults (simulated slow 4G, 4x
// CPU slowdown, a phone's screen). The median of the runs per page and build; each run's
// benchmarkIndex (Lighthouse's measure of the machine) is kept, since the simulated CPU slowdown
// scales what this machine does.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { median } from './report.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What is read from each run: the metrics' values (ms, CLS unitless) and the performance score (0-100). */
export const LIGHTHOUSE_METRICS = [
  { key: 'fcp', audit: 'first-contentful-paint', label: 'FCP (ms)', target: 1200 },
  { key: 'lcp', audit: 'largest-contentful-paint', label: 'LCP (ms)', target: 1800 },
  { key: 'tbt', audit: 'total-blocking-time', label: 'TBT (ms)', target: 200 },
  { key: 'cls', audit: 'cumulative-layout-shift', label: 'CLS', target: 0.05 },
];

/**
 * @param {{ variants: Record<string, string>, pages: { id: string, path: string }[], runs: number }} options
 *   `variants`: each build's origin by name
 * @returns {Promise<Record<string, Record<string, Record<string, number>>>>} page id -> variant -> metric -> median
 */
export async function lighthouseMobile({ variants, pages, runs }) {
  /** @type {Record<string, Record<string, Record<string, number[]>>>} */
  const samples = {};
  for (let run = 0; run < runs; run++)
    for (const page of pages)
      for (const [variant, origin] of Object.entries(variants)) {
        // As the CLI: a new browser and profile per audit (no cache, no compiled code kept).
        const chrome = await chromeLauncher.launch({
          chromePath: CHROMIUM,
          chromeFlags: ['--headless', '--no-sandbox'],
        });
        try {
          const result = await lighthouse(`${origin}${page.path}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
          });
          if (!result) throw new Error(`Lighthouse returned nothing for ${variant} ${page.path}`);
          const values = ((samples[page.id] ??= {})[variant] ??= {});
          for (const metric of LIGHTHOUSE_METRICS)
            (values[metric.key] ??= []).push(result.lhr.audits[metric.audit]?.numericValue ?? NaN);
          (values.score ??= []).push(Math.round((result.lhr.categories.performance?.score ?? 0) * 100));
          (values.benchmarkIndex ??= []).push(result.lhr.environment.benchmarkIndex);
        } finally {
          chrome.kill();
        }
      }
  return Object.fromEntries(
    Object.entries(samples).map(([page, byVariant]) => [
      page,
      Object.fromEntries(
        Object.entries(byVariant).map(([variant, values]) => [
          variant,
          Object.fromEntries(Object.entries(values).map(([key, list]) => [key, median(list)])),
        ]),
      ),
    ]),
  );
}

/**
 * The Lighthouse table: each page and build, with the server-rendered page against the targets
 * (FCP ≤ 1.2 s, LCP ≤ 1.8 s, TBT ≤ 200 ms, CLS ≤ 0.05, performance ≥ 95).
 * @param {Record<string, Record<string, Record<string, number>>>} results
 * @param {{ id: string, title: string }[]} pages
 * @param {string} judged the variant the targets apply to
 */
export function renderLighthouse(results, pages, judged) {
  const fmt = (key, v) => (key === 'cls' ? v.toFixed(3) : String(Math.round(v)));
  const lines = [
    `| page | build | ${LIGHTHOUSE_METRICS.map((m) => m.label).join(' | ')} | performance | benchmarkIndex |`,
    `|---|---|${LIGHTHOUSE_METRICS.map(() => '---').join('|')}|---|---|`,
  ];
  for (const page of pages)
    for (const [variant, values] of Object.entries(results[page.id] ?? {})) {
      const cells = LIGHTHOUSE_METRICS.map((m) => {
        const value = values[m.key] ?? NaN;
        if (variant !== judged) return fmt(m.key, value);
        return value <= m.target ? `${fmt(m.key, value)} met` : `${fmt(m.key, value)} (target ${m.target})`;
      });
      const score = values.score ?? 0;
      const scoreCell = variant !== judged ? String(score) : score >= 95 ? `${score} met` : `${score} (target 95)`;
      lines.push(
        `| ${page.title} | ${variant} | ${cells.join(' | ')} | ${scoreCell} | ${Math.round(values.benchmarkIndex ?? NaN)} |`,
      );
    }
  return lines.join('\n');
}
