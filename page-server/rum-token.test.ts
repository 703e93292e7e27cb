import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@marketplace/shared/node/ports';
import { RUM_TOKEN_PATH, verifyRumToken } from '@marketplace/shared/node/rum-token';
import { compositionTemplate } from './page-composition.ts';
import { pageVersions } from './rum-token.ts';
import { serveApp, stopServer } from './serve.ts';

// A page load's beacon token from the shell's page server (issue 39, item 4): signed for the load
// id it draws and the versions the request's page takes from the release store (a canary by the
// cohort cookie, a tester's ?version=), and never the same twice.
const KEY = 'page-server-test-key-0123456789abcdef';
const LIVE = 'aaaaaaaaaaaa';
const CANARY = 'bbbbbbbbbbbb';
const TESTED = 'cccccccccccc';
const CONFIGURED = 'dddddddddddd';
const dir = mkdtempSync(join(tmpdir(), 'rum-token-test-'));
const servers: Server[] = [];
let store: Server;
let storeUp = true;
let shell = '';
let single = '';
let unsigned = '';

const discovery = {
  remotes: {
    header: {
      live: { version: LIVE, manifest: `header/${LIVE}/mf-manifest.json` },
      canary: { version: CANARY, manifest: `header/${CANARY}/mf-manifest.json`, percent: 25 },
      versions: [LIVE, CANARY, TESTED],
    },
  },
};

