import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { useQuery } from '@tanstack/react-query';
import { callQuery, useSession } from '@marketplace/shared';
import { TEST_CONFIG } from '@marketplace/shared/testing';
import type {
  LoadServerModule,
  renderPage as RenderPage,
  scriptsAfterContent as ScriptsAfterContent,
} from './server.js';

// The build defines it (build-preset/server.mjs); the singletons' versions do not matter here.
vi.stubGlobal('SINGLETON_VERSIONS', {});
const { renderPage, scriptsAfterContent } = (await import('./server.js')) as {
  renderPage: typeof RenderPage;
  scriptsAfterContent: typeof ScriptsAfterContent;
};

// A remote's server build as the page server runs it: code in a file of its own folder, so its
// frames name that folder (page-server/render-page.ts hands it over as `sourceOf`).
const folder = mkdtempSync(join(tmpdir(), 'server-failures-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function remoteBuild(name: string, source: string): unknown {
  mkdirSync(join(folder, name, 'server'), { recursive: true });
  const file = join(folder, name, 'server', 'expose.cjs');
  writeFileSync(file, source);
  return createRequire(import.meta.url)(file);
}

describe("the page's server", () => {
  it('puts each remote that threw while it rendered the page into the page, by remote and once, not the shell', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const header = remoteBuild(
      'header',
      'module.exports = { default: function HeaderBar() { throw new Error("flaky header"); } };',
    );
    const account = remoteBuild(
      'account',
      'module.exports = { default: function LoginPage() { return "log in here"; } };',
    );
    const load: LoadServerModule = async ({ remote }) => (remote === 'header' ? header : account);
    const renderLogin = () =>
      renderPage({
        url: '/user/login',
        cookie: '',
        composition: { config: TEST_CONFIG, discovery: null, manifests: {} },
        load,
        sourceOf: (manifestUrl) => join(folder, manifestUrl.includes('header') ? 'header' : 'account'),
        budgets: { dataMs: 50 },
      });
    const page = await renderLogin();
    expect(page.html).toContain('log in here');
    expect(page.failures).toEqual([{ remote: 'header', message: 'Error: flaky header' }]);
    expect(page.state.failures).toEqual(page.failures);
    // Each render names itself, so that the kept copies of its page are judged as one load.
    expect(page.state.render).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await renderLogin()).state.render).not.toBe(page.state.render);
    // Told by where the code runs from: without it, no remote is named.
    const unknown = await renderPage({
      url: '/user/login',
      cookie: '',
      composition: { config: TEST_CONFIG, discovery: null, manifests: {} },
      load,
      budgets: { dataMs: 50 },
    });
    expect(unknown.problems.join()).toContain('flaky header');
    expect(unknown.failures).toEqual([]);
    expect(unknown.state.failures).toBeUndefined();
  });

  it("keeps a large remote's HTML in place: no part is left to an inline script, which the page's CSP refuses", async () => {
    // Over React's 12.8 KB default: a gallery with its pictures' srcsets is this large.
    const gallery = remoteBuild(
      'gallery',
      'const { createElement } = require("react");' +
        'module.exports = { default: function Gallery() { return createElement("ul", null, ' +
        'Array.from({ length: 400 }, (_, i) => createElement("li", { key: i }, "picture " + i + " ".repeat(60)))); } };',
    );
    const page = await renderPage({
      url: '/user/login',
      cookie: '',
      composition: { config: TEST_CONFIG, discovery: null, manifests: {} },
      load: async () => gallery,
      budgets: { dataMs: 50 },
    });
    expect(page.html).toContain('picture 399');
    expect(page.html.length).toBeGreaterThan(20_000);
    expect(page.html).not.toMatch(/<template|\$RC|<script/);
  });
});

