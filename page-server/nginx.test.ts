import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NGINX_TEMPLATE, renderTemplate, startNginx, templateVariables } from './nginx.ts';
import { cohortIn, cookieIn, loggedInIn } from '@marketplace/shared/node/choice';
import { compositionBlocks, compositionTemplate } from './page-composition.ts';
import { freePort } from '@marketplace/shared/node/ports';

// Debian's nginx with the images' template, serving a small build as the shell and as a remote.
// A folder only its owner may enter (mkdtemp's 0700), as a checkout may be: nginx's workers run as
// the user who started nginx, root included, so they read the build all the same.
const dir = mkdtempSync(join(tmpdir(), 'nginx-test-'));
const dist = join(dir, 'dist');
const servers: { stop(): Promise<void> }[] = [];
let shell = '';
let remote = '';
/** A shell whose pages come from a page server that counts its renders, with a release store. */
let cached = '';
let cachedNginx: Awaited<ReturnType<typeof startNginx>>;
/** Each render of that page server: the address and the cookies it was sent. */
const renders: string[] = [];
/** Each session check nginx asked of that page server: the cookies it was sent. */
const sessionChecks: string[] = [];
/** The one session that page server's API knows. */
const LIVE_SESSION = 'abc';
/** The release store's discovery document, as a test sets it (a canary or none). */
const MEDIA_LIVE = 'media/aaaaaaaaaaaa/mf-manifest.json';
const MEDIA_CANARY = 'media/bbbbbbbbbbbb/mf-manifest.json';
const noCanary = { remotes: { media: { live: { version: 'aaaaaaaaaaaa', manifest: MEDIA_LIVE } } } };
const canaryAt10 = {
  remotes: {
    media: {
      live: { version: 'aaaaaaaaaaaa', manifest: MEDIA_LIVE },
      canary: { version: 'bbbbbbbbbbbb', manifest: MEDIA_CANARY, percent: 10 },
    },
  },
};
let discovery: object = noCanary;
/** A shell rendered by the real page server (serve.ts) with a stand-in for the shell's server build. */
let rendered = '';
/** A shell whose page server a test breaks: `pageServer.mode`. */
let fragile = '';
const pageServer = {
  mode: 'ok' as 'ok' | 'failing' | 'hanging' | 'down',
  port: 0,
  server: null as Server | null,
  /** The addresses nginx asked it to render. */
  asked: [] as string[],
  /** The addresses whose render nginx gave up on (it closed the request unanswered). */
  abandoned: [] as string[],
};

/** The shell's server build, reduced to what the page server hands it: the origin it names pages by. */
const RENDER_CJS = `exports.singletons = {};
exports.renderDocument = async ({ template, url, origin }) => {
  const canonical = origin + new URL(url, 'http://page').pathname;
  const head = '<link rel="canonical" href="' + canonical + '" /><meta property="og:url" content="' + canonical + '" />';
  return { status: 200, body: template.replace('</head>', head + '</head>'), problems: [], personal: false };
};
`;

