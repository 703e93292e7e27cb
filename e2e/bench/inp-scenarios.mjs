// What `pnpm --filter e2e bench:inp` does on the page, as a person would: open the viewer from a
// photo card, add an item to the cart, type a word in the header's search box, open the
// notifications.

/**
 * @typedef {import('@playwright/test').Page} Page
 * @typedef {{ id: string, title: string, path: string, login?: string,
 *   act: (page: Page) => Promise<void> }} Scenario
 */

const EVENT_PATH = '/event/summer-jazz-night-2026';

/** Two frames on, and a moment for what they queued: what the page does after an input has run. @param {Page} page */
export const settle = (page) =>
  page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 100)))),
  );

/**
 * A person's click on `target`: the pointer moved over it first (hover is not an interaction),
 * then pressed and released there. Raw mouse input rather than `locator.click()`, whose check
 * that the press lands on the target listens to the page's pointer events and adds its own time
 * to the interaction.
 * @param {Page} page @param {import('@playwright/test').Locator} target
 */
async function press(page, target) {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error(`${target} is not on the screen`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await settle(page);
  await page.mouse.down();
  await page.mouse.up();
}

/** @type {Scenario[]} */
export const ALL_SCENARIOS = [
  {
    id: 'viewer',
    title: 'open the viewer (photo card on an event page)',
    path: EVENT_PATH,
    act: async (page) => {
      await press(page, page.getByRole('button', { name: 'Open Stage lights' }));
      await page.getByRole('dialog').getByRole('heading', { name: 'Stage lights' }).waitFor();
    },
  },
  {
    id: 'cart',
    title: 'add to cart (a card on an event page)',
    path: EVENT_PATH,
    act: async (page) => {
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Stage lights' }) });
      await press(page, card.getByRole('button', { name: 'Add to cart' }));
      await card.getByRole('status').filter({ hasText: 'Added to cart' }).waitFor();
    },
  },
  {
    id: 'search',
    title: 'type "summer" in the header search (each key)',
    path: '/',
    act: async (page) => {
      const box = page.getByRole('combobox', { name: 'Search' });
      await box.focus();
      // A person typing briskly: about 7 keys a second.
      await box.pressSequentially('summer', { delay: 150 });
      await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().waitFor();
    },
  },
  {
    id: 'notifications',
    title: 'open the notifications (clara, logged in)',
    path: '/',
    login: 'clara',
    act: async (page) => {
      await press(page, page.getByRole('button', { name: /^Notifications, \d+ new$/ }));
      await page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first().waitFor();
    },
  },
];
/** `BENCH_INP_ONLY=viewer,search`: some scenarios only. */
export const SCENARIOS = process.env.BENCH_INP_ONLY
  ? ALL_SCENARIOS.filter((s) => process.env.BENCH_INP_ONLY?.split(',').includes(s.id))
  : ALL_SCENARIOS;
