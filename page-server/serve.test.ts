import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compositionTemplate } from './page-composition.ts';
import { renderLimit } from './render-page.ts';
import { serveApp, stopServer } from './serve.ts';

let server: Server;
let base: string;
let dir: string;
/** The built page: a title and one inline script (as the shell's boot script). */
const PAGE = '<!doctype html><title>app</title><script>window.booted=1</script>';
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'serve-test-'));
  writeFileSync(join(dir, 'index.html'), PAGE);
  writeFileSync(join(dir, 'main.js'), 'console.log("main")');
  writeFileSync(join(dir, 'mf-manifest.json'), '{"id":"x"}');
  writeFileSync(join(dir, 'chunk.0123abcd.js'), 'x'.repeat(5000));
  server = await serveApp({
    dir,
    port: 0,
    log: false,
    env: { API_ORIGIN: 'https://api.example.com', MEDIA_MANIFEST_URL: 'https://media.example.com/mf-manifest.json' },
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('serve-app', () => {
  it('serves the manifest and fixed-name entries no-cache, with CORS and an ETag', async () => {
    const res = await fetch(`${base}/mf-manifest.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const etag = res.headers.get('etag') as string;
    expect((await fetch(`${base}/mf-manifest.json`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(`${base}/main.js`)).headers.get('cache-control')).toBe('no-cache');
  });

  it('serves pages with a Content-Security-Policy naming the configured origins, and scripts without one', async () => {
    const csp = (await fetch(`${base}/user/login`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain(
      `script-src 'self' ${sha256('window.booted=1')} http://localhost:3001 https://media.example.com `,
    );
    expect(csp).toContain("connect-src 'self' https://api.example.com wss://api.example.com");
    expect(csp).toContain("img-src 'self' data: https://api.example.com");
    expect(csp).not.toContain('unsafe-eval');
    expect((await fetch(`${base}/main.js`)).headers.get('content-security-policy')).toBeNull();
  });

  it('allows the inline script of the page as deployed: a new build with another script, its hash only', async () => {
    writeFileSync(join(dir, 'index.html'), PAGE.replace('booted=1', 'booted=2'));
    try {
      const csp = (await fetch(`${base}/`)).headers.get('content-security-policy') ?? '';
      expect(csp).toContain(sha256('window.booted=2'));
      expect(csp).not.toContain(sha256('window.booted=1'));
    } finally {
      writeFileSync(join(dir, 'index.html'), PAGE);
    }
  });

  it('serves hashed chunks immutable for a year, gzipped when asked, with CORS', async () => {
    // node:http, because fetch would decompress the body before we see it.
    const { headers, body } = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        get(`${base}/chunk.0123abcd.js`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
        }).on('error', reject);
      },
    );
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Another origin's page loads a remote's chunks with crossorigin="anonymous", so that their
    // errors carry their stack (issue 39, item 1): without this header they would not load at all.
    expect(headers['access-control-allow-origin']).toBe('*');
    expect(headers['content-encoding']).toBe('gzip');
    expect(body.length).toBeLessThan(200);
    expect(gunzipSync(body).toString()).toBe('x'.repeat(5000));
  });

  it('writes runtime-config.json from the environment, with defaults for the rest', async () => {
    const res = await fetch(`${base}/runtime-config.json`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      apiOrigin: 'https://api.example.com',
      filesOrigin: 'https://api.example.com',
      liveUrl: 'wss://api.example.com/mqtt',
      remotes: {
        header: 'http://localhost:3001/mf-manifest.json',
        media: 'https://media.example.com/mf-manifest.json',
        eventOrder: 'http://localhost:3003/mf-manifest.json',
        account: 'http://localhost:3004/mf-manifest.json',
      },
      allowVersionOverride: false,
      allowLocalRemotes: false,
      rumSample: 1,
    });
  });

  it('answers client routes with the page, and a missing asset or traversal with an error', async () => {
    const page = await fetch(`${base}/user/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>app</title>');
    expect((await fetch(`${base}/missing.js`)).status).toBe(404);
    // An encoded '..' cannot climb out: it resolves inside the folder, to the app's page at most.
    const climb = await (await fetch(`${base}/..%2F..%2Fetc%2Fpasswd`)).text();
    expect(climb).not.toContain('root:');
    expect(climb).toContain('<title>app</title>');
    expect((await fetch(`${base}/main.js`, { method: 'POST' })).status).toBe(405);
  });

  it('never serves a hidden file or one in a hidden folder, however the path is spelled', async () => {
    // A release store served whole keeps its webhook addresses and its lock beside discovery.json.
    writeFileSync(join(dir, '.webhooks.json'), '{"header":"https://hooks.example/secret"}');
    mkdirSync(join(dir, '.lock'), { recursive: true });
    writeFileSync(join(dir, '.lock', 'owner.json'), '{"pid":1}');
    for (const path of ['/.webhooks.json', '/%2Ewebhooks.json', '/x/../.webhooks.json', '/.lock/owner.json']) {
      const res = await fetch(`${base}${path}`);
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.text()).not.toContain('hooks.example');
    }
    expect((await fetch(`${base}/mf-manifest.json`)).status).toBe(200);
  });
});

/**
 * A shell build that renders: its page, and `render` (CommonJS) standing in for its server build.
 * Returns its browser build's folder.
 */
function standInShell(render: string): string {
  const build = mkdtempSync(join(tmpdir(), 'serve-shell-'));
  const dist = join(build, 'dist');
  mkdirSync(dist);
  mkdirSync(join(build, 'dist-server'));
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><head><title>shell</title>${compositionTemplate(false)}</head>`,
  );
  writeFileSync(join(build, 'dist-server', 'render.cjs'), render);
  return dist;
}

describe("a rendered page's own address (issue 38, item 4)", () => {
  // Its server build names the page by the origin the page server gives it.
  const dist = standInShell(`exports.singletons = {};
exports.renderDocument = async ({ template, url, origin }) => ({
  status: 200, problems: [], personal: false,
  body: template.replace('</head>', '<link rel="canonical" href="' + origin + new URL(url, 'http://page').pathname + '" /></head>'),
});`);
  /** The page at `path` with a forged Host header (fetch cannot set one). */
  const canonicalOf = (server: Server, path: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      request({ host: '127.0.0.1', port, path, headers: { host: 'evil.example' } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(/<link rel="canonical" href="([^"]*)"/.exec(body)?.[1]));
      })
        .on('error', reject)
        .end();
    });
  const serve = (env: NodeJS.ProcessEnv, host?: string) =>
    (async () => serveApp({ dir: dist, port: 0, host, env, log: false }))();

  it('names the page by PUBLIC_ORIGIN, or by its own localhost address, never by the Host header', async () => {
    const configured = await serve({ PUBLIC_ORIGIN: 'https://shop.example.com/' });
    const own = await serve({});
    try {
      expect(await canonicalOf(configured, '/events?from=x')).toBe('https://shop.example.com/events');
      expect(await canonicalOf(own, '/events')).toBe(`http://localhost:${(own.address() as AddressInfo).port}/events`);
    } finally {
      await Promise.all([stopServer(configured), stopServer(own)]);
    }
  });

  it('refuses to render pages for others without PUBLIC_ORIGIN, or with one that is not an origin', async () => {
    await expect(serve({ NODE_ENV: 'production' })).rejects.toThrow(/PUBLIC_ORIGIN is not set/);
    await expect(serve({}, '0.0.0.0')).rejects.toThrow(/PUBLIC_ORIGIN is not set/);
    await expect(serve({ PUBLIC_ORIGIN: 'https://shop.example.com/shop' })).rejects.toThrow(/must be an origin/);
    await expect(serve({ PUBLIC_ORIGIN: 'shop.example.com' })).rejects.toThrow(/must be an origin/);
    // An app whose pages are not rendered (a remote, the single bundle) names no page.
    const remote = await serveApp({
      dir: mkdtempSync(join(tmpdir(), 'serve-remote-')),
      port: 0,
      env: { NODE_ENV: 'production' },
      log: false,
    });
    await stopServer(remote);
  });
});

