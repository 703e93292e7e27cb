import { expect, type Page } from '@playwright/test';
import { API, DEMO_PASSWORD } from '../env.js';
import { logIn, notify, serverStateText, withDatabase } from './helpers.js';
import { test } from './fixtures.js';

/** Markup and URLs that would set window.__pwned if anything rendered them as HTML or followed them. */
const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
const JS_LINK = 'javascript:window.__pwned=1';

/** Plants text the API has no call to write (event and item names) straight into its database. */
function plantInDatabase() {
  withDatabase((db) => {
    db.prepare('UPDATE events SET name = ?, description = ? WHERE identifier = ?').run(
      `Gala ${PAYLOAD}`,
      PAYLOAD,
      'winter-gala-2026',
    );
    db.prepare(
      'UPDATE content_items SET name = ? WHERE identifier = (SELECT ci.identifier FROM content_items ci JOIN events e ON e.id = ci.event_id WHERE e.identifier = ? ORDER BY ci.id LIMIT 1)',
    ).run(`Pizza ${PAYLOAD}`, 'tech-meetup-november');
  });
}

const pwned = (page: Page) => page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned);

test('hostile input: script and HTML in notifications, links, chat, profile fields, event and item names and search results stay inert', async ({
  page,
  playwright,
  browser,
}) => {
  test.setTimeout(60_000);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  plantInDatabase();
  // ivy's own profile fields, a chat message from mia, and a notification with a javascript: link.
  const ivy = await playwright.request.newContext({
    baseURL: API,
    extraHTTPHeaders: { origin: 'http://localhost:13000' },
  });
  expect((await ivy.post('/v2/login', { form: { login: 'ivy', password: DEMO_PASSWORD } })).status()).toBe(200);
  expect((await ivy.post('/v2/user/updateProfile', { form: { bio: PAYLOAD } })).status()).toBe(200);
  const mia = await playwright.request.newContext({
    baseURL: API,
    extraHTTPHeaders: { origin: 'http://localhost:13000' },
  });
  expect((await mia.post('/v2/login', { form: { login: 'mia', password: DEMO_PASSWORD } })).status()).toBe(200);
  expect((await mia.post('/v2/chat/sendMessage', { form: { profileName: 'ivy', content: PAYLOAD } })).status()).toBe(
    200,
  );
  await notify('ivy', PAYLOAD, JS_LINK);

  await logIn(page, 'ivy');
  // Notification: shown as text; clicking it does not follow the javascript: link.
  await page.getByRole('button', { name: /^Notifications,/ }).click();
  await page.getByRole('list', { name: 'Notifications' }).getByRole('button', { name: PAYLOAD }).click();
  // Chat: the message is text in the window.
  await page.getByRole('button', { name: /^Messages,/ }).click();
  await page
    .getByRole('list', { name: 'Messages' })
    .getByRole('button', { name: /Mia Lens/ })
    .click();
  await expect(page.getByRole('region', { name: 'Chat with Mia Lens' }).getByText(PAYLOAD)).toBeVisible();
  // Search results, the events list, the event page, an item in the gallery and the viewer, the profile.
  await page.getByRole('combobox', { name: 'Search' }).fill('Gala');
  await expect(page.getByRole('option', { name: `Gala ${PAYLOAD}` })).toBeVisible();
  await page.goto('/events');
  await expect(page.getByRole('link', { name: `Gala ${PAYLOAD}` })).toBeVisible();
  await page.goto('/event/winter-gala-2026');
  await expect(page.getByRole('heading', { name: `Gala ${PAYLOAD}`, level: 1 })).toBeVisible();
  await page.goto('/event/tech-meetup-november');
  await page.getByRole('button', { name: `Open Pizza ${PAYLOAD}` }).click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: `Pizza ${PAYLOAD}` })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.goto('/user/ivy');
  await expect(page.getByRole('main').getByText(PAYLOAD)).toBeVisible();

  expect(await pwned(page)).toBeUndefined();

  // The same names on pages a visitor gets rendered by the page's server (issue 28, item 7): text in
  // its HTML, escaped in the state it serialises (the payload's </script> cannot end that block).
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  visitorPage.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  for (const [path, shown] of [
    ['/events', `Gala ${PAYLOAD}`],
    ['/event/winter-gala-2026', `Gala ${PAYLOAD}`],
    ['/event/tech-meetup-november', `Pizza ${PAYLOAD}`],
    ['/user/ivy', PAYLOAD],
  ] as const) {
    const html = await (await visitor.request.get(path)).text();
    expect(html, path).not.toContain('<script>window.__pwned');
    expect(html, path).not.toContain('<img src=x');
    await visitorPage.goto(path);
    await expect(visitorPage.getByRole('main').getByText(shown).first(), path).toBeVisible();
    expect(await pwned(visitorPage), path).toBeUndefined();
  }
  const state = serverStateText(await (await visitor.request.get('/event/winter-gala-2026')).text());
  expect(JSON.parse(state ?? 'null')?.queries.queries[0].state.data.event.name).toBe(`Gala ${PAYLOAD}`);
  await visitor.close();

  expect(dialogs).toEqual([]);
  await Promise.all([ivy.dispose(), mia.dispose()]);
});
