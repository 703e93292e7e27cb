import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';
import { START_AT_LATEST_MS } from '@marketplace/shared/node/handover';
import { API, DEMO_PASSWORD, PORTS, ROOT, runtimeEnv, SHELL } from '../env.js';
import { delayingApi } from '../bench/servers.mjs';
import { logIn, serverStateText } from './helpers.js';
import { test } from './fixtures.js';
import { headerThatThrows } from './build-copies.js';
import { startApp, stop } from './servers.js';

// Issue 28: pages arrive rendered by the page's server (page-server/render-page.ts, the shell's
// server build and the remotes' own server builds), with their data, head and styles, and the
// browser hydrates them as they are. The API, broker and servers are the suite's real ones.

/** Every page a visitor can see, what its server-rendered HTML must show, and its own title. */
const PUBLIC_PAGES: { path: string; shows: string[]; title: string }[] = [
  { path: '/', shows: ['Summer Jazz Night', 'City Marathon'], title: 'Event photos and videos' },
  { path: '/events', shows: ['<h1>Events</h1>', 'Summer Jazz Night'], title: 'Events' },
  {
    path: '/event/summer-jazz-night-2026',
    shows: ['<h1>Summer Jazz Night</h1>', 'An open-air jazz evening'],
    title: 'Summer Jazz Night',
  },
  { path: '/community', shows: ['<h1>Posts</h1>', 'Mia Lens'], title: 'Community' },
  { path: '/user/mia', shows: ['<h1>Mia Lens</h1>'], title: 'Mia Lens' },
  { path: '/faq', shows: ['<h1>Frequently asked questions</h1>'], title: 'Frequently asked questions' },
  { path: '/legal/terms-of-service', shows: ['<h1>Terms of Service</h1>'], title: 'Terms of service' },
  { path: '/legal/privacy-policy', shows: ['<h1>Privacy Policy</h1>'], title: 'Privacy policy' },
  { path: '/legal/cookie-policy', shows: ['<h1>Cookie Policy</h1>'], title: 'Cookie policy' },
  { path: '/user/login', shows: ['<h1>Log in</h1>'], title: 'Log in' },
  { path: '/user/signup', shows: ['<h1>Sign up</h1>'], title: 'Sign up' },
];

/** The inside of the page's root element, and its server state block. */
async function served(request: APIRequestContext, path: string) {
  const response = await request.get(`${SHELL}${path}`);
  const html = await response.text();
  const root = /<div id="root">([\s\S]*)<\/div>\s*<script type="application\/json" id="platform-server-state">/.exec(
    html,
  );
  const state = serverStateText(html);
  return { status: response.status(), headers: response.headers(), html, root: root?.[1] ?? '', state };
}

test('server rendering: every public page arrives with its header, content, data and styles in the first response', async ({
  request,
}) => {
  for (const page of PUBLIC_PAGES) {
    const { status, html, root, state } = await served(request, page.path);
    expect(status, page.path).toBe(200);
    // The header, rendered by the header remote's server build (a compact one on the log-in pages).
    expect(root, `${page.path}: header`).toMatch(/<header[^>]*>[\s\S]*EventMedia/);
    for (const text of page.shows) expect(root, `${page.path}: ${text}`).toContain(text);
    expect(root, `${page.path}: no skeleton`).not.toContain('data-skeleton');
    expect(html, `${page.path}: its styles`).toMatch(/<style data-styled="true"[^>]*>[^<]+/);
    expect(html, `${page.path}: its title`).toContain(`<title>${page.title} · EventMedia</title>`);
    expect(state, `${page.path}: its state`).toBeTruthy();
  }
});

test('server rendering: with scripts off, a visitor still reads the page', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/event/summer-jazz-night-2026');
  await expect(page.getByRole('heading', { level: 1, name: 'Summer Jazz Night' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Gallery' }).getByRole('listitem').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Events' }).first()).toBeVisible();
  await context.close();
});

