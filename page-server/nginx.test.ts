import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTemplate, startNginx, templateVariables } from './nginx.mjs';
import { freePort } from '@marketplace/shared/node/ports';

// Debian's nginx with the images' template, serving a small build as the shell and as a remote.
const dir = mkdtempSync(join(tmpdir(), 'nginx-test-'));
// nginx's workers run as another user when started as root: they must be able to read the build.
chmodSync(dir, 0o755);
const dist = join(dir, 'dist');
const servers: { stop(): Promise<void> }[] = [];
let shell = '';
let remote = '';

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
  const env = { API_ORIGIN: 'http://localhost:4000', LIVE_URL: 'ws://localhost:9001' };
  const shellPort = await freePort();
  const remotePort = await freePort();
  servers.push(await startNginx({ dist, port: shellPort, fallback: '/index.html', env, workDir: join(dir, 'shell') }));
  servers.push(await startNginx({ dist, port: remotePort, fallback: '=404', env, workDir: join(dir, 'remote') }));
  shell = `http://127.0.0.1:${shellPort}`;
  remote = `http://127.0.0.1:${remotePort}`;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers: { 'accept-encoding': 'identity', ...headers } });

describe('the nginx template', () => {
  it('keeps nginx variables and fills only the defined ones, as the image does', () => {
    const conf = renderTemplate(templateVariables({ dist, port: 80, fallback: '=404', env: {} }));
    expect(conf).toContain('$uri');
    expect(conf).toContain('try_files $uri $uri/ =404;');
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