describe('renders bounded per process (issue 38, item 2)', () => {
  // A shell build whose render takes 200 ms and says how many ran at once.
  const dist = standInShell(`let running = 0;
exports.singletons = {};
exports.renderDocument = async ({ template }) => {
  const atOnce = ++running;
  await new Promise((resolve) => setTimeout(resolve, 200));
  running--;
  return { status: 200, problems: [], personal: false, body: template.replace('</head>', '<meta name="at-once" content="' + atOnce + '"></head>') };
};`);

  it('renders at most PAGE_RENDER_CONCURRENCY at once with PAGE_RENDER_QUEUE waiting; past that the page goes out for the browser to render, with 200, never kept by nginx', async () => {
    const server = await serveApp({
      dir: dist,
      port: 0,
      env: { PAGE_RENDER_CONCURRENCY: '2', PAGE_RENDER_QUEUE: '2' },
      log: false,
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { port } = server.address() as AddressInfo;
      const answers = await Promise.all(
        Array.from({ length: 7 }, () =>
          fetch(`http://localhost:${port}/events`).then(async (r) => ({
            status: r.status,
            kept: r.headers.get('x-accel-expires'),
            atOnce: /<meta name="at-once" content="(\d+)">/.exec(await r.text())?.[1],
          })),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(7).fill(200));
      const rendered = answers.filter((a) => a.atOnce);
      // Two at once, two after them; the other three at once, unrendered, and not for a cache.
      expect(rendered).toHaveLength(4);
      expect(Math.max(...rendered.map((a) => Number(a.atOnce)))).toBe(2);
      expect(rendered.every((a) => a.kept === null)).toBe(true);
      expect(answers.filter((a) => !a.atOnce).map((a) => a.kept)).toEqual(['0', '0', '0']);
      // Once the burst is over, every page is rendered again.
      const after = await fetch(`http://localhost:${port}/events`).then((r) => r.text());
      expect(after).toContain('name="at-once"');
    } finally {
      warn.mockRestore();
      await stopServer(server);
    }
  });
});

describe('a page opened at another loopback name (issue 38, item 9)', () => {
  let local: Server;
  let port = 0;
  beforeAll(async () => {
    const app = mkdtempSync(join(tmpdir(), 'serve-loopback-'));
    writeFileSync(join(app, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(app, 'mf-manifest.json'), '{"id":"x"}');
    local = await serveApp({ dir: app, port: 0, log: false, env: {}, loopbackName: 'localhost' });
    port = (local.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => local.close(() => resolve())));

  /** A request as a browser navigating to `host` sends it (or, without `navigate`, as a page's fetch). */
  const visit = (host: string, path: string, navigate = true) =>
    new Promise<{ status: number; location?: string; cache?: string }>((resolve, reject) => {
      const headers: Record<string, string> = { host };
      if (navigate) headers['sec-fetch-mode'] = 'navigate';
      request({ host: '127.0.0.1', port, path, headers }, (res) => {
        res.resume();
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          cache: res.headers['cache-control'],
        });
      })
        .on('error', reject)
        .end();
    });

  it('sends a navigation at 127.0.0.1 or [::1] to localhost, same port and path, never cached', async () => {
    expect(await visit(`127.0.0.1:${port}`, '/events?x=1')).toEqual({
      status: 308,
      location: `http://localhost:${port}/events?x=1`,
      cache: 'no-store',
    });
    expect((await visit(`[::1]:${port}`, '/')).location).toBe(`http://localhost:${port}/`);
  });

  it('serves a navigation at localhost, and what pages fetch at any name', async () => {
    expect((await visit(`localhost:${port}`, '/events')).status).toBe(200);
    expect((await visit(`127.0.0.1:${port}`, '/mf-manifest.json', false)).status).toBe(200);
    // Not a loopback name: not this rule's to judge.
    expect((await visit(`shop.example.com:${port}`, '/events')).status).toBe(200);
  });
});

describe('a render waiting for a slot (issue 38, item 2)', () => {
  it('waits waitMs at most, then its page goes out unrendered; the slot it never took stays free', async () => {
    const limit = renderLimit({ concurrency: 1, queue: 4, waitMs: 50 });
    let finish: (page: string) => void = () => undefined;
    const slow = limit.run(() => new Promise<string>((resolve) => (finish = resolve)));
    expect(await limit.run(async () => 'too late')).toBeNull();
    expect(limit.waiting).toBe(0);
    finish('rendered');
    expect(await slow).toBe('rendered');
    expect(await limit.run(async () => 'next')).toBe('next');
    expect(limit.running).toBe(0);
  });
});