/** Holds the shell's scripts back until `release()`: the page shows only what its server sent. */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${SHELL}/main.js`, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('server rendering: the browser hydrates the HTML it was sent, keeping its elements and asking the API for none of its data', async ({
  page,
}) => {
  const apiCalls: string[] = [];
  page.on('request', (r) => r.url().startsWith(`${API}/v2/`) && apiCalls.push(new URL(r.url()).pathname));
  const release = await holdScripts(page);
  // Parsed, while its script waits.
  await page.goto('/event/summer-jazz-night-2026', { waitUntil: 'commit' });
  await page.locator('#platform-server-state').waitFor({ state: 'attached' });
  // The server's elements, marked before any script runs.
  await page.evaluate(() => {
    document.querySelector('main h1')?.setAttribute('data-from-server', '');
    document.querySelector('header')?.setAttribute('data-from-server', '');
  });
  release();
  // Hydrated: the app answers a click on its own link without loading a page.
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Posts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Summer Jazz Night' })).toBeVisible();
  // The header's element was kept by hydration, not replaced by a render of the browser's own.
  await expect(page.locator('header[data-from-server]')).toHaveCount(1);
  // The event's data came with the page; the cart is the session's, read by the browser.
  expect(apiCalls.filter((p) => p.includes('summer-jazz-night-2026'))).toEqual([]);
});

/** Types in the header's search until it suggests the event: the app answers once it has taken the page over. */
async function searchAnswers(page: Page): Promise<void> {
  const search = page.getByRole('combobox', { name: 'Search' });
  let attempt = 0;
  await expect(async () => {
    // Another text each time: the same text again changes nothing.
    await search.fill(attempt++ % 2 ? 'jazz' : 'Jazz');
    await expect(page.getByRole('option', { name: /Summer Jazz Night/ })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

/** Notes when the page's first script element with a source is added (the boot script's main.js): `window.scriptAt`. */
async function noteWhenScriptRuns(page: Page): Promise<void> {
  await page.addInitScript(() => {
    new MutationObserver((records, observer) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLScriptElement && node.src) {
            (window as unknown as { scriptAt: number }).scriptAt = performance.now();
            observer.disconnect();
            return;
          }
    }).observe(document, { childList: true, subtree: true });
  });
}

test('server rendering: a page paints its content and its largest picture before any of its script runs, then the app takes it over', async ({
  page,
}) => {
  await noteWhenScriptRuns(page);
  await page.goto('/');
  await searchAnswers(page);
  const seen = await page.evaluate(async () => {
    const largest = await new Promise<LargestContentfulPaint>((resolve) =>
      new PerformanceObserver((list) => resolve(list.getEntries().at(-1) as LargestContentfulPaint)).observe({
        type: 'largest-contentful-paint',
        buffered: true,
      }),
    );
    return {
      largest: largest.startTime,
      element: largest.element?.tagName,
      scriptAt: (window as unknown as { scriptAt?: number }).scriptAt,
    };
  });
  // The largest paint is an event's cover (server-rendered, eager), and the script ran after it.
  // Chromium gives the paint's time in whole milliseconds (the script's to a tenth), so a script
  // added in the same millisecond as the paint may read up to one below it.
  expect(seen.element).toBe('IMG');
  expect(seen.scriptAt).toBeGreaterThan(seen.largest - 1);
});

test('server rendering: a page whose pictures never arrive still runs its script, START_AT_LATEST_MS after it was asked for, and answers', async ({
  page,
}) => {
  // The API's files are held forever: the page's load event never comes.
  await page.route(`${API}/media/**`, () => undefined);
  await noteWhenScriptRuns(page);
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await searchAnswers(page);
  const ran = await page.evaluate(() => (window as unknown as { scriptAt?: number }).scriptAt ?? null);
  expect(ran).not.toBeNull();
  expect(ran).toBeGreaterThanOrEqual(START_AT_LATEST_MS);
  expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
});

test('server rendering: a form sent before the app has taken the page over is held, then sent by the app: the password never goes into an address', async ({
  page,
}) => {
  const addresses: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && addresses.push(frame.url()));
  const release = await holdScripts(page);
  await page.goto('/user/login', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Email or profile name').fill('olga');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  // The press and the form sent, as the page's first listener (the window's, capturing) sees them.
  await page.evaluate(() => {
    const seen: Event[] = ((window as unknown as { pressed: Event[] }).pressed = []);
    for (const type of ['click', 'submit']) window.addEventListener(type, (event) => seen.push(event), true);
  });
  await page.getByRole('button', { name: 'Log in' }).click();
  // Held: pressed, and its default (the browser sending the form itself) prevented.
  const pressed = await page.evaluate(() =>
    (window as unknown as { pressed: Event[] }).pressed.map((event) => [event.type, event.defaultPrevented]),
  );
  expect(pressed).toEqual([['click', true]]);
  expect(addresses).toEqual([`${SHELL}/user/login`]);
  release();
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  expect(addresses.join(' ')).not.toContain('password');
  expect(addresses.join(' ')).not.toContain(DEMO_PASSWORD);
});

test("server rendering: text typed into the search before the app has taken the page over is the app's: it suggests without a key more", async ({
  page,
}) => {
  const release = await holdScripts(page);
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await page.getByRole('combobox', { name: 'Search' }).fill('Jazz');
  release();
  await expect(page.getByRole('option', { name: /Summer Jazz Night/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('combobox', { name: 'Search' })).toHaveValue('Jazz');
});

test('server rendering: the server element of the page heading is the one the browser keeps', async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto('/faq', { waitUntil: 'commit' });
  await page.locator('#platform-server-state').waitFor({ state: 'attached' });
  await page.evaluate(() => document.querySelector('main h1')?.setAttribute('data-from-server', ''));
  release();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('main h1[data-from-server]')).toHaveText('Frequently asked questions');
  // Interactive: the header's search (hydrated with the page) answers.
  await page.getByRole('combobox', { name: 'Search' }).fill('Jazz');
  await expect(page.getByRole('option', { name: /Summer Jazz Night/ })).toBeVisible();
});

test("server rendering: two visitors' pages rendered at once each hold only their own session and data", async ({
  browser,
  request,
}) => {
  const member = await browser.newContext();
  const memberPage = await member.newPage();
  await logIn(memberPage, 'olga');
  const read = async (response: APIResponse) => ({
    html: await response.text(),
    cache: response.headers()['cache-control'],
  });
  const asMember = (path: string) => member.request.get(`${SHELL}${path}`).then(read);
  const asVisitor = (path: string) => request.get(`${SHELL}${path}`).then(read);
  // One page each first, alone: a cold API can miss the page's data deadline (it is left to the
  // browser then), and this test is about what the concurrent renders hold, not how fast they are.
  // The visitor's warm-up is another page, so that no page cache answers the ones below.
  await asMember('/events');
  await asVisitor('/events');
  const pages = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      i % 2 === 0
        ? asVisitor(i % 4 === 0 ? '/event/summer-jazz-night-2026' : '/event/city-marathon-2026').then((page) => ({
            who: 'visitor',
            event: i % 4 === 0 ? 'Summer Jazz Night' : 'City Marathon',
            ...page,
          }))
        : asMember('/events').then((page) => ({ who: 'member', event: '', ...page })),
    ),
  );
  for (const { who, event, html, cache } of pages) {
    const state = serverStateText(html) ?? '';
    if (who === 'visitor') {
      // A visitor's header, and only the event asked for in the page's state.
      expect(html).toContain('>Log in</button>');
      expect(html).toContain(`<h1>${event}</h1>`);
      const other = event === 'Summer Jazz Night' ? 'City Marathon' : 'Summer Jazz Night';
      expect(state).not.toContain(other);
      // Nothing of the member's session: no user, no cart.
      expect(state).not.toMatch(/getUserInfo|getCart/);
      // The same for every visitor: a shared cache may keep it (nginx does, briefly).
      expect(cache).toBe('no-cache');
      // It paints without its scripts: its boot script starts them once it has (shell/src/boot).
      expect(html).toMatch(/<script type="text\/x-after-paint" data-src="\/main\.js"><\/script>/);
      expect(html).not.toMatch(/<script defer src=/);
      expect(html).not.toMatch(/<link rel="preload" as="script" href=/);
      // The shell's chunks main.js loads first (its build's hints, build-preset/boot-hints.mjs), downloaded with it.
      expect(html).toMatch(
        /<script type="text\/x-after-paint" data-hint="\/src_bootstrap_tsx\.[0-9a-f]+\.js"><\/script>/,
      );
    } else {
      // A logged-in visitor's page (issue 38, item 7): their header and session, and the page's data.
      expect(html).not.toContain('>Log in</button>');
      expect(html).toContain('aria-label="Profile menu"');
      expect(html).toContain('Summer Jazz Night');
      const { session, queries } = JSON.parse(state) as {
        session?: { user: { profileName: string } };
        queries: { queries: { queryKey: unknown[] }[] };
      };
      expect(session?.user.profileName).toBe('olga');
      expect(queries.queries.map((q) => q.queryKey[0])).toEqual(['getEvents']);
      // The member's own: no cache keeps it.
      expect(cache).toBe('private, no-store');
      // It paints without its scripts too.
      expect(html).toMatch(/<script type="text\/x-after-paint" data-src="\/main\.js"><\/script>/);
      expect(html).not.toMatch(/<script defer src=/);
    }
  }
  await member.close();
});

test('server rendering: a page says what it is to machines, and an unknown event or profile is a 404', async ({
  request,
}) => {
  const event = await served(request, '/event/summer-jazz-night-2026?from=share');
  expect(event.html).toContain('<meta property="og:title" content="Summer Jazz Night" />');
  expect(event.html).toContain(
    '<meta property="og:description" content="An open-air jazz evening by the river with six bands." />',
  );
  expect(event.html).toMatch(
    // The largest JPEG the media pipeline made of the event's cover.
    /<meta property="og:image" content="http:\/\/localhost:14000\/media\/media\/cover\/summer-jazz-night-2026\/[\w-]+\/1920\.jpg" \/>/,
  );
  expect(event.html).toContain('<meta name="twitter:card" content="summary_large_image" />');
  // The address without its query: one canonical page for every link to it.
  expect(event.html).toContain(`<link rel="canonical" href="${SHELL}/event/summer-jazz-night-2026" />`);
  expect(event.html.match(/<title>/g)).toHaveLength(1);
  expect(event.html.match(/<meta name="description"/g)).toHaveLength(1);

  for (const path of ['/event/no-such-event', '/user/nobody-here', '/no/page/here']) {
    const missing = await served(request, path);
    expect(missing.status, path).toBe(404);
    expect(missing.root, path).toContain('<h1>Page not found</h1>');
    expect(missing.html, path).toContain('<title>Page not found · EventMedia</title>');
  }
});

/** Longer than a render waits for a remote's server build (shell/src/server/contract.ts, DEFAULT_BUDGETS.remoteMs). */
const SERVER_BUILD_DELAY_MS = 4_000;

