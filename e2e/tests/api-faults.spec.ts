import { expect, type Page } from '@playwright/test';
import { gradientPng } from 'api/png';
import { API, DEMO_PASSWORD, runtimeEnv } from '../env.js';
import { startApiFaultProxy, type ApiFault } from './fault-proxies.js';
import { startApp, stop } from './servers.js';
import { logIn } from './helpers.js';
import { test } from './fixtures.js';

// A shell whose API calls go through a proxy that can make any call fail (the live channel and
// files host stay direct): SPEC.md section 8 against the real API, one failure at a time.
const SHELL = 'http://localhost:13900';
const PROXY_PORT = 14100;
const DAY_S = 24 * 60 * 60;

/** Resolves after the page's next frame is drawn: what it does with an answer it has is on the screen. */
const afterAFrame = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );

let proxy: Awaited<ReturnType<typeof startApiFaultProxy>>;
let closeShell: () => Promise<void>;
test.beforeEach(async () => {
  proxy = await startApiFaultProxy(PROXY_PORT, API);
  const shell = await startApp('shell', 13900, {
    ...runtimeEnv(),
    API_ORIGIN: `http://localhost:${PROXY_PORT}`,
    FILES_ORIGIN: API,
    LIVE_URL: `${API.replace('http', 'ws')}/mqtt`,
  });
  closeShell = () => stop(shell);
});
test.afterEach(async () => {
  await Promise.all([proxy.close(), closeShell()]);
});

/** The loggedIn cookie's value and days until it expires. */
async function loggedInCookie(page: Page) {
  const cookie = (await page.context().cookies(SHELL)).find((c) => c.name === 'loggedIn');
  return { value: cookie?.value, days: cookie ? (cookie.expires - Date.now() / 1000) / DAY_S : 0 };
}

for (const [label, fault] of [
  ['401', { status: 401 }],
  ['status 0 (connection dropped)', 'connection dropped'],
] as [string, ApiFault][]) {
  test(`api faults: a logout answered ${label} counts as success: loggedIn no for 7 days, home, live connection closed`, async ({
    page,
  }) => {
    let closed = false;
    page.on('websocket', (ws) => ws.on('close', () => (closed = true)));
    await logIn(page, 'ben', DEMO_PASSWORD, SHELL);
    await page.goto(`${SHELL}/events`);
    await expect.poll(() => page.evaluate(() => document.cookie.includes('loggedIn=yes'))).toBe(true);
    proxy.fail('POST /v2/logout', fault);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    await expect(page).toHaveURL(`${SHELL}/`);
    const cookie = await loggedInCookie(page);
    expect(cookie.value).toBe('no');
    expect(cookie.days).toBeCloseTo(7, 1);
    await expect.poll(() => closed).toBe(true);
  });
}

test('api faults: a logout answered 500 is a failure: the user stays logged in where they are', async ({ page }) => {
  await logIn(page, 'ben', DEMO_PASSWORD, SHELL);
  await page.goto(`${SHELL}/community`);
  proxy.fail('POST /v2/logout', { status: 500 });
  await page.getByRole('button', { name: 'Profile menu' }).click();
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/v2/logout'));
  await page.getByRole('button', { name: 'Logout' }).click();
  await answered;
  await afterAFrame(page);
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  await expect(page).toHaveURL(`${SHELL}/community`);
  expect((await loggedInCookie(page)).value).toBe('yes');
});

test('api faults: the session check answered 500 changes nothing; answered 401 or 403 it logs out to /user/login for 30 days', async ({
  page,
}) => {
  for (const status of [401, 403]) {
    await logIn(page, 'ben', DEMO_PASSWORD, SHELL);
    await page.goto(`${SHELL}/events`);
    proxy.fail('POST /v2/checkAuthentication', { status: 500 });
    const checked = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/v2/checkAuthentication'),
    );
    await page.getByRole('link', { name: 'Posts' }).click();
    await expect(page.getByRole('heading', { name: 'Posts' })).toBeVisible();
    await checked;
    await afterAFrame(page);
    await expect(page).toHaveURL(`${SHELL}/community`);
    expect((await loggedInCookie(page)).value).toBe('yes');

    proxy.fail('POST /v2/checkAuthentication', { status });
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await expect(page).toHaveURL(`${SHELL}/user/login`);
    const cookie = await loggedInCookie(page);
    expect(cookie.value).toBe('no');
    expect(cookie.days).toBeCloseTo(30, 1);
    const redirect = (await page.context().cookies(SHELL)).find((c) => c.name === 'loginRedirect');
    expect(decodeURIComponent(redirect?.value ?? '')).toBe('/events');
    proxy.heal('POST /v2/checkAuthentication');
  }
});

