import { expect, type Page } from '@playwright/test';
import { syntheticClip } from 'api/clips';
import { gradientPng } from 'api/png';
import { API } from '../env.js';
import { logIn } from './helpers.js';
import { test } from './fixtures.js';

const png = (name: string, seed: number) => ({ name, mimeType: 'image/png', buffer: gradientPng(800, 600, seed) });

async function openFromOrders(page: Page, eventName: string) {
  await page.goto('/user/orders');
  await page.getByRole('link', { name: new RegExp(eventName) }).click();
  await expect(page.getByRole('heading', { name: eventName })).toBeVisible();
}

test('account -> event order: upload two images one at a time and see them listed; compression loads only then', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await logIn(page, 'clara');
  await openFromOrders(page, 'Charity run');
  const uploads = page.getByRole('list', { name: 'Uploaded files' });
  await expect(page.getByText('No uploads yet.')).toBeVisible();
  expect(scripts.filter((u) => /browser-image-compression/.test(u))).toEqual([]);

  await page.getByLabel('Add images').setInputFiles([png('stage.png', 1), png('doors.png', 2)]);
  // Compression re-encodes each image on the main thread: allow for a loaded 2-core machine.
  await expect(page.getByRole('status').filter({ hasText: /^Uploaded/ })).toHaveText('Uploaded 2/2', {
    timeout: 30_000,
  });
  await expect(uploads.getByRole('listitem')).toHaveCount(2);
  await expect(uploads).toContainText('stage.png');
  await expect(uploads).toContainText('doors.png');
  expect(scripts.filter((u) => /browser-image-compression/.test(u))).toHaveLength(1);
  // Each is shown as the server remade it once its media job is done, without a reload: the
  // browser picks a format it can show and the width the 64 px thumbnail needs.
  const pictures = uploads.locator('picture img');
  await expect(pictures).toHaveCount(2, { timeout: 30_000 });
  await expect(uploads.getByRole('status')).toHaveCount(0);
  for (const picture of await pictures.all()) {
    await expect(picture).toHaveJSProperty('complete', true);
    expect(
      await picture.evaluate((img: HTMLImageElement) => [
        img.naturalWidth > 0,
        new URL(img.currentSrc).searchParams.get('f'),
      ]),
    ).toEqual([true, expect.stringMatching(/^320\.(avif|webp)$/)]);
  }
});

test('account -> event order: a text file is refused with its reason while a JPEG goes on to its picture; a dropped file is uploaded', async ({
  page,
}) => {
  await logIn(page, 'clara');
  await openFromOrders(page, 'Product launch');
  // A camera-like JPEG, made by the browser's own encoder.
  const jpeg = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 1200;
    canvas.height = 800;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d canvas');
    const gradient = context.createLinearGradient(0, 0, 1200, 800);
    gradient.addColorStop(0, '#2a5a8c');
    gradient.addColorStop(1, '#e0a040');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 1200, 800);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
    if (!blob) throw new Error('no JPEG');
    return [...new Uint8Array(await blob.arrayBuffer())];
  });
  await page.getByLabel('Add images or videos').setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Not a picture') },
    { name: 'stage.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(jpeg) },
  ]);
  const uploading = page.getByRole('list', { name: 'Files being uploaded' });
  const refused = uploading.getByRole('listitem').filter({ hasText: 'notes.txt' });
  await expect(refused).toContainText('Not an image or a video');
  // Compression re-encodes the image on the main thread: allow for a loaded 2-core machine.
  await expect(page.getByRole('status').filter({ hasText: /^Uploaded/ })).toHaveText('Uploaded 1/2, 1 not accepted', {
    timeout: 30_000,
  });
  const uploads = page.getByRole('list', { name: 'Uploaded files' });
  const picture = uploads.getByRole('listitem').filter({ hasText: 'stage.jpg' }).locator('picture img');
  await expect(picture).toHaveJSProperty('complete', true, { timeout: 30_000 });
  expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  // The refusal stays beside its name; nothing of the text file reached the order.
  await expect(refused).toContainText('Not an image or a video');
  await expect(uploads).not.toContainText('notes.txt');

  // Dropped on the field's box, as from a file manager.
  const dataTransfer = await page.evaluateHandle(
    (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
      return transfer;
    },
    gradientPng(640, 480, 21).toString('base64'),
  );
  const dropZone = page.getByText('Add images or videos', { exact: true });
  await dropZone.dispatchEvent('dragenter', { dataTransfer });
  await dropZone.dispatchEvent('dragover', { dataTransfer });
  await dropZone.dispatchEvent('drop', { dataTransfer });
  await expect(page.getByRole('status').filter({ hasText: /^Uploaded/ })).toHaveText('Uploaded 1/1', {
    timeout: 30_000,
  });
  await expect(
    uploads.getByRole('listitem').filter({ hasText: 'dropped.png' }).locator('picture img'),
  ).toHaveJSProperty('complete', true, { timeout: 30_000 });
});

