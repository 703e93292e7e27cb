import { expect } from '@playwright/test';
import { API, SHELL } from '../env.js';
import { logIn, notify } from './helpers.js';
import { test } from './fixtures.js';

test('header -> account: log in from a page reached through the header and come back to it, without a reload', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Posts' }).click();
  await expect(page.getByRole('heading', { name: 'Posts' })).toBeVisible();
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same page'));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/user\/login$/);
  // The compact header on the login page: logo and name only.
  await expect(page.getByRole('link', { name: 'Posts' })).toHaveCount(0);
  await page.getByLabel('Email or profile name').fill('leo');
  await page.getByLabel('Password').fill('demo-pass-2026');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/community$/);
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same page');
  expect((await page.context().cookies()).find((c) => c.name === 'loginRedirect')).toBeUndefined();
});

test('header: the profile menu shows role entries, and Logout ends the session and the live connection', async ({
  page,
}) => {
  let closed = false;
  page.on('websocket', (ws) => ws.on('close', () => (closed = true)));
  await logIn(page, 'max');
  await page.getByRole('button', { name: 'Profile menu' }).click();
  for (const name of ['Profile', 'Events', 'Orders', 'Media packages', 'Discount codes', 'Settings']) {
    await expect(page.getByRole('link', { name, exact: true }).last()).toBeVisible();
  }
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.context().cookies()).find((c) => c.name === 'loggedIn')?.value).toBe('no');
  await expect.poll(() => closed).toBe(true);
});

test('shell: a session that ended elsewhere sends the user to log in on the next route change', async ({ page }) => {
  await logIn(page, 'dave');
  // This page load's own session check must be over before the session ends (else it is the one
  // that sends the user to log in).
  const checked = page.waitForResponse((r) => r.url().endsWith('/v2/checkAuthentication'));
  await page.goto('/events');
  await checked;
  await expect(page.getByRole('link', { name: 'Posts' })).toBeVisible();
  // The session ends on the server (as if logged out on another device).
  const res = await page.context().request.post(`${API}/v2/logout`);
  expect(res.status()).toBe(200);
  await page.context().addCookies([{ name: 'loggedIn', value: 'yes', url: 'http://localhost:13000' }]);
  await page.getByRole('link', { name: 'Posts' }).click();
  await expect(page).toHaveURL(/\/user\/login$/);
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'loggedIn')?.value).toBe('no');
  expect(decodeURIComponent(cookies.find((c) => c.name === 'loginRedirect')?.value ?? '')).toBe('/community');
});

test('api -> header: a notification published live appears in the badge and the list', async ({ page }) => {
  await logIn(page, 'olga');
  const bell = page.getByRole('button', { name: /^Notifications, \d+ new$/ });
  await expect(bell).toHaveAccessibleName('Notifications, 1 new');
  await notify('olga', 'Your event has a new photographer', '/events');
  await expect(bell).toHaveAccessibleName('Notifications, 2 new');
  await bell.click();
  await expect(page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first()).toContainText(
    'Your event has a new photographer',
  );
});

test('shell: with the session cookie gone, each way a page notices (a route change, a page load, the live channel) ends at /user/login with the way back kept', async ({
  page,
}) => {
  // The page's clock is the test's: the live channel's pause before it asks for a login again runs on it.
  await page.clock.install();
  const dropSession = () => page.context().clearCookies({ name: 'session' });
  const loggedInCookie = async () => (await page.context().cookies()).find((c) => c.name === 'loggedIn')?.value;
  const returnPath = async () =>
    decodeURIComponent((await page.context().cookies()).find((c) => c.name === 'loginRedirect')?.value ?? '');

  // A route change: the shell's check.
  await logIn(page, 'dave');
  await dropSession();
  await page.getByRole('link', { name: 'Posts' }).click();
  await expect(page).toHaveURL(/\/user\/login$/);
  expect(await loggedInCookie()).toBe('no');
  expect(await returnPath()).toBe('/community');

  // A page load: the session store's user info (and the shell's check beside it).
  await logIn(page, 'dave');
  await dropSession();
  await page.goto('/events');
  await expect(page).toHaveURL(/\/user\/login$/);
  expect(await loggedInCookie()).toBe('no');
  expect(await returnPath()).toBe('/events');

  // The live channel: the session ends on the server, which closes its broker connections; the
  // page asks for a new broker login, is refused, and ends the session without a route change.
  let sockets = 0;
  page.on('websocket', () => sockets++);
  await logIn(page, 'dave');
  await expect.poll(() => sockets).toBeGreaterThan(0);
  // The shell's own check of the new page answered first: the live channel is the one way left.
  const checked = page.waitForResponse((r) => r.url().endsWith('/v2/checkAuthentication'));
  await page.goto('/events');
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  expect((await checked).status()).toBe(200);
  await expect.poll(() => sockets).toBeGreaterThan(1);
  const liveLogins: string[] = [];
  page.on('request', (r) => r.url().endsWith('/v2/liveCredentials') && liveLogins.push(r.url()));
  const res = await page.context().request.post(`${API}/v2/logout`);
  expect(res.status()).toBe(200);
  await page.context().addCookies([{ name: 'loggedIn', value: 'yes', url: 'http://localhost:13000' }]);
  await expect(page).toHaveURL(/\/user\/login$/, { timeout: 15_000 });
  expect(await returnPath()).toBe('/events');
  // Asked once, refused, and not again: past the channel's pause before it asks again (2 s) twice
  // over on the page's clock, then a request the page sends after whatever that started.
  await page.clock.runFor(5_000);
  await page.route(`${SHELL}/after-the-pause`, (route) => route.fulfill({ status: 204 }));
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)).then(() => fetch('/after-the-pause')));
  expect(liveLogins).toHaveLength(1);
});

test('shell: after logout, Back to a private page shows none of its data, from the cache or otherwise', async ({
  page,
}) => {
  await logIn(page, 'clara');
  await page.goto('/eventorder/ord-1006');
  await expect(page.getByRole('heading', { name: 'Annual awards' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/eventorder\/ord-1006$/);
  await expect(page.getByText('You are unauthorized to view this page')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Annual awards' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Download' })).toHaveCount(0);
});