type ServerFault = 'server build down' | 'server build slow' | 'throwing while rendered on the server';

/** The header's origin, healthy for browsers, with a fault in its server build only. */
async function headerWithServerFault(fault: ServerFault): Promise<{ close(): Promise<void> }> {
  const dir =
    fault === 'throwing while rendered on the server'
      ? headerThatThrows('broken on the server', { build: 'server' })
      : join(ROOT, 'mf-header', 'dist');
  const real = await startApp(dir, 0);
  const front = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      if (url.startsWith('/server/') && fault === 'server build down') {
        res.writeHead(503).end();
        return;
      }
      if (url.startsWith('/server/') && fault === 'server build slow')
        await new Promise((resolve) => setTimeout(resolve, SERVER_BUILD_DELAY_MS));
      const upstream = await fetch(`http://127.0.0.1:${(real.address() as AddressInfo).port}${url}`, {
        headers: { 'accept-encoding': 'identity' },
      });
      const headers = Object.fromEntries(
        [...upstream.headers].filter(([k]) => !['content-encoding', 'content-length', 'connection'].includes(k)),
      );
      res.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => front.listen(HEADER_PORT, '127.0.0.1', resolve));
  return { close: () => Promise.all([stop(front), stop(real)]).then(() => undefined) };
}

