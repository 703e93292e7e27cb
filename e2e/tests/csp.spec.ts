import { createHash } from 'node:crypto';
import { test as base, expect } from '@playwright/test';
import { API, LIVE_URL, PORTS, UPLOAD_ORIGIN } from '../env.js';
import { test } from './fixtures.js';

test('csp: the shell page lists exactly the origins in use and its one inline script by hash, without unsafe-eval or unsafe-inline', async ({
  page,
}) => {
  const response = await page.goto('/events');
  const csp = (await response?.headerValue('content-security-policy')) ?? '';
  const directive = (name: string) =>
    csp
      .split('; ')
      .find((d) => d.startsWith(`${name} `))
      ?.split(' ')
      .slice(1) ?? [];
  const remotes = [PORTS.header, PORTS.media, PORTS.eventOrder, PORTS.account].map((p) => `http://localhost:${p}`);
  // The page's inline scripts that run: exactly one (its boot hints), allowed by its own hash.
  const inline = [...((await response?.text()) ?? '').matchAll(/<script>(.*?)<\/script>/gs)].map((m) => m[1] ?? '');
  expect(inline).toHaveLength(1);
  const hash = `'sha256-${createHash('sha256')
    .update(inline[0] ?? '')
    .digest('base64')}'`;
  expect(directive('script-src').sort()).toEqual(["'self'", hash, ...remotes].sort());
  expect(directive('script-src')).not.toContain("'unsafe-inline'");
  // The live broker's origin: the API's embedded one, or in the production project the gateway's,
  // whose /mqtt reaches RabbitMQ (the same origin, over ws:).
  const live = new URL(LIVE_URL ?? API.replace('http', 'ws')).origin;
  // And, in the production project, the object store the API hands out upload URLs for.
  const uploads = UPLOAD_ORIGIN ? [UPLOAD_ORIGIN] : [];
  expect(directive('connect-src').sort()).toEqual(["'self'", API, live, ...uploads, ...remotes].sort());
  expect(directive('worker-src')).toContain('blob:');
  expect(directive('object-src')).toEqual(["'none'"]);
  expect(csp).not.toContain('unsafe-eval');
  // The page works under it: the route's remote and the header rendered.
  await expect(page.getByRole('link', { name: /Summer Jazz Night/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'EventMedia' })).toBeVisible();
});

// Without the suite's guard: this test makes a violation on purpose, to show it is caught.
base('csp: a script from an origin not in the policy is refused and reported', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && refused.push(m.text()));
  await page.goto('/events');
  await expect(page.getByRole('link', { name: 'EventMedia' })).toBeVisible();
  const blocked = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true });
        const script = document.createElement('script');
        script.src = 'http://localhost:9/evil.js';
        document.head.append(script);
      }),
  );
  expect(blocked).toBe('script-src-elem');
  await expect.poll(() => refused.length).toBeGreaterThan(0);
});