/** The fragile shell's page server, answering as its mode says; 'down' closes it. */
function startFragile(): Promise<void> {
  const server = createServer((req, res) => {
    pageServer.asked.push(req.url ?? '');
    if (pageServer.mode === 'hanging') {
      res.on('close', () => pageServer.abandoned.push(req.url ?? ''));
      return;
    }
    if (pageServer.mode === 'failing') {
      res.writeHead(500).end('render failed');
      return;
    }
    setTimeout(() => {
      res
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>rendered ${req.url}</title>`);
    }, 100);
  });
  pageServer.server = server;
  return new Promise((resolve) => server.listen(pageServer.port, '127.0.0.1', resolve));
}
async function stopFragile() {
  const server = pageServer.server;
  pageServer.server = null;
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

beforeAll(async () => {
  mkdirSync(dist, { recursive: true });
  // Built files of each kind: the page, the entry, the manifest, a hashed chunk (big enough to gzip).
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(dist, 'main.js'), 'console.log("main");');
  writeFileSync(join(dist, 'remoteEntry.js'), 'var remote = 1;');
  writeFileSync(join(dist, 'mf-manifest.json'), JSON.stringify({ id: 'header', exposes: [] }));
  writeFileSync(join(dist, 'vendor.0123abcd.js'), `export const data = ${JSON.stringify('x'.repeat(4000))};`);
  // A released version in a release store served by the same template.
  mkdirSync(join(dist, 'header', '0123456789ab'), { recursive: true });
  writeFileSync(join(dist, 'header', '0123456789ab', 'mf-manifest.json'), '{}');
  writeFileSync(join(dist, 'discovery.json'), '{"remotes":{}}');
  const env = {
    API_ORIGIN: 'http://localhost:4000',
    LIVE_URL: 'ws://localhost:9001',
    // The shell's page server signs each page load's beacon token (rum-token.ts).
    RUM_TOKEN_KEY: 'nginx-test-key-0123456789abcdef0123',
  };
  const shellPort = await freePort();
  const remotePort = await freePort();
  servers.push(await startNginx({ dist, port: shellPort, fallback: '@page', env, workDir: join(dir, 'shell') }));
  servers.push(await startNginx({ dist, port: remotePort, fallback: '=404', env, workDir: join(dir, 'remote') }));
  shell = `http://127.0.0.1:${shellPort}`;
  remote = `http://127.0.0.1:${remotePort}`;

  const store = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(discovery));
  });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  servers.push({ stop: () => new Promise<void>((resolve) => store.close(() => resolve())) });
  const counting = createServer((req, res) => {
    // The page server's session check (session-check.mjs), as the API would answer it: `abc` is live.
    if (req.url === '/platform/session') {
      sessionChecks.push(req.headers.cookie ?? '');
      res.writeHead(cookieIn(req.headers.cookie ?? '', 'session') === LIVE_SESSION ? 204 : 401).end();
      return;
    }
    renders.push(`${req.url} ${req.headers.cookie ?? ''}`);
    // Rendering takes a moment: a burst arrives while the first render is under way.
    setTimeout(() => {
      res
        .writeHead(req.url === '/missing' ? 404 : 200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-cache',
          'Content-Security-Policy': "default-src 'self'",
          Vary: 'Accept-Encoding, Cookie',
          // As serve.ts marks a page it sent unrendered (its renders at their limit).
          ...(req.url === '/unrendered' && { 'X-Accel-Expires': '0' }),
        })
        // What the render was asked for, as a page that shows it would.
        .end(
          `<!doctype html><title>${req.url}</title><p>cookie=[${req.headers.cookie ?? ''}]</p>${'<p>page</p>'.repeat(200)}`,
        );
    }, 200);
  });
  await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
  servers.push({ stop: () => new Promise<void>((resolve) => counting.close(() => resolve())) });
  const cachedPort = await freePort();
  cachedNginx = await startNginx({
    dist,
    port: cachedPort,
    fallback: '@page',
    // A staging host: testers may load a stored version in their tab.
    env: {
      ...env,
      DISCOVERY_URL: `http://127.0.0.1:${(store.address() as AddressInfo).port}/discovery.json`,
      ALLOW_VERSION_OVERRIDE: 'true',
    },
    workDir: join(dir, 'cached'),
    pageUpstream: `http://127.0.0.1:${(counting.address() as AddressInfo).port}`,
  });
  servers.push(cachedNginx);
  cached = `http://127.0.0.1:${cachedPort}`;

  // The shell's build as the page server renders it: the page with its composition, and a server build.
  const shellDist = join(dir, 'shell-build', 'dist');
  mkdirSync(shellDist, { recursive: true });
  mkdirSync(join(dir, 'shell-build', 'dist-server'));
  writeFileSync(
    join(shellDist, 'index.html'),
    `<!doctype html><html><head><title>client</title>${compositionTemplate(true)}</head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(join(dir, 'shell-build', 'dist-server', 'render.cjs'), RENDER_CJS);
  // Its remotes answer nothing (a closed port): the page is composed without them at once.
  const nowhere = Object.fromEntries(
    ['HEADER', 'MEDIA', 'EVENT_ORDER', 'ACCOUNT'].map((name) => [
      `${name}_MANIFEST_URL`,
      'http://127.0.0.1:9/mf-manifest.json',
    ]),
  );
  const renderedPort = await freePort();
  // PUBLIC_ORIGIN unset: the runner names nginx's own address, as `npm run start:prod` does.
  servers.push(
    await startNginx({
      dist: shellDist,
      port: renderedPort,
      fallback: '@page',
      env: { ...env, ...nowhere },
      workDir: join(dir, 'rendered'),
    }),
  );
  rendered = `http://127.0.0.1:${renderedPort}`;

  pageServer.port = await freePort();
  await startFragile();
  servers.push({ stop: stopFragile });
  const fragilePort = await freePort();
  servers.push(
    await startNginx({
      dist: shellDist,
      port: fragilePort,
      fallback: '@page',
      env: { ...env, ...nowhere },
      workDir: join(dir, 'fragile'),
      pageUpstream: `http://127.0.0.1:${pageServer.port}`,
    }),
  );
  fragile = `http://127.0.0.1:${fragilePort}`;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers: { 'accept-encoding': 'identity', ...headers } });