/** A stand-in API on a free loopback port: its origin, and a close that drops kept-alive connections. */
async function listening(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

describe('a page that arrived with its content', () => {
  it("asks for no script while it is parsed: main.js and the shell's chunk hints are left to the boot script", () => {
    // As the build writes them (build-preset/index.mjs, boot-hints.mjs).
    const template = [
      '<head>',
      '<script defer src="/main.js" fetchpriority="high"></script><link rel="preload" as="script" href="/src_bootstrap_tsx.0000aaaa.js">',
      '<link rel="preload" as="script" href="/react.1111bbbb.js">',
      '</head>',
    ].join('\n');
    const page = scriptsAfterContent(template);
    expect(page).not.toMatch(/<link rel="preload"|<script defer|<script src/);
    expect(page.match(/<script type="text\/x-after-paint" data-(src|hint)="[^"]+"><\/script>/g)).toEqual([
      '<script type="text/x-after-paint" data-src="/main.js"></script>',
      '<script type="text/x-after-paint" data-hint="/src_bootstrap_tsx.0000aaaa.js"></script>',
      '<script type="text/x-after-paint" data-hint="/react.1111bbbb.js"></script>',
    ]);
  });
});

describe("the page's data", () => {
  /** An API on a real port that answers getEvent after `delayMs`, counting the requests it was sent and the ones abandoned. */
  async function slowApi(delayMs: number) {
    const seen = { requests: [] as string[], abandoned: 0 };
    const server = createServer((req, res) => {
      seen.requests.push(req.url ?? '');
      const timer = setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ event: { name: 'Summer Jazz Night' } }));
      }, delayMs);
      res.on('close', () => {
        if (!res.writableEnded) {
          seen.abandoned++;
          clearTimeout(timer);
        }
      });
    });
    return { seen, ...(await listening(server)) };
  }

  // The event page as its remote's server build would render it: the same call its loader names.
  function EventPage() {
    const { data } = useQuery(callQuery('getEvent', { eventIdentifier: 'summer-jazz-night-2026' }));
    const extra = useQuery(callQuery('getPosts', { limit: 3 }));
    // Not asked for (a search box with nothing typed): not the loader's business.
    useQuery({ ...callQuery('search', { query: '' }), enabled: false });
    return (
      <main>
        {data ? <h1>{data.event.name}</h1> : <p data-skeleton="">loading</p>}
        {extra.data ? 'posts' : 'posts loading'}
      </main>
    );
  }
  const load: LoadServerModule = async ({ remote }) => ({ default: remote === 'media' ? EventPage : () => 'header' });
  const render = (apiOrigin: string, dataMs: number) =>
    renderPage({
      url: '/event/summer-jazz-night-2026',
      cookie: '',
      composition: { config: TEST_CONFIG, discovery: null, manifests: {} },
      load,
      apiOrigin,
      budgets: { dataMs },
    });

  it("renders once with the loader's answers: the API is asked each call once", async () => {
    const api = await slowApi(0);
    try {
      const page = await render(api.origin, 2000);
      expect(page.html).toContain('<h1>Summer Jazz Night</h1>');
      expect(api.seen.requests).toEqual(['/v2/events/summer-jazz-night-2026']);
      expect(page.state.queries.queries.map((q) => q.queryKey)).toEqual([
        ['getEvent', { eventIdentifier: 'summer-jazz-night-2026' }],
      ]);
      // A call the page made that its loader does not name is the browser's, and said.
      expect(page.html).toContain('posts loading');
      expect(page.notes).toEqual([expect.stringContaining('getPosts')]);
    } finally {
      await api.close();
    }
  });

  it('leaves what the API has not answered by the deadline to the browser, and aborts it: one request, however slow', async () => {
    const api = await slowApi(3000);
    try {
      const page = await render(api.origin, 100);
      expect(page.status).toBe(200);
      expect(page.html).toContain('data-skeleton');
      expect(page.state.queries.queries).toEqual([]);
      expect(page.notes.join()).toContain('getEvent: no answer within 100 ms');
      expect(page.problems).toEqual([]);
      await vi.waitFor(() => expect(api.seen.abandoned).toBe(1), { timeout: 5000 });
      expect(api.seen.requests).toEqual(['/v2/events/summer-jazz-night-2026']);
    } finally {
      await api.close();
    }
  });
});