test('event order: a file that is not the picture it claims to be is refused with its reason, and nothing of it is shown', async ({
  page,
}) => {
  await logIn(page, 'clara');
  // Sent as a script would, past the page's compression (which could not read it either): PNG's
  // first bytes, then nothing a decoder can read.
  const added = await page.context().request.post(`${API}/v2/eventorder/target/add`, {
    multipart: { orderId: 'ord-1002', description: '', fileName: 'broken.png', contentType: 'image/png' },
  });
  const { uploadUrl } = (await added.json()) as { uploadUrl: string };
  const broken = Buffer.concat([gradientPng(4, 4, 1).subarray(0, 16), Buffer.alloc(2000, 0x41)]);
  expect(
    (await page.context().request.put(uploadUrl, { data: broken, headers: { 'content-type': 'image/png' } })).status(),
  ).toBe(200);
  await openFromOrders(page, 'Product launch');
  const row = page
    .getByRole('list', { name: 'Uploaded files' })
    .getByRole('listitem')
    .filter({ hasText: 'broken.png' });
  await expect(row.getByRole('alert')).toHaveText(
    /^Not accepted: This (file is not a PNG image|PNG image could not be read)/,
    { timeout: 30_000 },
  );
  await expect(row.locator('img')).toHaveCount(0);
  await expect(row.getByRole('link', { name: 'Download' })).toHaveCount(0);
});

test('event order: a video is sent as it is, then shown with its poster, and its HLS ladder plays from signed links', async ({
  page,
}) => {
  await logIn(page, 'clara');
  await openFromOrders(page, 'Product launch');
  await page
    .getByLabel('Add images or videos')
    .setInputFiles([
      { name: 'clip.mp4', mimeType: 'video/mp4', buffer: syntheticClip({ width: 640, height: 360, seconds: 3 }) },
    ]);
  await expect(page.getByRole('status').filter({ hasText: /^Uploaded/ })).toHaveText('Uploaded 1/1', {
    timeout: 30_000,
  });
  const row = page.getByRole('list', { name: 'Uploaded files' }).getByRole('listitem').filter({ hasText: 'clip.mp4' });
  // Its poster until it plays: then the ladder plays in the row, through the order's signed links.
  await expect(row.locator('img.thumb')).toHaveJSProperty('complete', true, { timeout: 60_000 });
  expect(await row.locator('img.thumb').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await row.locator('img.thumb').hover();
  await expect
    .poll(() => row.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0);
  // The order's answer names the ladder's master playlist; the browser's session reaches it, and
  // its renditions, by the links in it.
  const details = await (await page.context().request.get(`${API}/v2/eventorder/ord-1002/details`)).json();
  const video = details.targets.find((t: { target: string }) => t.target === 'clip.mp4')?.video;
  const master = await page.context().request.get(video.hls);
  expect(master.headers()['content-type']).toBe('application/vnd.apple.mpegurl');
  const rendition = (await master.text()).split('\n').find((line) => line.startsWith('http')) ?? '';
  expect(await (await page.context().request.get(rendition)).text()).toMatch(/#EXT-X-MAP:URI="http/);
});

test('account -> event order: the client cancels, and the page shows the refetched status', async ({ page }) => {
  await logIn(page, 'clara');
  await openFromOrders(page, 'Team offsite');
  await page.getByRole('button', { name: 'Cancel order' }).click();
  const dialog = page.getByRole('dialog', { name: 'Are you sure you want to cancel this order?' });
  await expect(dialog).toBeVisible();
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
  await dialog.getByRole('button', { name: 'Yes, cancel the order' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('Order has been cancelled');
  await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('order-status')).toHaveText('Order has been cancelled');
});

test('event order: a sharing link opens the sharedUser view; without it another user is unauthorized', async ({
  page,
  browser,
}) => {
  await logIn(page, 'clara');
  const details = await (await page.context().request.get(`${API}/v2/eventorder/ord-1006/details`)).json();
  const sharingId: string = details.sharingId;

  const other = await browser.newPage();
  await logIn(other, 'tom');
  await other.goto(`/eventorder/ord-1006?sharingId=${encodeURIComponent(sharingId)}`);
  await expect(other.getByRole('heading', { name: 'Annual awards' })).toBeVisible();
  await expect(other.getByRole('link', { name: 'Download' }).first()).toBeVisible();
  await expect(other.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
  await expect(other.getByLabel('Add images')).toHaveCount(0);
  await expect(other.getByRole('link', { name: 'Back to events' })).toBeVisible();

  await other.goto('/eventorder/ord-1006');
  await expect(other.getByText('You are unauthorized to view this page')).toBeVisible();
  await other.close();
});
