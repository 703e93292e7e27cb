import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../env.js';
import { test } from './fixtures.js';

// A keyboard-only journey (no mouse): each step reaches its control with Tab and uses it with
// Enter or typing, and the focused control shows a visible focus indicator. olga: no other test
// reads her cart.

/** What the focused element is called (its accessible label, else its text) and whether its focus shows. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: '', visible: false };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none';
    const name =
      el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '';
    return { name: name.trim(), visible: (outline || shadow) && el.matches(':focus-visible') };
  });

/** Presses Tab until the focused control's name matches, and checks its focus is visible. */
async function tabTo(page: Page, name: RegExp, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (name.test(now.name)) {
      expect(now.visible, `focus indicator on "${now.name}"`).toBe(true);
      return;
    }
  }
  throw new Error(`no control named ${name} within ${max} Tab presses`);
}

test('keyboard only: log in, search and follow a result, open the viewer and add to cart, open the cart, log out; focus visible at each step', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/events');
  await expect(page.getByRole('link', { name: /Summer Jazz Night/ })).toBeVisible();

  await tabTo(page, /^Log in$/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/user\/login$/);
  await tabTo(page, /Email or profile name/);
  await page.keyboard.type('olga');
  await tabTo(page, /^Password$/);
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();

  await tabTo(page, /^Search$/);
  await page.keyboard.type('jazz');
  await expect(page.getByRole('option', { name: 'Summer Jazz Night' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/event\/summer-jazz-night-2026$/);
  // The navigation is announced, and the keyboard starts on the new page's heading.
  await expect(page.getByTestId('route-announcer')).toHaveText('Summer Jazz Night');
  await expect(page.getByRole('heading', { level: 1, name: 'Summer Jazz Night' })).toBeFocused();
  await expect(page).toHaveTitle('Summer Jazz Night · EventMedia');

  await tabTo(page, /^Open Stage lights$/);
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog');
  await expect(viewer.getByRole('heading', { name: 'Stage lights' })).toBeVisible();
  await tabTo(page, /^Add to cart$/, 20);
  await page.keyboard.press('Enter');
  await expect(viewer.getByText(/Added to cart|Item already in cart/)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);

  await tabTo(page, /^Cart, \d+ items$/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId('route-announcer')).toHaveText('Your cart');
  await expect(page.getByRole('heading', { level: 1, name: 'Cart' })).toBeFocused();

  await tabTo(page, /^Profile menu$/);
  await page.keyboard.press('Enter');
  await tabTo(page, /^Logout$/, 20);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});
