import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { API, SHELL } from '../env.js';
import { logIn, watchConsole } from './helpers.js';
import { test } from './fixtures.js';

const PASSWORD = 'buyer-pass-2026';

/** A new account with a role (none would open the role modal), made through the API as a sign-up does. */
async function newAccount(profileName: string): Promise<void> {
  const origin = SHELL;
  const signup = await fetch(`${API}/v2/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({
      username: `Buyer ${profileName}`,
      profileName,
      email: `${profileName}@example.com`,
      password: PASSWORD,
    }),
  });
  expect(signup.status).toBe(201);
  const cookie = signup.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const roles = new FormData();
  roles.append('driver', 'true');
  roles.append('media', 'false');
  const updated = await fetch(`${API}/v2/updateRoles`, { method: 'POST', headers: { cookie, origin }, body: roles });
  expect(updated.status).toBe(200);
}

/** Adds a photo from the viewer; answers the address of the picture the viewer showed. */
async function addFromViewer(page: Page, eventIdentifier: string, name: string): Promise<string> {
  await page.goto(`/event/${eventIdentifier}`);
  await page.getByRole('button', { name: `Open ${name}` }).click();
  const viewer = page.getByRole('dialog');
  await expect(viewer.getByRole('heading', { name })).toBeVisible();
  await expect(viewer.getByText('$15.00')).toBeVisible();
  const picture = viewer.locator('img').first();
  await expect(picture).toHaveJSProperty('complete', true);
  const shown = await picture.evaluate((img: HTMLImageElement) => img.currentSrc);
  await viewer.getByRole('button', { name: 'Add to cart' }).click();
  await expect(viewer.getByText('Added to cart')).toBeVisible();
  await page.keyboard.press('Escape');
  return shown;
}

/** What an image's bytes decode to in the page: its size, and a 64 x 64 thumbnail's pixels. */
async function decoded(page: Page, bytes: Buffer, type: string) {
  return page.evaluate(
    async ({ base64, type }) => {
      const blob = new Blob([Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0))], { type });
      const bitmap = await createImageBitmap(blob);
      const canvas = new OffscreenCanvas(64, 64);
      const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
      context.drawImage(bitmap, 0, 0, 64, 64);
      return { width: bitmap.width, height: bitmap.height, pixels: [...context.getImageData(0, 0, 64, 64).data] };
    },
    { base64: bytes.toString('base64'), type },
  );
}

test('media + account + header: a visitor buys two photos from two photographers with a code, after a declined card, and downloads the originals; the seller sees the sale', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The API's refusal of a declined code is a 400 the page shows, not a failure.
  const problems = watchConsole(page, [/status of 400/]);
  const buyer = `buyer-${Date.now().toString(36)}`;
  await newAccount(buyer);

  // A visitor's cart: one photo of Mia's, one of Max's.
  const preview = await addFromViewer(page, 'summer-jazz-night-2026', 'Stage lights');
  expect(preview).toMatch(/\/media\//);
  await addFromViewer(page, 'city-marathon-2026', 'Start line');
  await page.goto('/cart');
  await expect(page.getByRole('button', { name: 'Log in to check out' })).toBeVisible();
  await logIn(page, buyer, PASSWORD);
  await page.goto('/cart');
  await expect(page.getByRole('list', { name: 'Cart items' }).getByRole('listitem')).toHaveCount(2);
  const totals = page.getByLabel('Totals');
  await expect(totals).toContainText('$30.00');

  // Mia's code takes 10 % off her photo only.
  const code = page.getByRole('textbox', { name: 'Discount code' });
  await code.fill('NOSUCHCODE');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(code).toHaveAccessibleDescription('There is no discount code NOSUCHCODE');
  await code.fill('MIA10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(totals).toContainText('-$1.50');
  await expect(totals).toContainText('$28.50');

  const bell = page.getByRole('button', { name: /^Notifications, \d+ new$/ });
  const newBefore = Number((await bell.getAttribute('aria-label'))?.match(/\d+/)?.[0] ?? 0);

  await page.getByRole('button', { name: 'Check out' }).click();
  await expect(page.getByText('Test payment: no money moves')).toBeVisible();
  const purchaseNumber = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').replace('Pay ', '');
  expect(purchaseNumber).toMatch(/^P-[0-9A-Z]{8}$/);
  await expect(page.getByText('$28.50').first()).toBeVisible();

  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay $28.50' }).click();
  await expect(page.getByRole('alert')).toHaveText('Your card was declined. Nothing was charged.');
  const unpaid = await page.request.get(`${API}/v2/purchases/${purchaseNumber}`);
  expect(((await unpaid.json()) as { purchase: { status: string } }).purchase.status).toBe('open');
  const cart = (await (await page.request.get(`${API}/v2/user/cart`)).json()) as { cart: unknown[] };
  expect(cart.cart).toHaveLength(2);

  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $28.50' }).click();
  await expect(page).toHaveURL(new RegExp(`/receipt/${purchaseNumber}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('$28.50').first()).toBeVisible();
  // The payment's notification arrives live, on the header's bell.
  await expect(bell).toHaveAccessibleName(`Notifications, ${newBefore + 1} new`);
  await expect(page.getByRole('link', { name: /^Cart, 0 items$/ })).toBeVisible();

  await page.getByRole('link', { name: 'My purchases' }).click();
  const owned = page.getByRole('list', { name: 'Purchased items' }).getByRole('listitem');
  await expect(owned).toHaveCount(2);
  // Bought: the buyer's picture is the unmarked one, by a signed link, not the public preview.
  const card = owned.filter({ hasText: 'Stage lights' });
  await expect(card.locator('img')).toHaveJSProperty('complete', true);
  expect(await card.locator('img').evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\/files\/content\//);
  const previewResponse = await page.request.get(preview);
  const previewType = previewResponse.headers()['content-type'] ?? 'image/jpeg';
  const previewBytes = Buffer.from(await previewResponse.body());

  const [original] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download Stage lights' }).click(),
  ]);
  const originalBytes = await readFile((await original.path()) as string);
  const shown = await decoded(page, previewBytes, previewType);
  const bought = await decoded(page, originalBytes, 'image/jpeg');
  // The original is the camera's file, larger than any preview, and its pixels are not the preview's.
  expect(bought.width).toBeGreaterThan(1280);
  expect(shown.width).toBeLessThanOrEqual(1280);
  const difference = bought.pixels.reduce((sum, value, i) => sum + Math.abs(value - (shown.pixels[i] ?? 0)), 0);
  expect(difference / bought.pixels.length).toBeGreaterThan(2);

  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download all (ZIP)' }).click(),
  ]);
  const zipBytes = await readFile((await zip.path()) as string);
  expect(zipBytes.subarray(0, 4).toString('hex')).toBe('504b0304');
  expect(zipBytes.length).toBeGreaterThan(originalBytes.length);

  // Mia sees the sale on her Sales page.
  const seller = await browser.newContext();
  const miaPage = await seller.newPage();
  await logIn(miaPage, 'mia');
  await miaPage.goto('/user/sales');
  const sale = miaPage.getByRole('row').filter({ hasText: buyer });
  await expect(sale).toContainText('Stage lights');
  await expect(sale).toContainText('$13.50');
  await seller.close();
  expect(problems).toEqual([]);
});

test('media: two tabs checking out one cart at once make one purchase', async ({ browser }) => {
  const buyer = `tabs-${Date.now().toString(36)}`;
  await newAccount(buyer);
  const context = await browser.newContext();
  const first = await context.newPage();
  await logIn(first, buyer, PASSWORD);
  await addFromViewer(first, 'summer-jazz-night-2026', 'Saxophone solo');
  const second = await context.newPage();
  await Promise.all([first.goto('/cart'), second.goto('/cart')]);
  await Promise.all([first, second].map((tab) => expect(tab.getByRole('button', { name: 'Check out' })).toBeEnabled()));
  await Promise.all([
    first.getByRole('button', { name: 'Check out' }).dblclick(),
    second.getByRole('button', { name: 'Check out' }).click(),
  ]);
  await Promise.all([first.waitForURL(/\/payments\/test\//), second.waitForURL(/\/payments\/test\//)]);
  expect(first.url()).toBe(second.url());
  await context.close();
});
