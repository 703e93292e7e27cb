import { expect, type Page } from '@playwright/test';
import { PAGE_LIST } from '@marketplace/shared/platform';
import { logIn } from './helpers.js';
import { test } from './fixtures.js';

// Every page of the platform table, at a small phone's width, a tablet's and a laptop's: nothing
// scrolls sideways, nothing fixed covers the page's content, and the header is one row. The
// screenshots are kept with the test's results (its attachments).
const WIDTHS = [360, 768, 1280] as const;
/** A phone header's one row: the logo, the search and the buttons at 44 px, with its padding. */
const ONE_ROW_HEADER_PX = 72;

/** A value for each path parameter of the table's pages: a demo thing with data, seen by its owner. */
const SAMPLES: Record<string, string> = {
  eventIdentifier: 'summer-jazz-night-2026',
  orderId: 'ord-1006',
  profileName: 'mia',
  purchaseNumber: 'no-such-purchase',
};

function pathOf(path: string): string {
  return path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = SAMPLES[name];
    if (!value) throw new Error(`No sample for :${name} (${path}): add one to SAMPLES`);
    return value;
  });
}

/** What overflows the viewport sideways, and the fixed elements that overlap the main content. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width)
      problems.push(`scrolls sideways: ${document.documentElement.scrollWidth} px wide in ${width} px`);
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    // A part of the page that scrolls sideways on its own hides what is past its edge (a box that
    // clips on purpose, overflow hidden for rounded corners or an ellipsis, is not one).
    for (const el of document.querySelectorAll('main *')) {
      // (Text for screen readers only is a 1 px box on purpose.)
      if (
        el.clientWidth > 1 &&
        el.scrollWidth > el.clientWidth + 1 &&
        /auto|scroll/.test(getComputedStyle(el).overflowX) &&
        visible(el)
      )
        problems.push(`${el.tagName.toLowerCase()} "${el.getAttribute('aria-label') ?? ''}" cuts its content sideways`);
    }
    const fixed = [...document.querySelectorAll('body *')].filter(
      (el) => getComputedStyle(el).position === 'fixed' && visible(el) && !el.closest('[role="dialog"]'),
    );
    const content = [...document.querySelectorAll('main :is(h1, h2, h3, p, a, button, img, input, label, li)')].filter(
      visible,
    );
    for (const cover of fixed) {
      const a = cover.getBoundingClientRect();
      for (const el of content) {
        if (cover.contains(el)) continue;
        const b = el.getBoundingClientRect();
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
          problems.push(`${cover.tagName.toLowerCase()} "${cover.textContent?.slice(0, 20)}" covers ${el.tagName}`);
          break;
        }
      }
    }
    return problems;
  });
}

async function checkEveryPage(page: Page, who: string) {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const entry of PAGE_LIST) {
      const path = pathOf(entry.path);
      await page.goto(path);
      await expect(page.locator('main')).toBeVisible();
      await page.waitForLoadState('networkidle');
      const screenshot = await page.screenshot({ fullPage: true });
      await test.info().attach(`${who}-${width}-${entry.key}.png`, { body: screenshot, contentType: 'image/png' });
      for (const problem of await layoutProblems(page)) problems.push(`${who} ${width} px ${path}: ${problem}`);
      // Scrolled to its end too: what is fixed must not cover the last of the content.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      for (const problem of await layoutProblems(page))
        problems.push(`${who} ${width} px ${path} (scrolled): ${problem}`);
      const header = await page.locator('header').first().boundingBox();
      if (width === WIDTHS[0] && header && header.height > ONE_ROW_HEADER_PX)
        problems.push(`${who} ${width} px ${path}: the header is ${Math.round(header.height)} px tall`);
    }
  }
  expect(problems).toEqual([]);
}

test('layout: every page fits a phone, a tablet and a laptop for a visitor: nothing scrolls sideways or lies under something fixed', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await checkEveryPage(page, 'visitor');
});

test('layout: every page fits a phone, a tablet and a laptop for a member with data (clara, the client of ord-1006)', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await logIn(page, 'clara');
  await checkEveryPage(page, 'clara');
});
