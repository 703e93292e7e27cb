import { expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { API, DEMO_PASSWORD, SHELL } from '../env.js';
import { serverStateText } from './helpers.js';
import { test } from './fixtures.js';

// Issue 38, item 7: a logged-in visitor's pages arrive rendered with their data (the page server
// asks the API with their session cookie alone); such a page is theirs only, and a session that
// ends before the browser takes the page over ends as any other does. The API is the suite's real one.

/** A request context logged in as `profileName` (its session and loggedIn cookies), and that user's order ids. */
async function member(profileName: string): Promise<{ context: APIRequestContext; orders: string[] }> {
  const context = await playwrightRequest.newContext();
  const login = await context.post(`${API}/v2/login`, { form: { login: profileName, password: DEMO_PASSWORD } });
  expect(login.status()).toBe(200);
  const { eventOrders } = (await (await context.get(`${API}/v2/user/eventOrders`)).json()) as {
    eventOrders: { orderId: string }[];
  };
  return { context, orders: eventOrders.map((o) => o.orderId) };
}

test("member pages: two members' order lists, rendered at once hundreds of times, each hold only that member's session and orders, and no cache keeps them", async () => {
  const [clara, max] = await Promise.all([member('clara'), member('max')]);
  // Order ids are the data told apart: each member has their own, and none in common.
  expect(clara.orders.length).toBeGreaterThan(0);
  expect(max.orders.length).toBeGreaterThan(0);
  expect(clara.orders.filter((id) => max.orders.includes(id))).toEqual([]);
  try {
    const who = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 'clara' : 'max'));
    const pages = await Promise.all(
      who.map(async (name) => {
        const response = await (name === 'clara' ? clara : max).context.get(`${SHELL}/user/orders`);
        const headers = response.headers();
        return { name, headers, html: await response.text() };
      }),
    );
    let rendered = 0;
    let withData = 0;
    for (const { name, headers, html } of pages) {
      const [own, other] = name === 'clara' ? [clara, max] : [max, clara];
      const otherName = name === 'clara' ? 'max' : 'clara';
      for (const id of other.orders) expect(html, `${name}'s page`).not.toContain(id);
      expect(html).not.toContain(`"profileName":"${otherName}"`);
      const state = serverStateText(html);
      if (!state) {
        // Past the page server's bound on renders at once: the page the browser renders, nobody's data in it.
        expect(headers['x-accel-expires']).toBe('0');
        for (const id of own.orders) expect(html).not.toContain(id);
        continue;
      }
      rendered++;
      // Rendered with their own session, and kept by no cache.
      expect(headers['cache-control']).toBe('private, no-store');
      expect((JSON.parse(state) as { session?: { user: { profileName: string } } }).session?.user.profileName).toBe(
        name,
      );
      if (own.orders.every((id) => html.includes(id))) withData++;
    }
    console.log(
      `[member pages] ${pages.length} loads at once: ${rendered} rendered (${withData} with their orders), the rest past the bound`,
    );
    // Most are rendered, with their orders (one whose data missed the deadline is the browser's to fill).
    expect(rendered).toBeGreaterThan(0);
    expect(withData).toBeGreaterThan(rendered / 2);
  } finally {
    await Promise.all([clara.context.dispose(), max.context.dispose()]);
  }
});

test('member pages: a session that ends between the render and the browser taking the page over ends as any other: the member is logged out', async ({
  page,
}) => {
  const login = await page.request.post(`${API}/v2/login`, { form: { login: 'dave', password: DEMO_PASSWORD } });
  expect(login.status()).toBe(200);
  let rendered = '';
  await page.route(`${SHELL}/user/orders`, async (route) => {
    // The page server renders it while the session lives...
    const response = await route.fetch();
    rendered = await response.text();
    // ...and the session ends before the browser has it (as if logged out on another device).
    expect((await page.request.post(`${API}/v2/logout`)).status()).toBe(200);
    await page.context().addCookies([{ name: 'loggedIn', value: 'yes', url: SHELL }]);
    await route.fulfill({ response, body: rendered });
  });
  await page.goto('/user/orders');
  expect(JSON.parse(serverStateText(rendered) ?? '{}').session?.user.profileName).toBe('dave');
  // The browser checks the session it was handed, as on every load: it has ended, so loggedIn is
  // no and no member's header is left. (Whether the page's own session check also sends the
  // member to log in depends on which of the two answers first, as on any load of an ended session.)
  await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === 'loggedIn')?.value).toBe('no');
  await expect(page.getByRole('button', { name: 'Profile menu' })).toHaveCount(0);
});
