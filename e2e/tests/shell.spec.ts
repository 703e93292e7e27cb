import { expect } from '@playwright/test';
import { logIn } from './helpers.js';
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