beforeAll(async () => {
  store = createServer((req, res) => {
    if (req.url === '/discovery.json' && storeUp)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(discovery));
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
  const shellDist = join(dir, 'shell');
  const singleDist = join(dir, 'single');
  mkdirSync(shellDist);
  mkdirSync(singleDist);
  writeFileSync(join(shellDist, 'index.html'), `<!doctype html><title>shell</title>${compositionTemplate(true)}`);
  writeFileSync(join(singleDist, 'index.html'), `<!doctype html><title>single</title>${compositionTemplate(false)}`);
  const env = {
    API_ORIGIN: 'http://localhost:4000',
    DISCOVERY_URL: `${origin}/discovery.json`,
    // A remote the store does not release, configured at a store version's address.
    MEDIA_MANIFEST_URL: `${origin}/media/${CONFIGURED}/mf-manifest.json`,
    ALLOW_VERSION_OVERRIDE: 'true',
    RUM_TOKEN_KEY: KEY,
  };
  const serve = async (dist: string, extra: Record<string, string | undefined> = {}) => {
    const port = await freePort();
    servers.push(await serveApp({ dir: dist, port, env: { ...env, ...extra }, log: false }));
    return `http://127.0.0.1:${port}`;
  };
  shell = await serve(shellDist);
  single = await serve(singleDist);
  unsigned = await serve(shellDist, { RUM_TOKEN_KEY: undefined });
});
afterAll(async () => {
  await Promise.all(servers.map(stopServer));
  await stopServer(store);
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  load: string;
  token: string;
  versions: Record<string, string[]>;
}

/** The token a page at `search` with `cookie` gets, checked against the key. */
async function tokenFor(base: string, { cookie = '', search = '' } = {}) {
  const res = await fetch(`${base}${RUM_TOKEN_PATH}${search}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const answer = (await res.json()) as Answer;
  const verified = verifyRumToken(KEY, answer.token);
  if (!('claims' in verified)) throw new Error(`token refused: ${verified.problem}`);
  // What the page is told is what the token says.
  expect(verified.claims).toMatchObject({ load: answer.load, versions: answer.versions });
  return verified.claims;
}

describe("the page server's beacon token", () => {
  it("signs the versions the request's page takes: the canary below its share, live above, both before a cohort is drawn", async () => {
    const inCanary = await tokenFor(shell, { cookie: 'session=x; platform-cohort=10' });
    expect(inCanary.versions).toEqual({
      header: [CANARY],
      media: [CONFIGURED],
      eventOrder: ['unreleased'],
      account: ['unreleased'],
    });
    expect(inCanary.cohort).toBe(10);
    expect((await tokenFor(shell, { cookie: 'platform-cohort=25' })).versions.header).toEqual([LIVE]);
    const fresh = await tokenFor(shell);
    expect(fresh.versions.header).toEqual([CANARY, LIVE]);
    expect(fresh.cohort).toBeNull();
  });

  it("signs a tester's version the store holds, not one it does not", async () => {
    const cookie = 'platform-cohort=90';
    expect((await tokenFor(shell, { cookie, search: `?version=header@${TESTED}` })).versions.header).toEqual([TESTED]);
    expect((await tokenFor(shell, { cookie, search: '?version=header@eeeeeeeeeeee' })).versions.header).toEqual([LIVE]);
  });

  it('draws a new load id for every request, and expires in a day', async () => {
    const [a, b] = await Promise.all([tokenFor(shell), tokenFor(shell)]);
    expect(a.load).not.toBe(b.load);
    expect(a.load).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.exp - Date.now() / 1000).toBeGreaterThan(24 * 3600 - 60);
  });

  it("signs every remote unreleased for the single bundle (it builds them in); none when the store's document cannot be read", async () => {
    expect(Object.values((await tokenFor(single, { cookie: 'platform-cohort=1' })).versions)).toEqual([
      ['unreleased'],
      ['unreleased'],
      ['unreleased'],
      ['unreleased'],
    ]);
    storeUp = false;
    try {
      expect((await fetch(`${shell}${RUM_TOKEN_PATH}`)).status).toBe(503);
    } finally {
      storeUp = true;
    }
  });

  it('gives a new browser an id in an HttpOnly cookie and signs it; a browser with one keeps it; a malformed one is replaced', async () => {
    const first = await fetch(`${shell}${RUM_TOKEN_PATH}`);
    const setCookie = first.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(
      /^platform-browser=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/,
    );
    const id = /^platform-browser=([^;]+)/.exec(setCookie)?.[1];
    const signed = verifyRumToken(KEY, ((await first.json()) as Answer).token);
    expect(signed).toMatchObject({ claims: { browser: id } });

    // The same browser again: the same id, and no cookie to set.
    const again = await fetch(`${shell}${RUM_TOKEN_PATH}`, {
      headers: { cookie: `platform-cohort=3; platform-browser=${id}` },
    });
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(verifyRumToken(KEY, ((await again.json()) as Answer).token)).toMatchObject({ claims: { browser: id } });

    // Two browsers without one get two ids; an id not drawn here is not signed.
    const [a, b] = await Promise.all([tokenFor(shell), tokenFor(shell)]);
    expect(a.browser).not.toBe(b.browser);
    const forged = await tokenFor(shell, { cookie: 'platform-browser=attacker-chosen' });
    expect(forged.browser).toMatch(/^[A-Za-z0-9_-]{22}$/);

    // Over HTTPS (as nginx says it was asked) the cookie is Secure.
    const https = await fetch(`${shell}${RUM_TOKEN_PATH}`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('set-cookie')).toMatch(/; Secure$/);
  });

  it('answers 404, never the page, where no key is set', async () => {
    const res = await fetch(`${unsigned}${RUM_TOKEN_PATH}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });
});

describe('pageVersions', () => {
  const config = { remotes: { header: 'http://localhost:3001/mf-manifest.json' } };
  it('takes the configured URL without a release store, and a local build where allowed', () => {
    expect(pageVersions({ config, discovery: null, composes: true, cookie: '', search: '' })?.header).toEqual([
      'unreleased',
    ]);
    const local = { ...config, allowLocalRemotes: true };
    expect(
      pageVersions({ config: local, discovery: null, composes: true, cookie: '', search: '?version=header@local' })
        ?.header,
    ).toEqual(['unreleased']);
  });
});
