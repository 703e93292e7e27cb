import { expect } from '@playwright/test';
import { SHELL } from '../env.js';
import { logIn } from './helpers.js';
import { test } from './fixtures.js';

// Issue 38, item 9: the platform's origins are localhost's (the API allows pages from them, its
// session cookie is that site's). A page opened at 127.0.0.1, as a new user may type it, would
// arrive rendered and then fail every call: it is sent to localhost first.
const AT_127 = SHELL.replace('localhost', '127.0.0.1');

test('loopback: a page opened at 127.0.0.1 goes to localhost, where navigation, data and logging in work', async ({
  page,
}) => {
  await page.goto(`${AT_127}/events?from=typed`);
  await expect(page).toHaveURL(`${SHELL}/events?from=typed`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Posts' }).first().click();
  await expect(page).toHaveURL(`${SHELL}/community`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('This could not be loaded. Please try again.')).toHaveCount(0);
  await logIn(page, 'clara', undefined, AT_127);
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\//);
});
