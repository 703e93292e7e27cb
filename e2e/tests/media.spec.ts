import { expect, type Page } from '@playwright/test';
import { logIn } from './helpers.js';
import { test } from './fixtures.js';

/** Scripts the page has requested so far whose URL names hls.js. */
function watchHlsScripts(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && /hls/i.test(r.url()) && urls.push(r.url()));
  return urls;
}

const position = async (page: Page) => {
  const text =
    (await page
      .getByRole('dialog')
      .getByText(/^\d+ of \d+$/)
      .textContent()) ?? '';
  const [n, total] = text.split(' of ').map(Number);
  return { n: n!, total: total! };
};

test('media + header: the viewer navigates with keys and wraps; Add to cart raises the header badge, and again says it is already there', async ({
  page,
}) => {
  await logIn(page, 'zoe');
  await page.goto('/event/summer-jazz-night-2026');
  const cart = page.getByRole('link', { name: /^Cart, \d+ items$/ });
  const before = Number((await cart.getAttribute('aria-label'))?.match(/\d+/)?.[0]);

  await page.getByRole('button', { name: 'Open Stage lights' }).click();
  const viewer = page.getByRole('dialog');
  await expect(viewer.getByRole('heading', { name: 'Stage lights' })).toBeVisible();
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
  const start = await position(page);
  expect(start.total).toBe(7);

  await page.keyboard.press('ArrowRight');
  expect((await position(page)).n).toBe((start.n % start.total) + 1);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  expect((await position(page)).n).toBe(((start.n - 2 + start.total) % start.total) + 1);
  // All the way round comes back to the same item.
  for (let i = 0; i < start.total; i++) await page.keyboard.press('ArrowRight');
  expect((await position(page)).n).toBe(((start.n - 2 + start.total) % start.total) + 1);
  await page.keyboard.press('ArrowRight');
  await expect(viewer.getByRole('heading', { name: 'Stage lights' })).toBeVisible();

  await viewer.getByRole('button', { name: 'Add to cart' }).click();
  await expect(viewer.getByText('Added to cart')).toHaveCSS('color', 'rgb(19, 115, 51)');
  await expect(cart).toHaveAttribute('aria-label', `Cart, ${before + 1} items`);
  await viewer.getByRole('button', { name: 'Add to cart' }).click();
  await expect(viewer.getByText('Item already in cart')).toHaveCSS('color', 'rgb(0, 0, 0)');
  await expect(cart).toHaveAttribute('aria-label', `Cart, ${before + 1} items`);

  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
  await expect(page.getByRole('button', { name: 'Open Stage lights' })).toBeFocused();
});

test("media: a video for sale shows a visitor its poster's preview and nothing to play; hovering it plays its owner the API's HLS stream, and hls.js loads only then", async ({
  page,
}) => {
  const hlsScripts = watchHlsScripts(page);
  // The ladder of a video for sale is served by signed links: /files/content/<item>?f=<file>.
  const streamed: string[] = [];
  page.on('response', (r) => {
    const file = new URL(r.url()).searchParams.get('f') ?? '';
    if (/\.(m3u8|m4s)$/.test(file) && r.ok()) streamed.push(file);
  });

  await page.goto('/event/tech-meetup-november');
  const locked = page.getByRole('button', { name: 'Open Lightning talk' });
  await expect(locked.getByText('Buy to watch')).toBeVisible();
  await expect(locked.getByRole('img', { name: 'Lightning talk (preview)' })).toBeVisible();
  await locked.hover();
  await locked.click();
  await expect(page.getByRole('dialog').getByText('Preview: buy this video to watch it in full')).toBeVisible();
  await expect(page.locator('video')).toHaveCount(0);
  await page.keyboard.press('Escape');
  expect([hlsScripts, streamed]).toEqual([[], []]);

  // Its owner.
  await logIn(page, 'ana');
  await page.goto('/events');
  await expect(page.getByRole('link', { name: 'Tech Meetup November' })).toBeVisible();
  await page.getByRole('link', { name: 'Tech Meetup November' }).click();
  const card = page.getByRole('button', { name: 'Open Lightning talk' });
  await expect(card.locator('img[src="/play-icon.svg"]')).toBeVisible();
  expect(
    await card
      .locator('img[src="/play-icon.svg"]')
      .evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width),
  ).toBe(50);
  expect(hlsScripts).toEqual([]);
  expect(streamed).toEqual([]);

  await card.hover();
  const video = card.locator('video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(0);
  expect(await video.evaluate((v: HTMLVideoElement) => [v.paused, v.muted])).toEqual([false, true]);
  await expect(card.locator('img')).toHaveCount(0);
  expect(hlsScripts.length).toBeGreaterThan(0);
  // The ladder the media pipeline made of the demo's clip: its master playlist, then a rendition's fMP4 segments.
  expect(streamed).toContain('master.m3u8');
  expect(streamed.some((p) => /^(360p|720p)\/seg\d+\.m4s$/.test(p))).toBe(true);

  // Leaving pauses, rewinds and brings the thumbnail back.
  await page.mouse.move(0, 0);
  await expect(card.locator('img.thumb')).toBeVisible();
  expect(await video.evaluate((v: HTMLVideoElement) => [v.paused, v.currentTime])).toEqual([true, 0]);
});

test('media: the gallery and the viewer show the pictures the media pipeline made, in a modern format at the width they need', async ({
  page,
}) => {
  // The demo's media are made before the tests start (fixtures.ts).
  await page.goto('/event/summer-jazz-night-2026');
  const first = page.getByRole('list', { name: 'Gallery' }).getByRole('listitem').first().locator('picture img');
  await expect(first).toHaveJSProperty('complete', true);
  // A card about 300 px wide on this screen: the 320 or 640 px picture, AVIF or WebP.
  expect(await first.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname)).toMatch(
    /\/(320|640)\.(avif|webp)$/,
  );
  await page.getByRole('button', { name: 'Open Stage lights' }).click();
  const shown = page.getByRole('dialog', { name: 'Stage lights' }).getByRole('img', { name: 'Stage lights' });
  await expect(shown).toHaveJSProperty('complete', true);
  // The viewer asks for the width its screen needs (up to 1100 px here), not the camera's 4000 px.
  expect(await shown.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname)).toMatch(
    /\/1280\.(avif|webp)$/,
  );
});

test("media: a user's picture is the square JPEG the pipeline made of their photo, at an address cached for good", async ({
  page,
}) => {
  await page.goto('/community');
  const picture = page.locator('main img[src*="/media/avatar/"]').first();
  await expect(picture).toHaveJSProperty('complete', true);
  const { src, width, height } = await picture.evaluate((img: HTMLImageElement) => ({
    src: img.currentSrc,
    width: img.naturalWidth,
    height: img.naturalHeight,
  }));
  expect(src).toMatch(/\/media\/media\/avatar\/[a-z]+\/[^/]+\/192\.jpg$/);
  expect([width, height]).toEqual([192, 192]);
  expect((await page.request.get(src)).headers()['cache-control']).toBe('public, max-age=31536000, immutable');
});
