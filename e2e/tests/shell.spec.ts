import { expect, type ConsoleMessage } from '@playwright/test';
import { isExpectedNotFound, logIn } from './helpers.js';
import { test } from './fixtures.js';

test('shell -> account: Contact Us in the footer opens the contact form, sent without credentials', async ({
  page,
}) => {
  await page.goto('/events');
  await page.getByRole('button', { name: 'Contact Us' }).click();
  const dialog = page.getByRole('dialog', { name: 'Contact Us' });
  await expect(dialog).toBeVisible();
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
  const sent = page.waitForRequest((r) => r.url().endsWith('/v2/submitContactInfo'));
  await dialog.getByLabel('Name').fill('Pat');
  await dialog.getByLabel('Email').fill('pat@example.com');
  await dialog.getByLabel('Subject').fill('Hello');
  await dialog.getByLabel('Message').fill('How do refunds work?');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByText('We have received your message, thank you')).toBeVisible();
  expect((await sent).headers()['cookie']).toBeUndefined();
  await dialog.getByRole('button', { name: 'Close' }).click();
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
});

test('shell -> account: Question? leads to the FAQ; the signup page has its own footer; /receipt paths have none', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByLabel('This site is in beta')).toBeVisible();
  await page.getByRole('link', { name: 'Question?' }).click();
  await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible();
  await page.goto('/user/signup');
  await expect(page.locator('footer')).toHaveAttribute('data-variant', 'signup');
  await page.goto('/orders/ord-1001/receipt');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.locator('footer')).toHaveCount(0);
});

test('account -> header: a user with no role must pick one; Media adds the MEDIA entries to the profile menu', async ({
  page,
}) => {
  await logIn(page, 'nora');
  const dialog = page.getByRole('dialog', { name: 'You need at least 1 role to continue' });
  await expect(dialog).toBeVisible();
  const next = dialog.getByRole('button', { name: 'Continue' });
  await expect(next).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Media').check();
  await next.click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await expect(page.getByRole('link', { name: 'Media packages' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Discount codes' })).toBeVisible();
});

test('account -> event order: an order listed under Orders opens on the event order page', async ({ page }) => {
  await logIn(page, 'clara');
  await page.goto('/user/orders');
  await page.getByRole('link', { name: /Annual awards/ }).click();
  await expect(page).toHaveURL(/\/eventorder\/ord-1006$/);
  await expect(page.getByRole('heading', { name: 'Annual awards' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to orders' })).toBeVisible();
});

test('shell + media + event order: every page says what it is, in the tab and its description, on first load and after a client navigation', async ({
  page,
}) => {
  const description = () => page.locator('meta[name="description"]').getAttribute('content');
  await page.goto('/');
  await expect(page).toHaveTitle('Event photos and videos · EventMedia');
  expect(await description()).toMatch(/Browse upcoming events/);
  await page
    .getByRole('link', { name: /Summer Jazz Night/ })
    .first()
    .click();
  await expect(page).toHaveTitle('Summer Jazz Night · EventMedia');
  expect(await description()).not.toMatch(/Browse upcoming events/);
  await page.getByRole('link', { name: 'Question?' }).click();
  await expect(page).toHaveTitle('Frequently asked questions · EventMedia');
  await page.goto('/user/login');
  await expect(page).toHaveTitle('Log in · EventMedia');
  await logIn(page, 'clara');
  await page.goto('/user/orders');
  await expect(page).toHaveTitle('Your orders · EventMedia');
  await page.goto('/eventorder/ord-1003');
  await expect(page).toHaveTitle(/: event order · EventMedia$/);
});

test('shell + media + event order: an unknown event, profile or order is "not found" with a way back, not a retry, and logs no error', async ({
  page,
}) => {
  const errors: string[] = [];
  // The page itself is answered 404 (its server says "not found" to machines too); Chromium logs that.
  const ownAnswer = (m: ConsoleMessage) => m.text().includes('status of 404') && m.location().url === page.url();
  // A page filled in the browser (the logged-in order page) asks the API, which answers 404 too.
  const expected = (m: ConsoleMessage) => ownAnswer(m) || isExpectedNotFound(m.text(), m.location().url);
  page.on('console', (m) => m.type() === 'error' && !expected(m) && errors.push(m.text()));
  for (const [path, text] of [
    ['/event/no-such-event', 'There is no event at this address.'],
    ['/user/nobody-here', 'There is no one with this profile name.'],
  ]) {
    await page.goto(path!);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByText(text!)).toBeVisible();
    await expect(page.getByRole('button', { name: /Retry|Try again/ })).toHaveCount(0);
    await expect(page.getByText('This could not be loaded. Please try again.')).toHaveCount(0);
    await expect(page).toHaveTitle('Page not found · EventMedia');
  }
  await page.getByRole('link', { name: 'Browse events' }).click();
  await expect(page).toHaveURL(/\/events$/);
  await expect(page).toHaveTitle('Events · EventMedia');

  await logIn(page, 'clara');
  await page.goto('/eventorder/no-such-order');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('You are unauthorized to view this page')).toHaveCount(0);
  expect(errors).toEqual([]);
});
