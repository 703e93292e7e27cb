import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { PAGE_LIST } from '@marketplace/shared/platform';
import { API, DEMO_PASSWORD, SHELL } from '../env.js';
import { logIn } from './helpers.js';
import { test } from './fixtures.js';

// An accessibility audit with axe-core: no serious or critical violation on any page of the
// platform table, anonymous and logged in, at desktop width and at 768 px, and with each overlay
// open. Users here are ones whose state no other test asserts (the suites share one database).

/** Each page of the table, its parameters filled with seeded values. */
const PATHS = PAGE_LIST.map((page) =>
  page.path
    .replace(':eventIdentifier', 'summer-jazz-night-2026')
    .replace(':orderId', 'ord-1009')
    .replace(':profileName', 'mia'),
);

/** The page settled: its remotes rendered (no slot still loading) and its data in. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[data-testid^="slot-loading-"]')).toHaveCount(0);
}

/** Serious and critical violations, each with where it is, so a failure says what to fix. */
async function violations(page: Page): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page }).analyze();
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${page.url()} ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 768, height: 1024 },
]) {
  for (const session of ['anonymous', 'logged in'] as const) {
    test(`a11y: every page of the platform table, ${session}, at ${viewport.width} px, has no serious or critical axe violation`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await page.setViewportSize(viewport);
      if (session === 'logged in') await logIn(page, 'dave');
      const found: string[] = [];
      for (const path of PATHS) {
        await page.goto(path);
        await settled(page);
        found.push(...(await violations(page)));
      }
      expect(found).toEqual([]);
    });
  }
}

test('a11y: each overlay open (notifications, messages, chat window, profile menu, viewer, contact, role modal, cancel popup) has no serious or critical axe violation', async ({
  page,
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const found: string[] = [];
  const audit = async (overlay: string) => found.push(...(await violations(page)).map((v) => `${overlay}: ${v}`));

  // A conversation for max, so his message dropdown has an entry that opens a chat window.
  const mia = await playwright.request.newContext({ baseURL: API });
  expect((await mia.post('/v2/login', { form: { login: 'mia', password: DEMO_PASSWORD } })).status()).toBe(200);
  expect(
    (
      await mia.post('/v2/chat/sendMessage', {
        form: { profileName: 'max', content: 'Hello Max, are you free on Saturday?' },
      })
    ).status(),
  ).toBe(200);
  await mia.dispose();

  await logIn(page, 'max');
  await settled(page);
  await page.getByRole('button', { name: /^Notifications, \d+ new$/ }).click();
  await expect(page.getByRole('list', { name: 'Notifications' })).toBeVisible();
  await audit('notifications');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: /^Messages, \d+ new$/ }).click();
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages).toBeVisible();
  await audit('messages');
  await messages.getByRole('button', { name: /Mia Lens/ }).click();
  await expect(page.getByRole('region', { name: 'Chat with Mia Lens' })).toBeVisible();
  await audit('chat window');

  await page.getByRole('button', { name: 'Profile menu' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await audit('profile menu');
  await page.keyboard.press('Escape');

  await page.goto('/event/summer-jazz-night-2026');
  await page.getByRole('button', { name: 'Open Stage lights' }).click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'Stage lights' })).toBeVisible();
  await audit('media viewer');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Contact Us' }).click();
  await expect(page.getByRole('dialog', { name: 'Contact Us' })).toBeVisible();
  await audit('contact modal');

  // The cancel popup on one of clara's orders no other test touches (it is not confirmed).
  const client = await (await browser.newContext({ baseURL: SHELL })).newPage();
  try {
    await logIn(client, 'clara');
    await client.goto('/user/orders');
    await client.getByRole('link', { name: /Company kick-off/ }).click();
    await client.getByRole('button', { name: 'Cancel order' }).click();
    await expect(client.getByRole('dialog', { name: 'Are you sure you want to cancel this order?' })).toBeVisible();
    found.push(...(await violations(client)).map((v) => `cancel popup: ${v}`));
  } finally {
    await client.context().close();
  }

  // A new user has no role: the role modal opens once they have signed up.
  const newcomer = await (await browser.newContext({ baseURL: SHELL })).newPage();
  try {
    const name = `a${Date.now().toString(36)}`;
    await newcomer.goto('/user/signup');
    await newcomer.getByLabel('Name', { exact: true }).fill('New Person');
    await newcomer.getByLabel('Profile name').fill(name);
    await newcomer.getByLabel('Email').fill(`${name}@example.com`);
    await newcomer.getByLabel('Password').fill('long-enough');
    await newcomer.getByRole('button', { name: 'Sign up' }).click();
    await expect(newcomer.getByRole('dialog', { name: 'You need at least 1 role to continue' })).toBeVisible();
    found.push(...(await violations(newcomer)).map((v) => `role modal: ${v}`));
  } finally {
    await newcomer.context().close();
  }

  expect(found).toEqual([]);
});