describe("a logged-in visitor's page (issue 38, item 7)", () => {
  /** The API as the page server reaches it: each session sees its own user, cart and orders; every Cookie header it was sent is kept. */
  async function membersApi() {
    const cookies: string[] = [];
    const server = createServer((req, res) => {
      const cookie = req.headers.cookie ?? '';
      cookies.push(cookie);
      const who = /^session=(alice|bob)$/.exec(cookie)?.[1];
      const answer = (status: number, body: unknown) =>
        // A little later each time, so answers for different visitors interleave.
        setTimeout(
          () => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)),
          Math.random() * 5,
        );
      if (!who) return answer(401, { error: 'Not logged in' });
      if (req.url === '/v2/userInfo') return answer(200, { username: who, profileName: who, roles: [] });
      if (req.url === '/v2/user/cart')
        return answer(200, { cart: [{ identifier: `cart-of-${who}`, itemType: 'CONTENT' }] });
      if (req.url === '/v2/user/eventOrders') return answer(200, { eventOrders: [{ orderId: `order-of-${who}` }] });
      return answer(404, { error: 'Not found' });
    });
    return { cookies, ...(await listening(server)) };
  }

  // The orders page and the header as their remotes' server builds render them: the user's name,
  // their cart and their orders, through the same calls the loader names.
  function OrdersPage() {
    const { data } = useQuery(callQuery('getEventOrders'));
    return (
      <main>{data ? data.eventOrders.map((o) => <p key={o.orderId}>{o.orderId}</p>) : <p data-skeleton="">…</p>}</main>
    );
  }
  function Header() {
    const user = useSession((s) => s.user?.username ?? 'nobody');
    const cart = useSession((s) => s.cart.map((item) => item.identifier).join());
    return <header>{`${user} [${cart}]`}</header>;
  }
  const load: LoadServerModule = async ({ remote }) => ({ default: remote === 'header' ? Header : OrdersPage });
  const render = (apiOrigin: string, cookie: string) =>
    renderPage({
      url: '/user/orders',
      cookie,
      composition: { config: TEST_CONFIG, discovery: null, manifests: {} },
      load,
      apiOrigin,
      // Deadlines that hold on a busy machine: what is tested here is whose data, not how fast.
      budgets: { dataMs: 10_000, renderMs: 10_000 },
    });

  it('is rendered with their session and data, asked with their session cookie alone, and is theirs alone', async () => {
    const api = await membersApi();
    try {
      const page = await render(api.origin, 'theme=dark; loggedIn=yes; session=alice; tracking=secret');
      expect(page.html).toContain('alice [cart-of-alice]');
      expect(page.html).toContain('order-of-alice');
      expect(page.state.session).toMatchObject({
        user: { username: 'alice' },
        cart: [{ identifier: 'cart-of-alice' }],
      });
      expect([page.personal, page.hasContent]).toEqual([true, true]);
      // Nothing of the visitor's but the session went to the API.
      expect(new Set(api.cookies)).toEqual(new Set(['session=alice']));
      // A session the API does not know: the frame, for the browser to fill (and end the session).
      const ended = await render(api.origin, 'loggedIn=yes; session=mallory');
      expect(ended.state.session).toBeUndefined();
      expect(ended.html).toContain('nobody');
      expect(ended.html).toContain('data-skeleton');
      expect(ended.personal).toBe(true);
    } finally {
      await api.close();
    }
  });

  it("rendered for two visitors at once, hundreds of times, never shows one's data to the other", async () => {
    const api = await membersApi();
    try {
      const visitors = Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? 'alice' : 'bob'));
      // 10 renders in flight at any time, the two visitors' interleaved: renders overlap as on a
      // page server, without the calls of many at once outlasting a call's own 5 s on a loaded runner.
      const pages: Awaited<ReturnType<typeof render>>[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          for (let i = next++; i < visitors.length; i = next++)
            pages[i] = await render(api.origin, `loggedIn=yes; session=${visitors[i]}`);
        }),
      );
      pages.forEach((page, i) => {
        const who = visitors[i];
        const other = who === 'alice' ? 'bob' : 'alice';
        const text = `${page.html}${JSON.stringify(page.state)}`;
        expect(text).toContain(`order-of-${who}`);
        expect(text).toContain(`${who} [cart-of-${who}]`);
        expect(text).not.toContain(other);
      });
    } finally {
      await api.close();
    }
  }, 120_000);
});
