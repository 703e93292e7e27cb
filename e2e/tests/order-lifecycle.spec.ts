import { expect, type Browser, type Page } from '@playwright/test';
import { gradientPng } from 'api/png';
import { SHELL } from '../env.js';
import { logIn } from './helpers.js';
import { test } from './fixtures.js';

/** A signed-in page of its own browser context, on the order's page. */
async function openAs(browser: Browser, profileName: string, orderPath: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: SHELL })).newPage();
  await logIn(page, profileName);
  await page.goto(orderPath);
  return page;
}

test("event order: a client books from a photographer's page, and both carry the booking to delivered and shared, each seeing the other's step live", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // dave books max, whose page offers his packages.
  const client = await openAs(browser, 'dave', '/user/max');
  const packages = client.getByRole('list', { name: 'Packages' });
  await expect(packages).toContainText('Essentials');
  await packages.getByRole('button', { name: 'Book Essentials' }).click();
  const form = client.getByRole('dialog', { name: 'Book Max Multi: Essentials' });
  await form.getByLabel('Event').fill('Spring gala');
  await form.getByLabel('Date and time').fill('2027-05-01T18:30');
  await form.getByLabel('Place').fill('Riverside Hall');
  await form.getByLabel('Guests').fill('80');
  await form.getByLabel('Discount code (optional)').fill('MAX10');
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(client).toHaveURL(/\/eventorder\/ord-[a-z0-9]{8}$/);
  const orderPath = new URL(client.url()).pathname;
  const photographer = await openAs(browser, 'max', orderPath);
  const status = (page: Page) => page.getByTestId('order-status');
  try {
    await expect(status(client)).toHaveText('Order Placed');
    // Essentials at $250.00 less MAX10's 10 %.
    await expect(photographer.getByRole('region', { name: 'Media payout' })).toContainText('$225.00');
    await expect(client.getByRole('button', { name: 'Approve quote' })).toHaveCount(0);

    // The photographer quotes; the client's page shows it without a reload.
    await photographer.getByRole('button', { name: 'Send quote' }).click();
    const quote = photographer.getByRole('dialog', { name: 'Send a quote' });
    await quote.getByLabel('Package price ($)').fill('1200');
    await quote.getByLabel('Discount ($)').fill('100');
    await quote.getByLabel('Extras ($)').fill('50');
    await quote.getByLabel('What the extras are').fill('Drone shots');
    await expect(quote.getByTestId('quote-total')).toHaveText('$1,150.00');
    await quote.getByRole('button', { name: 'Send quote' }).click();
    await expect(status(photographer)).toHaveText('Awaiting Approval');
    await expect(status(client)).toHaveText('Awaiting Approval');
    await expect(client.getByTestId('order-quote')).toContainText('$1,150.00');

    // The client approves; the photographer sees it.
    await client.getByRole('button', { name: 'Approve quote' }).click();
    await client.getByRole('dialog', { name: 'Approve this quote?' }).getByRole('button', { name: 'Approve' }).click();
    await expect(status(client)).toHaveText('Approved, awaiting payment');
    await expect(status(photographer)).toHaveText('Approved, awaiting payment');

    // The client pays on the (test) payment page and comes back to the receipt.
    await client.getByRole('button', { name: 'Pay $1,150.00' }).click();
    await expect(client.getByText('Test payment: no money moves')).toBeVisible();
    await client.getByLabel('Card number').fill('4242 4242 4242 4242');
    await client.getByRole('button', { name: 'Pay $1,150.00' }).click();
    await expect(client.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
    await expect(status(photographer)).toHaveText('Pending Fulfillments');

    // The photographer uploads a deliverable and delivers, while the client watches the order.
    await client.goto(orderPath);
    await expect(status(client)).toHaveText('Fulfilling Order');
    await photographer
      .getByLabel('Add deliverables')
      .setInputFiles([{ name: 'first-dance.png', mimeType: 'image/png', buffer: gradientPng(1600, 1067, 42) }]);
    const gallery = photographer.getByRole('list', { name: 'Deliverables' });
    await expect(gallery.locator('img')).toHaveJSProperty('complete', true, { timeout: 60_000 });
    await photographer.getByRole('button', { name: 'Mark delivered' }).click();
    await photographer
      .getByRole('dialog', { name: 'Mark this order delivered?' })
      .getByRole('button', { name: 'Mark delivered' })
      .click();
    await expect(status(photographer)).toHaveText('Delivered');
    await expect(status(client)).toHaveText('Delivered');
    await expect(client.getByRole('link', { name: 'Download all (1 file, ZIP)' })).toBeVisible();
    const [zip] = await Promise.all([
      client.waitForEvent('download'),
      client.getByRole('link', { name: 'Download all (1 file, ZIP)' }).click(),
    ]);
    expect(zip.suggestedFilename()).toBe(`${orderPath.split('/').pop() ?? ''}.zip`);

    // The shared link shows the delivered picture to anyone, and no original.
    const link = await client.getByLabel('Anyone with this link sees the delivered pictures').inputValue();
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(link);
    const shared = visitor.getByRole('list', { name: 'Deliverables' });
    await expect(shared.locator('img')).toHaveJSProperty('complete', true);
    await expect(visitor.getByRole('heading', { name: 'Requirements' })).toHaveCount(0);
    const hrefs = await visitor
      .locator('a[href*="/files/order/"]')
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(new URL(href).searchParams.get('f')).toMatch(/\.jpg$/);
    const [picture] = await Promise.all([
      visitor.waitForEvent('download'),
      visitor.getByRole('link', { name: 'Download first-dance.png' }).click(),
    ]);
    expect(picture.suggestedFilename()).toBe('first-dance.jpg');

    // The client ends the link: the visitor's copy no longer opens the order.
    await client.getByRole('button', { name: 'Stop sharing this link' }).click();
    await expect(client.getByText('The old link no longer works: this is the new one')).toBeVisible();
    await visitor.goto(link);
    await expect(visitor.getByText('You are unauthorized to view this page')).toBeVisible();
    await visitor.context().close();
  } finally {
    await photographer.context().close();
    await client.context().close();
  }
});
