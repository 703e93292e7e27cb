import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTemplate, startNginx, templateVariables } from './nginx.mjs';
import { freePort } from '@marketplace/shared/node/ports';

// Debian's nginx with the images' template, serving a small build as the shell and as a remote.
// A folder only its owner may enter (mkdtemp's 0700), as a checkout may be: nginx's workers run as
// the user who started nginx, root included, so they read the build all the same.
const dir = mkdtempSync(join(tmpdir(), 'nginx-test-'));
const dist = join(dir, 'dist');
const servers: { stop(): Promise<void> }[] = [];
let shell = '';
let remote = '';
/** A shell whose pages come from a page server that counts its renders. */
let cached = '';
const renders: string[] = [];

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
    // The shell's page server signs each page load's beacon token (rum-token.mjs).
    RUM_TOKEN_KEY: 'nginx-test-key-0123456789abcdef0123',
  };
  const shellPort = await freePort();
  const remotePort = await freePort();
  servers.push(await startNginx({ dist, port: shellPort, fallback: '@page', env, workDir: join(dir, 'shell') }));
  servers.push(await startNginx({ dist, port: remotePort, fallback: '=404', env, workDir: join(dir, 'remote') }));
  shell = `http://127.0.0.1:${shellPort}`;
  remote = `http://127.0.0.1:${remotePort}`;
  const pageServer = createServer((req, res) => {
    renders.push(`${req.url} ${req.headers.cookie ?? ''}`);
    // Rendering takes a moment: a burst arrives while the first render is under way.
    setTimeout(() => {
      res
        .writeHead(req.url === '/missing' ? 404 : 200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-cache',
          'Content-Security-Policy': "default-src 'self'",
          Vary: 'Accept-Encoding, Cookie',
        })
        .end(`<!doctype html><title>${req.url}</title>${'<p>page</p>'.repeat(200)}`);
    }, 200);
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  servers.push({ stop: () => new Promise<void>((resolve) => pageServer.close(() => resolve())) });
  const cachedPort = await freePort();
  servers.push(
    await startNginx({
      dist,
      port: cachedPort,
      fallback: '@page',
      env,
      workDir: join(dir, 'cached'),
      pageUpstream: `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`,
    }),
  );
  cached = `http://127.0.0.1:${cachedPort}`;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers: { 'accept-encoding': 'identity', ...headers } });

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

  it("never keeps a logged-in visitor's page, and keeps each canary cohort's apart", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await get(`${cached}/user/me`, { cookie: 'loggedIn=yes; session=abc' });
      expect(res.headers.get('x-page-cache')).toBe('BYPASS');
    }
    expect(rendersOf('/user/me')).toBe(2);
    // A visitor's page after a member's: rendered for the visitor, not the member's copy.
    await get(`${cached}/user/me`);
    expect(rendersOf('/user/me')).toBe(3);
    await get(`${cached}/faq`, { cookie: 'platform-cohort=5' });
    await get(`${cached}/faq`, { cookie: 'platform-cohort=50' });
    await get(`${cached}/faq`, { cookie: 'platform-cohort=5' });
    expect(rendersOf('/faq')).toBe(2);
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