test("api faults: a failed first notifications load shows 'No notifications' and asks for no more pages", async ({
  page,
}) => {
  proxy.fail('GET /v2/notifications', { status: 500 });
  const paged: string[] = [];
  page.on('request', (r) => r.url().includes('/v2/notifications?') && paged.push(r.url()));
  // Opening after a failed load clears NEW on the server (it may hold some): a user no other test counts on.
  await logIn(page, 'leo', DEMO_PASSWORD, SHELL);
  const bell = page.getByRole('button', { name: /^Notifications,/ });
  await expect(bell).toHaveAccessibleName('Notifications, 0 new');
  const cleared = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v2/clearNewNotifications'));
  await bell.click();
  await cleared;
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(list.getByText('No notifications')).toBeVisible();
  await list.evaluate((el) => el.dispatchEvent(new Event('scroll')));
  // A page asked for on the scroll is asked for in its handler, or on the render after it.
  await afterAFrame(page);
  expect(paged).toEqual([]);
});

test("api faults: a failed message notifications load shows 'No messages to show'", async ({ page }) => {
  proxy.fail('GET /v2/messageNotifications', { status: 500 });
  await logIn(page, 'leo', DEMO_PASSWORD, SHELL);
  const messages = page.getByRole('button', { name: /^Messages,/ });
  await expect(messages).toHaveAccessibleName('Messages, 0 new');
  await messages.click();
  await expect(page.getByRole('list', { name: 'Messages' }).getByText('No messages to show')).toBeVisible();
});

test('api faults: a failed upload says why beside its file, the files after it still go, and the uploads before it stay', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await logIn(page, 'clara', DEMO_PASSWORD, SHELL);
  await page.goto(`${SHELL}/user/orders`);
  await page.getByRole('link', { name: /Summer party/ }).click();
  await expect(page.getByRole('heading', { name: 'Summer party' })).toBeVisible();
  const uploads = page.getByRole('list', { name: 'Uploaded files' });
  const before = await uploads.getByRole('listitem').count();

  proxy.fail('POST /v2/eventorder/target/add', { status: 500 }, 1);
  const png = (name: string, seed: number) => ({ name, mimeType: 'image/png', buffer: gradientPng(640, 480, seed) });
  await page
    .getByLabel('Add images')
    .setInputFiles([png('first.png', 11), png('second.png', 12), png('third.png', 13)]);
  await expect(page.getByRole('status').filter({ hasText: /^Uploaded/ })).toHaveText('Uploaded 1/3, 2 not accepted', {
    timeout: 30_000,
  });
  const uploading = page.getByRole('list', { name: 'Files being uploaded' });
  for (const name of ['second.png', 'third.png'])
    await expect(uploading.getByRole('listitem').filter({ hasText: name })).toContainText(
      'The server could not take it: try again later',
    );
  await expect(uploads).toContainText('first.png');
  await expect(uploads.getByRole('listitem')).toHaveCount(before + 1);
  await expect(uploads).not.toContainText('second.png');
  await expect(uploads).not.toContainText('third.png');
});

test("api faults: a failed contact submit says 'Email is invalid'; a failed cart removal is swallowed and the item stays", async ({
  page,
}) => {
  await page.goto(`${SHELL}/events`);
  proxy.fail('POST /v2/submitContactInfo', { status: 500 });
  await page.getByRole('button', { name: 'Contact Us' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact Us' });
  await dialog.getByLabel('Name').fill('Pat');
  await dialog.getByLabel('Email').fill('pat@example.com');
  await dialog.getByLabel('Subject').fill('Hello');
  await dialog.getByLabel('Message').fill('Still there?');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByText('Email is invalid')).toBeVisible();
  // Nothing typed was lost.
  await expect(dialog.getByLabel('Message')).toHaveValue('Still there?');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await logIn(page, 'sam', DEMO_PASSWORD, SHELL);
  await page.goto(`${SHELL}/event/city-marathon-2026`);
  await page.getByRole('button', { name: 'Add to cart' }).first().click();
  await expect(page.getByText('Added to cart')).toBeVisible();
  proxy.fail('POST /v2/user/cart/removeItem', 'connection dropped');
  await page.getByRole('link', { name: /^Cart, \d+ items$/ }).click();
  const items = page.getByRole('list', { name: 'Cart items' }).getByRole('listitem');
  await expect(items.first()).toBeVisible();
  const count = await items.count();
  let dropped = 0;
  page.on('requestfailed', (r) => r.method() === 'POST' && r.url().endsWith('/v2/user/cart/removeItem') && dropped++);
  await items
    .first()
    .getByRole('button', { name: /^Remove / })
    .click();
  // Sent, and sent once more with its key (a call that got no answer is, once): both dropped.
  await expect.poll(() => dropped).toBe(2);
  await afterAFrame(page);
  await expect(items).toHaveCount(count);
  await expect(page.getByRole('alert')).toHaveCount(0);
});
