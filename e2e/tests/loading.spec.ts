import { expect, type Page } from '@playwright/test';
import { API } from '../env.js';
import { logIn } from './helpers.js';
import { test } from './fixtures.js';

// Issue 19, item 3: while a page's first data loads it shows the shape of what is coming (a
// skeleton), never a blank or a bare "Loading…", and the data then takes its place. The API is
// the real one; its answers are only held back here, so the loading state is there to see.
// max has every role, so every account page has something to load; no other test asserts his state.

const HOLD_MS = 1200;

/** Holds every API answer back for HOLD_MS from now on. */
async function slowApi(page: Page): Promise<void> {
  await page.route(`${API}/**`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    await route.continue();
  });
}

/** The page's main content shows its skeleton while loading, then its content and no skeleton. */
async function loadsWithSkeleton(page: Page, path: string, loaded: (page: Page) => Promise<void>): Promise<void> {
  await page.goto(path);
  await showsSkeletonUntil(page, path, loaded);
}

async function showsSkeletonUntil(page: Page, path: string, loaded: (page: Page) => Promise<void>): Promise<void> {
  const main = page.locator('main');
  await expect(
    main.getByRole('status').filter({ hasText: 'Loading' }).first(),
    `${path}: a loading status`,
  ).toBeAttached();
  await expect(main.locator('[data-skeleton]').first(), `${path}: a skeleton while loading`).toBeVisible();
  await loaded(page);
  await expect(main.locator('[data-skeleton]'), `${path}: no skeleton once loaded`).toHaveCount(0);
}

/** Each page, loaded afresh, shows its data as it arrives, with no skeleton in its main content. */
async function arriveWithData(page: Page, pages: [string, (page: Page) => Promise<void>][]): Promise<void> {
  for (const [path, loaded] of pages) {
    await page.goto(path, { waitUntil: 'commit' });
    await loaded(page);
    await expect(page.locator('main [data-skeleton]'), `${path}: no skeleton`).toHaveCount(0);
  }
}

/** Goes to `path` inside the open page, as a link of the app would (the router follows the history). */
async function navigateInPage(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
};

const VISITOR_PAGES: [string, (page: Page) => Promise<void>][] = [
  ['/events', async (p) => expect(p.getByRole('link', { name: 'Summer Jazz Night' })).toBeVisible()],
  ['/event/summer-jazz-night-2026', async (p) => expect(p.getByRole('list', { name: 'Gallery' })).toBeVisible()],
  ['/community', async (p) => expect(p.getByRole('list', { name: 'Posts' })).toBeVisible()],
  ['/user/mia', heading('Mia Lens')],
];

// Issue 28: a visitor's public pages arrive rendered by the page's server with their data; the
// browser shows them as they arrive, whatever the API's delay to it.
test("loading: a visitor's data page arrives with its data, no skeleton, however slow the API is to the browser", async ({
  page,
}) => {
  await slowApi(page);
  await arriveWithData(page, VISITOR_PAGES);
});

test('loading: each data page a visitor reaches in the open page shows a skeleton until its data arrives', async ({
  page,
}) => {
  await page.goto('/faq');
  await expect(page.getByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeVisible();
  await slowApi(page);
  for (const [path, loaded] of VISITOR_PAGES) {
    await navigateInPage(page, path);
    await showsSkeletonUntil(page, path, loaded);
  }
  // The cart is read by the browser on a first load too (the session's, not the page's data).
  await loadsWithSkeleton(page, '/cart', async (p) => expect(p.getByText('Your cart is empty.')).toBeVisible());
});

/** max's data pages, each with what shows once its data is there. */
const memberPages = (orderPath: string): [string, (page: Page) => Promise<void>][] => [
  ['/user/me', async (p) => expect(p.getByText('Max Multi')).toBeVisible()],
  ['/user/orders', async (p) => expect(p.getByRole('list', { name: 'Event orders' })).toBeVisible()],
  ...(
    [
      ['/user/events', 'Your events'],
      ['/user/mediaPackages', 'Media packages'],
      ['/user/discountCodes', 'Discount codes'],
    ] as const
  ).map(([path, title]): [string, (page: Page) => Promise<void>] => [
    path,
    async (p) => {
      await heading(title)(p);
      await expect(p.locator('main li').first()).toBeVisible();
    },
  ]),
  ['/settings/general', async (p) => expect(p.getByRole('textbox', { name: 'Name' })).toHaveValue('Max Multi')],
  [orderPath, async (p) => expect(p.getByRole('heading', { name: 'Order info' })).toBeVisible()],
];

/** The path of max's first order. */
async function firstOrderPath(page: Page): Promise<string> {
  await page.goto('/user/orders');
  const order = page.getByRole('list', { name: 'Event orders' }).getByRole('link').first();
  return new URL((await order.getAttribute('href'))!, page.url()).pathname;
}

// Issue 38, item 7: a logged-in visitor's pages arrive rendered with their data too.
test("loading: a member's data page arrives with its data, no skeleton, however slow the API is to the browser", async ({
  page,
}) => {
  await logIn(page, 'max');
  const orderPath = await firstOrderPath(page);
  await slowApi(page);
  await arriveWithData(page, memberPages(orderPath));
});

test('loading: each account page and the order page reached in the open page, and the notification list, show a skeleton until their data arrives', async ({
  page,
}) => {
  await logIn(page, 'max');
  const orderPath = await firstOrderPath(page);
  await slowApi(page);
  for (const [path, loaded] of memberPages(orderPath)) {
    // Each from a fresh page, so no page's data is in the cache from the one before (two read the profile).
    await page.goto('/faq');
    await expect(page.getByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeVisible();
    await navigateInPage(page, path);
    await showsSkeletonUntil(page, path, loaded);
  }

  // The notification list: rows' shapes, then the entries. The page arrives with the member's
  // session, so the header asks for the list at once: it is held until the list is open.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${API}/v2/notifications**`, async (route) => {
    await held;
    await route.fallback();
  });
  await page.goto('/faq');
  await page.getByRole('button', { name: /^Notifications, \d+ new$/ }).click();
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(list).toHaveAttribute('aria-busy', 'true');
  await expect(list.locator('[data-skeleton]').first()).toBeVisible();
  release();
  await expect(list).toHaveAttribute('aria-busy', 'false');
  await expect(list.locator('[data-skeleton]')).toHaveCount(0);
});
