import { expect, test as base } from '@playwright/test';

/**
 * The suite's `test`: every test fails on a Content-Security-Policy violation in its page (the
 * apps are served with the production policy, page-server/csp.mjs). Chromium reports each
 * violation on the console as "Refused to … because it violates the following Content Security
 * Policy directive".
 */
export const test = base.extend<{ cspViolations: string[] }>({
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
});
