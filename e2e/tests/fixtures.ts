import { expect, test as base } from '@playwright/test';
import { waitForDemoMedia } from '../bench/servers.mjs';
import { API } from '../env.js';

/**
 * The suite's `test`: every test fails on a hydration error, and on a Content-Security-Policy violation in its page (the
 * apps are served with the production policy, page-server/csp.mjs). Chromium reports each
 * violation on the console as "Refused to … because it violates the following Content Security
 * Policy directive".
 */
export const test = base.extend<{ cspViolations: string[]; hydrationErrors: string[] }, { demoMedia: void }>({
  // The API makes the demo's pictures and videos after it starts (the media pipeline), using both
  // cores for a minute or so: each worker starts its tests once they are made, so no test runs beside that
  // (a page then misses its data deadline) and every test sees the pages as a visitor later does.
  demoMedia: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads which fixtures a fixture needs from this pattern: none
    async ({}, use) => {
      await waitForDemoMedia(API);
      await use();
    },
    { scope: 'worker', auto: true, timeout: 270_000 },
  ],
  cspViolations: [
    async ({ context }, use) => {
      const violations: string[] = [];
      context.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      await use(violations);
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
  // Every test fails on a hydration error: a page its server rendered whose HTML the browser's
  // render does not match (production React reports it as a recoverable error, which the shell
  // logs as "[hydrate]", shared/src/app/mount.tsx), logged in or not, on every page it opens.
  hydrationErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      context.on('console', (m) => {
        if (m.type() === 'error' && /\[hydrate\]|hydrat|React error #(418|423|425)\b/i.test(m.text()))
          errors.push(m.text());
      });
      await use(errors);
      expect(errors, 'hydration errors').toEqual([]);
    },
    { auto: true },
  ],
});
