import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from '@playwright/test';
import { PORTS, ROOT } from '../env.js';
import { test } from './fixtures.js';

interface Budget {
  measured: number;
  allowed: number;
}
const BUDGETS = JSON.parse(readFileSync(join(ROOT, 'e2e', 'budgets.json'), 'utf8')) as {
  homeJs: Budget;
  initialChunks: Record<string, Budget>;
};

/** A budget failure names what, how big it is and what is allowed. */
const within = (what: string, bytes: number, budget: Budget) =>
  expect(
    bytes,
    `${what}: ${bytes} bytes (gzip), allowed ${budget.allowed} (measured ${budget.measured} when the budget was set)`,
  ).toBeLessThanOrEqual(budget.allowed);

test("budgets: each app's initial chunk, gzipped as served, stays within its budget", () => {
  for (const [file, budget] of Object.entries(BUDGETS.initialChunks)) {
    within(file, gzipSync(readFileSync(join(ROOT, file))).length, budget);
  }
});

test('budgets: the anonymous home page loads one react-dom, no mqtt, hls.js, image compression, luxon or event-order code, and its JS stays within budget', async ({
  page,
}) => {
  const scripts: { url: string; bytes: number }[] = [];
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  page.on('requestfinished', async (r) => {
    if (r.resourceType() === 'script') scripts.push({ url: r.url(), bytes: (await r.sizes()).responseBodySize });
  });
  await page.goto('/');
  await expect(page.getByRole('link', { name: /Summer Jazz Night/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'EventMedia' })).toBeVisible();
  // Late chunks (prefetches near the viewport) count too.
  await page.waitForLoadState('networkidle');

  const names = scripts.map((s) => s.url);
  expect(names.filter((u) => /react-dom_client/.test(u))).toHaveLength(1);
  expect(names.filter((u) => /mqtt/i.test(u))).toEqual([]);
  expect(names.filter((u) => /hls/i.test(u))).toEqual([]);
  expect(names.filter((u) => /browser-image-compression/.test(u))).toEqual([]);
  // Luxon comes with the first time shown (an opened notification list, a chat window).
  expect(names.filter((u) => /luxon/.test(u))).toEqual([]);
  expect(urls.filter((u) => u.startsWith(`http://localhost:${PORTS.eventOrder}/`))).toEqual([]);
  within(
    'home page JS',
    scripts.reduce((sum, s) => sum + s.bytes, 0),
    BUDGETS.homeJs,
  );
});