const SHELL_PORT = 13970;
const HEADER_PORT = 13971;

for (const fault of [
  'server build down',
  'server build slow',
  'throwing while rendered on the server',
] as ServerFault[]) {
  test(`server rendering: the header's ${fault}: its slot is a skeleton in the HTML, the rest is rendered, and the browser loads the header`, async ({
    page,
  }) => {
    const header = await headerWithServerFault(fault);
    const shellServer = await startApp('shell', SHELL_PORT, runtimeEnv({ ...PORTS, header: HEADER_PORT }));
    try {
      const shell = `http://localhost:${SHELL_PORT}`;
      const response = await page.request.get(`${shell}/events`);
      const html = await response.text();
      expect(response.status()).toBe(200);
      expect(html).toContain('data-testid="slot-loading-header"');
      expect(html).not.toMatch(/<header[^>]*>/);
      expect(html).toContain('<h1>Events</h1>');
      expect(html).toContain('Summer Jazz Night');

      await page.goto(`${shell}/events`);
      await expect(page.getByRole('link', { name: 'EventMedia' })).toBeVisible();
      await expect(page.getByRole('link', { name: /Summer Jazz Night/ })).toBeVisible();
      await expect(page.getByTestId('slot-fallback-header')).toHaveCount(0);
    } finally {
      await Promise.all([stop(shellServer), header.close()]);
    }
  });
}

