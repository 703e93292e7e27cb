import { expect, type Page } from '@playwright/test';
import { API, DEMO_PASSWORD } from '../env.js';
import { logIn } from './helpers.js';
import { test } from './fixtures.js';

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search' });
/** SPEC.md section 3: MM/DD/YYYY h:mm AM/PM. */
const ABSOLUTE = /^\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} (AM|PM)$/;
/** Issue 19: recent times relative ("5 minutes ago", via luxon), older ones absolute. */
const WHEN = /^(just now|\d+ (minute|hour|day)s? ago|\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} (AM|PM))$/;

test('header -> media: search by keyboard opens the event page that media serves', async ({ page }) => {
  await page.goto('/events');
  await searchBox(page).fill('jazz');
  const option = page.getByRole('option', { name: 'Summer Jazz Night' });
  await expect(option).toBeVisible();
  await searchBox(page).press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await searchBox(page).press('Enter');
  await expect(page).toHaveURL(/\/event\/summer-jazz-night-2026$/);
  await expect(page.getByRole('heading', { name: 'Summer Jazz Night', level: 1 })).toBeVisible();
  await expect(page.getByRole('listbox')).toHaveCount(0);
});

test('header: at 768 px the header is one row: the search opens over it from a button, the navigation is in a side menu', async ({
  page,
}) => {
  await page.setViewportSize({ width: 768, height: 900 });
  await page.goto('/');
  const logo = page.getByRole('link', { name: 'EventMedia' });
  await expect(searchBox(page)).toBeHidden();
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(searchBox(page)).toBeFocused();
  const [logoBox, searchBoxBox] = [await logo.boundingBox(), await searchBox(page).boundingBox()];
  // Over the row the logo is on, not on a second one.
  expect(searchBoxBox!.y).toBeLessThan(logoBox!.y + logoBox!.height);
  await page.getByRole('button', { name: 'Close search' }).click();
  await expect(searchBox(page)).toBeHidden();
  // Focus goes back to the button that opened it, after the × and after Escape alike.
  const searchButton = page.getByRole('button', { name: 'Search' });
  await expect(searchButton).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(searchBox(page)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(searchBox(page)).toBeHidden();
  await expect(searchButton).toBeFocused();
  await expect(page.getByRole('link', { name: 'Posts' })).toHaveCount(0);

  // The side menu by keyboard: Enter opens it with the focus inside, Escape closes it and gives
  // the focus back to its button.
  const hamburger = page.getByRole('button', { name: 'Open menu' });
  await hamburger.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await expect(menu.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(hamburger).toBeFocused();

  await hamburger.click();
  await expect(menu).toBeVisible();
  await menu.getByRole('link', { name: 'Posts' }).click();
  await expect(page).toHaveURL(/\/community$/);
  await expect(page.getByRole('heading', { name: 'Posts' })).toBeVisible();
  await expect(menu).toHaveCount(0);
});

test('header: at 769 px the search box and the navigation share the first row, with no hamburger', async ({ page }) => {
  await page.setViewportSize({ width: 769, height: 900 });
  await page.goto('/');
  const logo = page.getByRole('link', { name: 'EventMedia' });
  await expect(searchBox(page)).toBeVisible();
  const [logoBox, searchBoxBox] = [await logo.boundingBox(), await searchBox(page).boundingBox()];
  expect(searchBoxBox!.y).toBeLessThan(logoBox!.y + logoBox!.height);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Posts' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open menu' })).toHaveCount(0);
});

