import { expect } from '@playwright/test';
import lighthouse, { type Config, type Flags, type Result } from 'lighthouse';
import { PAGES } from '@marketplace/shared/platform';
import { SHELL } from '../env.js';
import { launchForLighthouse } from '../lighthouse-browser.mjs';
import { test } from './fixtures.js';
import { logIn } from './helpers.js';

// Lighthouse's accessibility, SEO and best-practices audits on every page type of the platform
// table, anonymous and (where the page needs it) logged in; each category must score 100.
// Performance is the bench's job. One browser for the whole file, with a debugging port that
// Lighthouse drives; its profile keeps the login between audits. An audit takes about 15 s here,
// most of it Lighthouse waiting on headless Chromium's first-paint signal (a static SVG takes as
// long), so the list holds one page per page type.

const CATEGORIES = ['accessibility', 'seo', 'best-practices'] as const;

// One page per module of the table (/events is the home page's module), and both kinds of "not found".
const ANONYMOUS = [
  PAGES.home.href(),
  PAGES.event.href({ eventIdentifier: 'summer-jazz-night-2026' }),
  PAGES.community.href(),
  PAGES.creator.href({ profileName: 'mia' }),
  PAGES.cart.href(),
  PAGES.faq.href(),
  PAGES.terms.href(),
  PAGES.login.href(),
  PAGES.signup.href(),
  PAGES.event.href({ eventIdentifier: 'no-such-event' }),
  '/no/such/page',
];
/** max has every role: each account page has something to show. */
const LOGGED_IN = [
  PAGES.profile.href(),
  PAGES.orders.href(),
  PAGES.myEvents.href(),
  PAGES.mediaPackages.href(),
  PAGES.discountCodes.href(),
  PAGES.settings.href(),
  PAGES.eventOrder.href({ orderId: 'ord-2001' }),
];

const DEBUG_PORT = 9333;
let browser: Awaited<ReturnType<typeof launchForLighthouse>>;

test.beforeAll(async () => {
  browser = await launchForLighthouse(DEBUG_PORT);
});

test.afterAll(async () => {
  await browser.close();
});

/** Each failing audit of the three categories, with what it found. */
function failures(result: Result): string[] {
  return CATEGORIES.flatMap((id) => {
    const category = result.categories[id];
    if (!category || category.score === 1) return [];
    return category.auditRefs
      .map((ref) => result.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative')
      .map((audit) => {
        const items = (audit?.details as { items?: unknown[] } | undefined)?.items ?? [];
        return `${id} ${Math.round((category.score ?? 0) * 100)}: ${audit?.id} (${audit?.title}) ${JSON.stringify(items).slice(0, 400)}`;
      });
  });
}

const FLAGS: Flags = {
  port: DEBUG_PORT,
  output: 'json',
  logLevel: 'error',
  onlyCategories: [...CATEGORIES],
  // The login in the profile stays; the page is loaded as a desktop, unthrottled (only what it says is audited).
  disableStorageReset: true,
  formFactor: 'desktop',
  screenEmulation: { disabled: true },
  throttlingMethod: 'provided',
};
/** Shorter quiet windows than the defaults' seconds: the pages settle on loopback within a few hundred ms. */
const CONFIG: Config = {
  extends: 'lighthouse:default',
  settings: { pauseAfterLoadMs: 300, networkQuietThresholdMs: 300, cpuQuietThresholdMs: 300 },
};

async function audit(path: string): Promise<string[]> {
  const run = await lighthouse(`${SHELL}${path}`, FLAGS, CONFIG);
  if (!run) throw new Error(`Lighthouse returned nothing for ${path}`);
  return failures(run.lhr);
}

for (const path of ANONYMOUS) {
  test(`lighthouse, anonymous: ${path} scores 100 in accessibility, SEO and best practices`, async () => {
    test.setTimeout(60_000);
    expect(await audit(path)).toEqual([]);
  });
}

test.describe('logged in as max', () => {
  test.beforeAll(async () => {
    const page = await browser.context.newPage();
    await logIn(page, 'max', undefined, SHELL);
    await page.close();
  });

  for (const path of LOGGED_IN) {
    test(`lighthouse, logged in: ${path} scores 100 in accessibility, SEO and best practices`, async () => {
      test.setTimeout(60_000);
      expect(await audit(path)).toEqual([]);
    });
  }
});
