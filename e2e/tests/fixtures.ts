import { expect, test as base, type BrowserContext, type Page } from '@playwright/test';
import { AFTER_PAINT_SCRIPT_TYPE, PAGE_STARTED_EVENT } from '@marketplace/shared/node/handover';
import { waitForDemoMedia } from '../bench/servers.mjs';
import { API } from '../env.js';

/**
 * A page its server rendered paints before its script starts (shell/src/boot), and
 * its links work as plain links until then: a test that goes on to do things in the page (type in
 * the search, follow a link in the open page) does them once the app has taken the page over, as
 * a person does once the page answers. Waits only on such a page, and at most 15 s: a test whose
 * app never starts (its faults) goes on and asserts what it expects.
 */
async function appStarted(page: Page): Promise<void> {
  await page
    .waitForFunction(
      (type) =>
        document.querySelector(`script[type="${type}"]`) === null ||
        (window as unknown as { appStarted?: boolean }).appStarted === true,
      AFTER_PAINT_SCRIPT_TYPE,
      { timeout: 15_000 },
    )
    .catch(() => undefined);
}

const waiting = new WeakSet<Page>();

/** Each navigation of `page` that waits for the page's load (the default) also waits for its app (appStarted). */
function navigationsWaitForApp(page: Page): void {
  if (waiting.has(page)) return;
  waiting.add(page);
  const after =
    <A extends unknown[], R>(navigate: (...args: A) => Promise<R>, waitsFor: (args: A) => string | undefined) =>
    async (...args: A): Promise<R> => {
      const result = await navigate(...args);
      const until = waitsFor(args);
      if (until === undefined || until === 'load' || until === 'networkidle') await appStarted(page);
      return result;
    };
  page.goto = after(page.goto.bind(page), ([, options]) => options?.waitUntil);
  page.reload = after(page.reload.bind(page), ([options]) => options?.waitUntil);
  page.goBack = after(page.goBack.bind(page), ([options]) => options?.waitUntil);
}

/** Every page of `context`, the ones opened later too (navigationsWaitForApp). */
async function contextWaitsForApp(context: BrowserContext): Promise<void> {
  // The app says so with an event on the document (shell/src/remotes/pageStart.ts).
  await context.addInitScript(
    (event) =>
      document.addEventListener(event, () => {
        (window as unknown as { appStarted: boolean }).appStarted = true;
      }),
    PAGE_STARTED_EVENT,
  );
  for (const page of context.pages()) navigationsWaitForApp(page);
  context.on('page', navigationsWaitForApp);
}

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
  // Every context a test gets, and every one it makes itself (browser.newContext).
  context: async ({ context }, use) => {
    await contextWaitsForApp(context);
    await use(context);
  },
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => {
        const context = await newContext(...args);
        await contextWaitsForApp(context);
        return context;
      };
      await use(browser);
    },
    { scope: 'worker' },
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
          errors.push(`${m.page()?.url() ?? 'a page'}: ${m.text()}`);
      });
      await use(errors);
      expect(errors, 'hydration errors').toEqual([]);
    },
    { auto: true },
  ],
});