test('header: at 390 px the header fits the screen, and a menu opened from it stays on the screen', async ({
  page,
}) => {
  const phone = { width: 390, height: 800 };
  await page.setViewportSize(phone);
  const onScreen = async (what: string, box: { x: number; width: number } | null) => {
    expect(box, what).not.toBeNull();
    expect(box!.x, `${what} starts on the screen`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${what} ends on the screen`).toBeLessThanOrEqual(phone.width);
  };
  await page.goto('/');
  await onScreen('Log in', await page.getByRole('button', { name: 'Log in' }).boundingBox());
  // Sign Up is in the side menu on a phone, and leads to its page from there.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/user\/signup$/);
  await page.goto('/');

  // max: no other test asserts his notifications.
  await logIn(page, 'max');
  await page.goto('/');
  await page.getByRole('button', { name: /^Notifications, \d+ new$/ }).click();
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(list.locator('time').first()).toBeVisible();
  await onScreen('the notification list', await list.boundingBox());
});

test('api -> header: the notification dropdown pages through the real list at 90% scroll', async ({ page }) => {
  await logIn(page, 'clara');
  // The demo's delivered photos (ord-1006) each tell clara when the media job has made them: once
  // they are all made, her list is what it stays, and its length is what the pages add up to.
  await expect
    .poll(
      async () => {
        const details = (await (await page.request.get(`${API}/v2/eventorder/ord-1006/details`)).json()) as {
          targets: { state: string }[];
        };
        return details.targets.filter((target) => target.state === 'processing').length;
      },
      { timeout: 60_000 },
    )
    .toBe(0);
  const all = (await (await page.request.get(`${API}/v2/notifications?pageNo=0&limit=50`)).json()) as {
    notifications: unknown[];
  };
  const total = all.notifications.length;
  expect(total).toBeGreaterThan(10);
  expect(total).toBeLessThanOrEqual(20);
  const bell = page.getByRole('button', { name: /^Notifications, \d+ new$/ });
  await expect(bell.getByTestId('badge')).toHaveText('10+');
  // The page has settled (the live login and the reload after subscribing), as a user's would.
  await page.waitForLoadState('networkidle');
  // The list may also be reloaded whole when the live subscription is confirmed: count the paged loads.
  const pagedLoads: string[] = [];
  page.on('request', (r) => r.url().includes('/v2/notifications?') && pagedLoads.push(new URL(r.url()).search));
  await bell.click();
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  // Each notification says when it happened, with the absolute time in its title.
  const times = list.locator('time');
  await expect(times).toHaveCount(10);
  for (const time of await times.all()) {
    await expect(time).toHaveText(WHEN);
    await expect(time).toHaveAttribute('title', ABSOLUTE);
  }
  // NEW became UNREAD: the badge is gone.
  await expect(bell.getByTestId('badge')).toHaveCount(0);
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(list.getByRole('listitem')).toHaveCount(total);
  expect(pagedLoads).toEqual(['?pageNo=1&limit=10']);
  // The server kept the change: after a reload nothing is NEW.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Notifications, 0 new' })).toBeVisible();
});

test('api -> header: a chat message arrives live, opens in a window, is answered, and the window is remembered until closed', async ({
  page,
  playwright,
}) => {
  await logIn(page, 'ana');
  const messages = page.getByRole('button', { name: /^Messages, \d+ new$/ });
  await expect(messages).toHaveAccessibleName('Messages, 0 new');

  // Mia writes to Ana through the API, from her own session.
  const mia = await playwright.request.newContext({ baseURL: API });
  expect((await mia.post('/v2/login', { form: { login: 'mia', password: DEMO_PASSWORD } })).status()).toBe(200);
  expect(
    (
      await mia.post('/v2/chat/sendMessage', { form: { profileName: 'ana', content: 'Hi Ana, need a photographer?' } })
    ).status(),
  ).toBe(200);

  await expect(messages).toHaveAccessibleName('Messages, 1 new');
  await messages.click();
  const conversation = page
    .getByRole('list', { name: 'Messages' })
    .getByRole('listitem')
    .filter({ hasText: 'Mia Lens' });
  await expect(conversation.locator('time')).toHaveText('just now');
  await expect(conversation.locator('time')).toHaveAttribute('title', ABSOLUTE);
  await conversation.getByRole('button', { name: /Mia Lens/ }).click();
  const chat = page.getByRole('region', { name: 'Chat with Mia Lens' });
  await expect(chat.getByText('Hi Ana, need a photographer?')).toBeVisible();

  await chat.getByRole('textbox', { name: 'Message to Mia Lens' }).fill('Yes please, Saturday!');
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect(chat.getByText('Yes please, Saturday!')).toBeVisible();
  // Both messages say when they were sent.
  await expect(chat.getByRole('listitem').locator('time')).toHaveText(['just now', 'just now']);
  const history = (await (await mia.get('/v2/chat/messages', { params: { profileName: 'ana' } })).json()) as {
    messages: { content: string }[];
  };
  expect(history.messages.map((m) => m.content)).toEqual(['Hi Ana, need a photographer?', 'Yes please, Saturday!']);

  // The open window survives a reload; closing it tells the server, so it stays closed.
  await page.reload();
  await expect(chat).toBeVisible();
  await chat.getByRole('button', { name: 'Close chat with Mia Lens' }).click();
  await expect(chat).toHaveCount(0);
  await expect
    .poll(async () => ((await (await page.request.get(`${API}/v2/chat/open`)).json()) as { chats: unknown[] }).chats)
    .toEqual([]);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  await expect(chat).toHaveCount(0);
  await mia.dispose();
});
