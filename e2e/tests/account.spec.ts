import { expect } from '@playwright/test';
import { API } from '../env.js';
import { test } from './fixtures.js';

test('header -> account -> header: sign up a new user, pick Media in the role modal, see the MEDIA entries in the profile menu', async ({
  page,
}) => {
  const name = `n${Date.now().toString(36)}`;
  await page.goto('/community');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/user\/signup$/);
  await page.getByLabel('Name', { exact: true }).fill('New Shooter');
  await page.getByLabel('Profile name').fill(name);
  await page.getByLabel('Email').fill(`${name}@example.com`);
  await page.getByLabel('Password').fill('long-enough');
  await page.getByRole('button', { name: 'Sign up' }).click();

  // Back where the user was, logged in, and the mandatory role modal is up.
  await expect(page).toHaveURL(/\/community$/);
  const dialog = page.getByRole('dialog', { name: 'You need at least 1 role to continue' });
  await expect(dialog).toBeVisible();
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
  await dialog.getByLabel('Media').check();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('');

  await page.getByRole('button', { name: 'Profile menu' }).click();
  await expect(page.getByRole('link', { name: 'Media packages' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Discount codes' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Events', exact: true })).toHaveCount(1);
  await page.getByRole('link', { name: 'Media packages' }).click();
  await expect(page.getByRole('heading', { name: 'Media packages' })).toBeVisible();
});

test('shell -> account: the contact modal is 500 px wide on a desktop', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Contact Us' }).click();
  const box = await page.getByRole('dialog', { name: 'Contact Us' }).boundingBox();
  expect(box?.width).toBe(500);
});

test('account: a role page refuses a user without the role with a clear message', async ({ page }) => {
  await page.goto('/user/login');
  await page.getByLabel('Email or profile name').fill('sam');
  await page.getByLabel('Password').fill('demo-pass-2026');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  await page.goto('/user/discountCodes');
  await expect(page.getByRole('alert')).toHaveText('Discount codes are for users with the MEDIA role');
});

test('account: forgot password mails a link; the link sets a new password once, and the new password logs in', async ({
  page,
}) => {
  const name = `r${Date.now().toString(36)}`;
  const email = `${name}@example.com`;
  await page.goto('/user/signup');
  await page.getByLabel('Name', { exact: true }).fill('Reset Me');
  await page.getByLabel('Profile name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('first-password');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('dialog', { name: 'You need at least 1 role to continue' })).toBeVisible();
  await page.context().clearCookies();

  await page.goto('/user/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status')).toBeVisible();

  // The dev mailbox (the API's in-process SMTP listener) answers this machine's browser.
  const mailbox = `${API}/internal/mailbox`;
  let link = '';
  await expect
    .poll(
      async () => {
        await page.goto(mailbox);
        const row = page.getByRole('row').filter({ hasText: email });
        if ((await row.count()) === 0) return '';
        await row.first().getByRole('link').click();
        link = /https?:\/\/[^\s"<>]+\/user\/reset-password#token=[\w-]+/.exec(await page.content())?.[0] ?? '';
        return link;
      },
      { timeout: 20_000 },
    )
    .toMatch(/#token=/);

  await page.goto(link);
  await expect(page).toHaveURL(/\/user\/reset-password$/);
  await page.getByLabel('New password', { exact: true }).fill('second-password');
  await page.getByLabel('New password again').fill('second-password');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await expect(page.getByRole('status')).toHaveText(/Your new password is set/);

  // Used once: the same link again, opened anew, is refused.
  await page.goto('/');
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('third-password');
  await page.getByLabel('New password again').fill('third-password');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('status')).toHaveCount(0);

  await page.goto('/user/login');
  await page.getByLabel('Email or profile name').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('second-password');
  await page.getByRole('button', { name: 'Log in' }).last().click();
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
});