test('server rendering: the API down, the page still renders (skeletons where its data goes), never an error page', async ({
  page,
}) => {
  // A shell whose API is a closed port: the server's calls fail at once.
  const shellServer = await startApp('shell', SHELL_PORT, { ...runtimeEnv(), API_ORIGIN: 'http://localhost:1' });
  try {
    const response = await page.request.get(`http://localhost:${SHELL_PORT}/event/summer-jazz-night-2026`);
    const html = await response.text();
    expect(response.status()).toBe(200);
    expect(html).toMatch(/<header[^>]*>/);
    expect(html).toContain('data-skeleton');
    expect(html).toContain('<title>Event · EventMedia</title>');
  } finally {
    await stop(shellServer);
  }
});

test('server rendering: the API answering every call after 3 s: the page arrives at its data deadline with skeletons, never an error; the server asks each call once and gives up on it, the browser asks once and fills it in', async ({
  page,
}) => {
  const api = await delayingApi(API, 3000);
  const shellServer = await startApp('shell', SHELL_PORT, {
    ...runtimeEnv(),
    API_ORIGIN: api.origin,
    // Only the API's calls go through the proxy; its files stay where they are.
    FILES_ORIGIN: API,
    PAGE_DATA_DEADLINE_MS: '500',
  });
  const eventCalls = (from: 'server' | 'browser') =>
    api.calls.filter((call) => call.path === '/v2/events/summer-jazz-night-2026' && call.from === from);
  try {
    const shell = `http://localhost:${SHELL_PORT}`;
    const response = await page.request.get(`${shell}/event/summer-jazz-night-2026`);
    const html = await response.text();
    expect(response.status()).toBe(200);
    expect(html).toMatch(/<header[^>]*>/);
    expect(html).toContain('data-skeleton');
    // Sent before the API answered anything (its deadline, not the API's pace), and the
    // server's one call for the page was given up, not left open.
    expect(api.calls.filter((call) => call.outcome === 'answered')).toEqual([]);
    expect(eventCalls('server')).toHaveLength(1);
    await expect.poll(() => eventCalls('server')[0]?.outcome).toBe('abandoned');

    // In the browser: the server's page, then the call asked once by the browser, which fills it in.
    await page.goto(`${shell}/event/summer-jazz-night-2026`);
    await expect(page.getByRole('heading', { level: 1, name: 'Summer Jazz Night' })).toBeVisible({ timeout: 10_000 });
    expect(eventCalls('server')).toHaveLength(2);
    expect(eventCalls('browser')).toHaveLength(1);
    expect(eventCalls('browser')[0]?.outcome).toBe('answered');
  } finally {
    await Promise.all([stop(shellServer), stop(api.server)]);
  }
});