/**
 * A request on a connection of its own (fetch cannot forge Host, and after a reload an idle
 * kept-alive connection may still reach an old worker, with the old table).
 */
function send(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { 'accept-encoding': 'identity', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('nginx started from any folder', () => {
  it('serves a build in a folder only its owner may enter, as the user who started it', async () => {
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const res = await get(`${remote}/main.js`);
    expect([res.status, await res.text()]).toEqual([200, 'console.log("main");']);
  });
});

describe('the nginx template', () => {
  it('keeps nginx variables and fills only the defined ones, as the image does', () => {
    const conf = renderTemplate(templateVariables({ dist, port: 80, fallback: '=404', env: {} }));
    expect(conf).toContain('$uri');
    expect(conf).toContain('try_files $uri =404;');
    expect(conf).not.toMatch(/\$\{[A-Z_]+\}/);
  });

  it('answers a missing file with 404, on the shell and on a remote; only the shell gives its page to client routes', async () => {
    for (const base of [shell, remote]) {
      for (const path of ['/remoteEntry.missing.js', '/mf-manifest.old.json', '/chunk.deadbeef.js', '/style.css']) {
        const res = await get(`${base}${path}`);
        expect(res.status, `${base}${path}`).toBe(404);
        expect(res.headers.get('content-type') ?? '').not.toContain('text/html; charset');
      }
    }
    const page = await get(`${shell}/event/city-marathon-2026`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>app</title>');
    expect((await get(`${remote}/event/city-marathon-2026`)).status).toBe(404);
  });

  it('sends nosniff and the policy on every answer, errors included', async () => {
    for (const url of [
      `${shell}/`,
      `${shell}/main.js`,
      `${shell}/missing.js`,
      `${remote}/mf-manifest.json`,
      // A remote's chunk, which pages load with crossorigin="anonymous" (CORS) so its errors carry their stack.
      `${remote}/vendor.0123abcd.js`,
      `${remote}/nothing`,
    ]) {
      const res = await get(url);
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), url).toMatch(
        /^default-src 'self'; script-src 'self' .*connect-src 'self' http:\/\/localhost:4000 ws:\/\/localhost:9001/,
      );
      expect(res.headers.get('access-control-allow-origin'), url).toBe('*');
    }
  });

  it('revalidates pages, entries and manifests, keeps hashed files for a year, never stores the runtime config', async () => {
    for (const path of ['/', '/index.html', '/main.js', '/remoteEntry.js', '/mf-manifest.json']) {
      expect((await get(`${remote}${path}`)).headers.get('cache-control'), path).toBe('no-cache');
    }
    expect((await get(`${remote}/vendor.0123abcd.js`)).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    // A release store: every file of a version is immutable, the discovery document revalidated.
    expect((await get(`${remote}/header/0123456789ab/mf-manifest.json`)).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await get(`${remote}/discovery.json`)).headers.get('cache-control')).toBe('no-cache');
    const config = await get(`${shell}/runtime-config.json`);
    expect(config.headers.get('cache-control')).toBe('no-store');
    expect(await config.json()).toMatchObject({
      apiOrigin: 'http://localhost:4000',
      liveUrl: 'ws://localhost:9001',
      remotes: { header: expect.any(String) },
    });
  });

  it('gzips text files for clients that accept it', async () => {
    const res = await get(`${remote}/vendor.0123abcd.js`, { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
  });
});

describe("the shell's pages through nginx", () => {
  const rendersOf = (path: string) => renders.filter((r) => r.startsWith(`${path} `)).length;

  it("keeps a visitor's page a few seconds: a burst of visitors costs one render per page", async () => {
    const burst = await Promise.all(Array.from({ length: 10 }, () => get(`${cached}/events`)));
    for (const res of burst) {
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>/events</title>');
    }
    expect(rendersOf('/events')).toBe(1);
    const again = await get(`${cached}/events`);
    expect(again.headers.get('x-page-cache')).toBe('HIT');
    // The page server's own headers reach the browser: it is told to revalidate.
    expect(again.headers.get('cache-control')).toBe('no-cache');
    expect(again.headers.get('content-security-policy')).toBe("default-src 'self'");
    // "Not found" is kept as well; another address is another render.
    await get(`${cached}/missing`);
    expect((await get(`${cached}/missing`)).status).toBe(404);
    expect(rendersOf('/missing')).toBe(1);
  });

  it('never keeps a page its page server sent unrendered: the next visitor gets a render', async () => {
    for (let i = 0; i < 2; i++) expect((await get(`${cached}/unrendered`)).headers.get('x-page-cache')).toBe('MISS');
    expect(rendersOf('/unrendered')).toBe(2);
  });

  it("never keeps a logged-in visitor's page, and sends its page server the visitor's cookies as they are", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await get(`${cached}/user/me`, { cookie: 'loggedIn=yes; session=abc' });
      expect(res.headers.get('x-page-cache')).toBe('BYPASS');
    }
    expect(rendersOf('/user/me')).toBe(2);
    expect(renders).toContain('/user/me loggedIn=yes; session=abc');
    // A visitor's page after a member's: rendered for the visitor, not the member's copy.
    await get(`${cached}/user/me`);
    expect(rendersOf('/user/me')).toBe(3);
  });

  it("serves a loggedIn=yes claim without a live session the visitors' kept page: the claim buys no render", async () => {
    const checksBefore = sessionChecks.length;
    const visitor = await get(`${cached}/claims`);
    expect(visitor.headers.get('x-page-cache')).toBe('MISS');
    expect(rendersOf('/claims')).toBe(1);
    // A visitor's request is never checked: it claims nothing.
    expect(sessionChecks.length).toBe(checksBefore);
    const forged = [
      'loggedIn=yes',
      'loggedIn=yes; session=forged',
      'session=; loggedIn=yes',
      'loggedIn=yes; session=abcd',
    ];
    const claims = await Promise.all(forged.map((cookie) => send(`${cached}/claims`, { cookie })));
    for (const [i, claim] of claims.entries()) {
      expect([claim.status, claim.headers['x-page-cache']], forged[i]).toEqual([200, 'HIT']);
      // The visitors' page, rendered with no cookie of theirs.
      expect(claim.body).toContain('cookie=[]');
    }
    expect(rendersOf('/claims')).toBe(1);
    // Only the claims with a session cookie were worth asking the page server about.
    expect(sessionChecks.slice(checksBefore).sort()).toEqual(
      forged.filter((cookie) => /session=[^;]/.test(cookie)).sort(),
    );
  });

  it("renders a live session's page for its visitor, never from the kept copy, and keeps it for nobody", async () => {
    await get(`${cached}/claimed`);
    expect(rendersOf('/claimed')).toBe(1);
    for (let i = 0; i < 2; i++) {
      const member = await send(`${cached}/claimed`, { cookie: 'loggedIn=yes; session=abc' });
      expect(member.headers['x-page-cache']).toBe('BYPASS');
      expect(member.body).toContain('cookie=[loggedIn=yes; session=abc]');
    }
    expect(rendersOf('/claimed')).toBe(3);
    // The visitor after them gets the visitors' copy, not a member's page.
    const visitor = await send(`${cached}/claimed`);
    expect([visitor.headers['x-page-cache'], visitor.body.includes('cookie=[]')]).toEqual(['HIT', true]);
  });

  it("never keeps a page load's beacon token: each load gets its own from the page server; a remote has none", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await get(`${cached}/platform/rum-token`);
      expect(res.headers.get('x-page-cache')).toBe('BYPASS');
    }
    expect(rendersOf('/platform/rum-token')).toBe(2);
    // The real page server behind nginx: two loads, two ids, neither kept.
    const loads = await Promise.all(
      [0, 1].map(async () => {
        const res = await get(`${shell}/platform/rum-token`);
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        return ((await res.json()) as { load: string }).load;
      }),
    );
    expect(new Set(loads).size).toBe(2);
    expect((await get(`${remote}/platform/rum-token`)).status).toBe(404);
  });

  it('compresses pages for clients that accept it', async () => {
    const res = await get(`${cached}/events`, { 'accept-encoding': 'gzip' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // What the page server was asked for is uncompressed: nginx keeps one copy for every client.
    expect(renders.every((r) => !r.includes('gzip'))).toBe(true);
  });
});

describe('the key of a kept page: what changes the page, and nothing a visitor can forge (issue 38, item 4)', () => {
  const rendersOf = (path: string) => renders.filter((r) => r.startsWith(`${path} `));
  /** The label of the versions nginx keys a cohort's page by (a probe nobody keeps). */
  const versionsOf = async (cookie: string) =>
    String(
      (await send(`${cached}/probe`, { cookie: `loggedIn=yes; session=abc; ${cookie}` })).headers['x-page-versions'],
    );
  /** Publishes a discovery document and waits until nginx keys pages by its table. */
  async function release(doc: object, split: boolean) {
    discovery = doc;
    await cachedNginx.refreshVersions();
    await vi.waitFor(
      async () => {
        const [five, fifty] = [await versionsOf('platform-cohort=5'), await versionsOf('platform-cohort=50')];
        if ((five !== fifty) !== split || !five.startsWith('v'))
          throw new Error('nginx did not take the new table of versions');
      },
      { timeout: 5_000, interval: 100 },
    );
  }

  it('names pages by the configured origin, never the Host header, and a forged Host changes no kept page', async () => {
    const { port } = new URL(rendered);
    const origin = `http://localhost:${port}`;
    const forged = await send(`${rendered}/events`, { host: 'evil.example' });
    expect(forged.status).toBe(200);
    expect(forged.body).toContain(`<link rel="canonical" href="${origin}/events" />`);
    expect(forged.body).toContain(`<meta property="og:url" content="${origin}/events" />`);
    expect(forged.body).not.toContain('evil.example');
    // The visitor after it gets the same kept page, named by the configured origin.
    const next = await send(`${rendered}/events`);
    expect(next.headers['x-page-cache']).toBe('HIT');
    expect(next.body).toContain(`<link rel="canonical" href="${origin}/events" />`);
    expect(next.body).not.toContain('evil.example');
  });

  it("reads the cookies as the pages and their servers do (the platform's cookie table, issue 38, item 6)", async () => {
    const headers = [
      'platform-cohort=5',
      'platform-cohort=05',
      'platform-cohort=50; platform-cohort=7',
      'a=1;platform-cohort=99',
      'platform-cohort=5x',
      'platform-cohort=100',
      'platform-cohort=',
      'xplatform-cohort=5',
      'platform-cohort=5 ; b=2',
      'loggedIn=yes',
      'a=1;  loggedIn=yes; b=2',
      'loggedIn=no; loggedIn=yes',
      'loggedIn=yes2',
      'myloggedIn=yes',
      'loggedIn=YES',
    ];
    for (const [i, cookie] of headers.entries()) {
      // With a live session: what is left to tell a member from a visitor is the loggedIn cookie.
      const answer = await send(`${cached}/cookie-table/${i}`, { cookie: `${cookie}; session=abc` });
      const kept = answer.headers['x-page-cache'] !== 'BYPASS';
      expect(kept, `${cookie}: kept as a visitor's page`).toBe(!loggedInIn(cookie));
      // A kept page's render is sent the cohort nginx read, as the pages read it.
      if (kept) {
        const cohort = cohortIn(cookie);
        expect(answer.body, cookie).toContain(cohort === null ? 'cookie=[]' : `cookie=[platform-cohort=${cohort}]`);
      }
    }
  });

  it('with no canary running, every cohort (none, a malformed one) shares one page', async () => {
    await release(noCanary, false);
    const cookies = ['platform-cohort=5', 'platform-cohort=50', '', 'platform-cohort=5x', 'platform-cohort=07', 'x=1'];
    const statuses = [];
    for (const cookie of cookies) statuses.push((await send(`${cached}/about`, { cookie })).headers['x-page-cache']);
    expect(statuses).toEqual(['MISS', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT']);
    expect(rendersOf('/about')).toHaveLength(1);
  });

  it('with a canary, one page per set of versions; a cohort that is not one ("5x") is kept as no cohort, never as 5', async () => {
    await release(canaryAt10, true);
    try {
      // "5x" is no cohort to the shell: the page server renders it undecided, and is sent no cohort.
      const malformed = await send(`${cached}/canary`, { cookie: 'platform-cohort=5x; theme=dark' });
      expect(malformed.headers['x-page-cache']).toBe('MISS');
      expect(malformed.body).toContain('cookie=[]');
      // Cohort 5 is in the canary's 10 %: its own render, not the undecided page.
      const five = await send(`${cached}/canary`, { cookie: 'platform-cohort=5' });
      expect(five.headers['x-page-cache']).toBe('MISS');
      expect(five.body).toContain('cookie=[platform-cohort=5]');
      // Cohorts on the same versions share: 7 and "03" take 5's page, 90 takes 50's.
      expect((await send(`${cached}/canary`, { cookie: 'platform-cohort=7' })).headers['x-page-cache']).toBe('HIT');
      expect((await send(`${cached}/canary`, { cookie: 'platform-cohort=03' })).headers['x-page-cache']).toBe('HIT');
      const fifty = await send(`${cached}/canary`, { cookie: 'platform-cohort=50' });
      expect([fifty.headers['x-page-cache'], fifty.body.includes('cookie=[platform-cohort=50]')]).toEqual([
        'MISS',
        true,
      ]);
      expect((await send(`${cached}/canary`, { cookie: 'platform-cohort=90' })).headers['x-page-cache']).toBe('HIT');
      // No cohort at all is the undecided page, kept once.
      expect((await send(`${cached}/canary`)).headers['x-page-cache']).toBe('HIT');
      expect(rendersOf('/canary').map((r) => r.slice('/canary '.length))).toEqual([
        '',
        'platform-cohort=5',
        'platform-cohort=50',
      ]);
    } finally {
      await release(noCanary, false);
    }
  });

  it('keeps only the query the pages read: another parameter neither splits nor poisons the page of the address', async () => {
    for (const query of ['?utm_source=a', '?utm_source=b&x=%3Cscript%3E', '', '?%73haringId=z', '?SHARINGID='])
      expect((await send(`${cached}/community${query}`)).status).toBe(200);
    // One render, of the bare address: no parameter reached the page server.
    expect(rendersOf('/community')).toEqual(['/community ']);
    expect(renders.some((r) => r.includes('utm_source') || r.includes('script'))).toBe(false);
    const plain = await send(`${cached}/community`);
    expect([plain.headers['x-page-cache'], plain.body.includes('<title>/community</title>')]).toEqual(['HIT', true]);
    // The order page reads its sharingId: a page per value, and only that reaches the page server.
    await send(`${cached}/eventorder/1?sharingId=a`);
    await send(`${cached}/eventorder/1?utm_source=x&sharingId=a`);
    await send(`${cached}/eventorder/1?sharingId=b`);
    expect(rendersOf('/eventorder/1?sharingId=a')).toHaveLength(1);
    expect(rendersOf('/eventorder/1?sharingId=b')).toHaveLength(1);
    expect(rendersOf('/eventorder/1')).toHaveLength(0);
  });

  it("renders a tester's ?version= page from the whole query and keeps it for nobody", async () => {
    const query = '?version=media@aaaaaaaaaaaa&version=header@bbbbbbbbbbbb&utm_source=a';
    for (let i = 0; i < 2; i++) {
      const res = await send(`${cached}/tester${query}`, { cookie: 'platform-cohort=5; x=1' });
      expect(res.headers['x-page-cache']).toBe('BYPASS');
    }
    expect(rendersOf(`/tester${query}`)).toEqual([
      `/tester${query} platform-cohort=5; x=1`,
      `/tester${query} platform-cohort=5; x=1`,
    ]);
    // The plain page is not the tester's.
    expect((await send(`${cached}/tester`)).headers['x-page-cache']).toBe('MISS');
  });

  it('keys on every query parameter a page reads (the sources, read here, against the template)', () => {
    const root = join(import.meta.dirname, '..');
    const folders = [
      'shell/src',
      'shared/src',
      // The version choice the browser and the page server share.
      'shared/node',
      ...readdirSync(root)
        .filter((name) => name.startsWith('mf-'))
        .map((name) => `${name}/src`),
    ];
    const read = new Set<string>();
    for (const folder of folders)
      for (const file of readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })) {
        if (!/\.(tsx?|mjs)$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
        const text = readFileSync(join(root, folder, file), 'utf8');
        if (!/useSearchParams\(|\bURLSearchParams\b/.test(text)) continue;
        // `.get('name')`, or `.getAll(NAME)` with `const NAME = 'name'` in the same file.
        for (const [, literal, constant] of text.matchAll(/\.get(?:All)?\((?:'([^']+)'|([A-Z_]+))\)/g)) {
          const value = literal ?? new RegExp(`const ${constant} = '([^']+)'`).exec(text)?.[1];
          if (value) read.add(value);
        }
      }
    expect([...read].sort()).toEqual(['photo', 'q', 'sharingId', 'token', 'version']);
    const template = readFileSync(NGINX_TEMPLATE, 'utf8');
    for (const name of read) expect(template, name).toContain(`$arg_${name}`);
  });
});

describe('pages survive the page server (issue 38, item 3)', () => {
  /** The client-rendered page: the shell's template, its runtime config filled in, the rest left to the browser. */
  function expectClientPage(res: { status: number; body: string }) {
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>client</title>');
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain('<!--#');
    const [block] = compositionBlocks(res.body);
    expect(JSON.parse(block ?? 'null')).toMatchObject({
      config: { apiOrigin: 'http://localhost:4000' },
      discovery: null,
      manifests: { header: null, media: null },
    });
  }

  it('serves a kept page, however stale, when the page server fails, refuses or hangs; else the page the browser renders, with 200', async () => {
    pageServer.mode = 'ok';
    const fresh = await send(`${fragile}/events`);
    expect([fresh.status, fresh.headers['x-page-cache'], fresh.body]).toEqual([
      200,
      'MISS',
      '<!doctype html><title>rendered /events</title>',
    ]);

    // The copy is kept 5 s by nginx's own clock (counted in whole seconds): until then it is a HIT,
    // which asks nothing of the page server; asked again until nginx says the copy is stale.
    pageServer.mode = 'failing';
    const stale = await vi.waitFor(
      async () => {
        const answer = await send(`${fragile}/events`);
        expect(['STALE', 'UPDATING']).toContain(answer.headers['x-page-cache']);
        return answer;
      },
      { timeout: 10_000, interval: 250 },
    );
    expect([stale.status, stale.body]).toEqual([200, '<!doctype html><title>rendered /events</title>']);
    expectClientPage(await send(`${fragile}/never-rendered`));
    // A member's page is never kept, so never served stale: theirs is the client-rendered page.
    // (Their session cannot be checked either: a failing page server answers no check.)
    expectClientPage(await send(`${fragile}/user/me`, { cookie: 'loggedIn=yes; session=abc' }));
    // Not even when the visitors' copy of the address is kept: a claim nobody could check is not a visitor on a guess.
    expectClientPage(await send(`${fragile}/events`, { cookie: 'loggedIn=yes; session=abc' }));
    // A beacon token is not a page: no page stands in for it.
    expect((await send(`${fragile}/platform/rum-token`)).status).toBe(503);

    await stopFragile();
    pageServer.mode = 'down';
    expect((await send(`${fragile}/events`)).body).toBe('<!doctype html><title>rendered /events</title>');
    expectClientPage(await send(`${fragile}/not-rendered-either`));

    pageServer.mode = 'hanging';
    await startFragile();
    const waitedFor = await send(`${fragile}/events`);
    // The kept copy once nginx gave up on the render (an expired copy is not served while it renders).
    expect(waitedFor.body).toBe('<!doctype html><title>rendered /events</title>');
    await vi.waitFor(() => expect(pageServer.abandoned).toEqual(['/events']));
    // Nothing kept: nginx gives up on the page server's render, then the browser renders the page.
    expectClientPage(await send(`${fragile}/hung`));
    await vi.waitFor(() => expect(pageServer.abandoned).toEqual(['/events', '/hung']));
  }, 30_000);

  it('answers every request with a page while the page server is killed under load', async () => {
    await stopFragile();
    pageServer.mode = 'ok';
    await startFragile();
    // Pages kept a moment ago, and pages nobody asked for yet.
    const load = (round: number) =>
      Promise.all(
        ['/events', '/events', '/faq', '/community', ...Array.from({ length: 8 }, (_, i) => `/cold/${round}/${i}`)].map(
          (path) => send(`${fragile}${path}`),
        ),
      );
    const warm = await load(0);
    // Killed while renders are under way (held unanswered), then a round with it gone.
    pageServer.mode = 'hanging';
    const during = load(1);
    await vi.waitFor(() => expect(pageServer.asked.filter((url) => url.startsWith('/cold/1/'))).toHaveLength(8));
    await stopFragile();
    pageServer.mode = 'down';
    const answers = [...warm, ...(await during), ...(await load(2))];
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const titles = answers.map((a) => /<title>([^<]*)<\/title>/.exec(a.body)?.[1]);
    // The kept pages as they were; the others, whose render was cut short or never began, client-rendered.
    const round = ['rendered /events', 'rendered /events', 'rendered /faq', 'rendered /community'];
    const cold = Array.from({ length: 8 }, () => 'client');
    expect(titles.slice(12)).toEqual([...round, ...cold, ...round, ...cold]);
  });
});
