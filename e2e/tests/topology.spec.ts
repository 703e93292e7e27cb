import { expect } from '@playwright/test';
import { gradientPng } from 'api/png';
import { API, API_INTERNAL_PORTS, UPLOAD_ORIGIN } from '../env.js';
import { logIn, notify } from './helpers.js';
import { test } from './fixtures.js';

// The production project only (playwright.prod.config.ts): the API is two instances on
// PostgreSQL behind the gateway, with RabbitMQ's two nodes and the files in an object store. A
// user's journey is served by both instances, and what one instance publishes reaches a page
// whose live login the other signed.
// Each instance's operator listener (the gateway does not pass /internal).
const [first, second] = API_INTERNAL_PORTS;
const INTERNAL_URLS = { 'api-1': `http://127.0.0.1:${first}`, 'api-2': `http://127.0.0.1:${second}` } as const;

test('two API instances behind the gateway serve one journey: log in, cart, notifications, upload and download, live from the other instance', async ({
  page,
}) => {
  const served: { path: string; instance: string | undefined }[] = [];
  const stored: { method: string; status: number }[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(API))
      served.push({ path: new URL(response.url()).pathname, instance: response.headers()['x-api-instance'] });
    if (UPLOAD_ORIGIN && response.url().startsWith(UPLOAD_ORIGIN))
      stored.push({ method: response.request().method(), status: response.status() });
  });

  await logIn(page, 'clara');
  const cart = page.getByRole('link', { name: /^Cart, \d+ items$/ });
  const before = Number((await cart.getAttribute('aria-label'))?.match(/\d+/)?.[0]);
  await page.goto('/event/summer-jazz-night-2026');
  await page.getByRole('button', { name: 'Open Stage lights' }).click();
  const viewer = page.getByRole('dialog');
  await viewer.getByRole('button', { name: 'Add to cart' }).click();
  await expect(cart).toHaveAttribute('aria-label', `Cart, ${before + 1} items`);
  await page.keyboard.press('Escape');

  // Open the notifications: NEW become UNREAD (the badge clears) and the list shows.
  const bell = page.getByRole('button', { name: /^Notifications, \d+ new$/ });
  await bell.click();
  await expect(page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Notifications/ })).toHaveAccessibleName('Notifications, 0 new');
  await page.keyboard.press('Escape');

  // Upload to an order, then download the file the other party would.
  await page.goto('/user/orders');
  await page.getByRole('link', { name: /Charity run/ }).click();
  await page
    .getByLabel('Add images')
    .setInputFiles([{ name: 'venue.png', mimeType: 'image/png', buffer: gradientPng(800, 600, 7) }]);
  await expect(page.getByRole('status').filter({ hasText: /^Uploaded/ })).toHaveText('Uploaded 1/1', {
    timeout: 30_000,
  });
  // The browser sent the file straight to the object store, by the POST whose policy the API signed.
  expect(stored).toContainEqual({ method: 'POST', status: 204 });
  const download = page.getByRole('list', { name: 'Uploaded files' }).getByRole('link', { name: 'Download' }).first();
  const file = await page.context().request.get((await download.getAttribute('href')) ?? '');
  expect(file.status()).toBe(200);
  // An order's file is private: the API streams it under the signed link it gave the party, with
  // the type its bytes were decoded as, kept by this browser only. The link is there once the
  // media job (in an API instance) has processed it.
  expect(file.headers()['content-type']).toBe('image/png');
  expect(file.headers()['cache-control']).toBe('private, max-age=300');
  expect(file.headers()['x-content-type-options']).toBe('nosniff');
  expect(file.headers()['content-disposition']).toMatch(/attachment; filename="?venue\.png/);
  expect([...(await file.body()).subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');

  // The page's live login came from one instance; the notification is created through the other.
  const issuer = served.find((s) => s.path === '/v2/liveCredentials')?.instance;
  expect(issuer === 'api-1' || issuer === 'api-2').toBe(true);
  const other = issuer === 'api-1' ? 'api-2' : 'api-1';
  await notify('clara', 'Published by the other instance', null, INTERNAL_URLS[other]);
  await expect(page.getByRole('button', { name: 'Notifications, 1 new' })).toBeVisible();

  expect(new Set(served.map((s) => s.instance))).toEqual(new Set(['api-1', 'api-2']));
});
