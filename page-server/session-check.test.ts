import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApp, stopServer } from './serve.ts';
import { SESSION_CHECK_PATH, sessionStatus } from './session-check.mjs';

// The check nginx makes of a loggedIn=yes claim before it renders past its page cache
// (app.conf.template; nginx.test.ts runs it through nginx): a live session only, as the API says.

/** The API's answer to GET /v2/userInfo, as the test sets it; each call's Cookie header. */
const api = { mode: 'ok' as 'ok' | 'failing' | 'hanging', calls: [] as string[] };
let apiServer: Server;
let apiOrigin = '';
let pageServer: Server;
let pages = '';
beforeAll(async () => {
  apiServer = createServer((req, res) => {
    api.calls.push(`${req.method} ${req.url} ${req.headers.cookie ?? ''}`);
    if (api.mode === 'hanging') return;
    if (api.mode === 'failing') return void res.writeHead(503).end();
    const live = req.url === '/v2/userInfo' && req.headers.cookie === 'session=live-token';
    res.writeHead(live ? 200 : 401, { 'Content-Type': 'application/json' }).end(live ? '{"id":"u1"}' : '{}');
  });
  await new Promise<void>((resolve) => apiServer.listen(0, '127.0.0.1', resolve));
  apiOrigin = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'session-check-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>');
  pageServer = await serveApp({ dir, port: 0, log: false, env: { API_ORIGIN: apiOrigin } });
  pages = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await stopServer(pageServer);
  apiServer.closeAllConnections();
  await new Promise<void>((resolve) => apiServer.close(() => resolve()));
});

describe("the page server's session check", () => {
  it('answers 204 for a session the API knows, sending it the session cookie alone; 401 for any other', async () => {
    api.mode = 'ok';
    api.calls = [];
    const check = (cookie: string) => sessionStatus({ cookie, apiOrigin });
    expect(await check('loggedIn=yes; session=live-token; other=secret')).toBe(204);
    expect(api.calls).toEqual(['GET /v2/userInfo session=live-token']);
    expect(await check('loggedIn=yes; session=forged')).toBe(401);
    expect(await check('loggedIn=yes; session=')).toBe(401);
    // No session cookie at all: not even asked.
    api.calls = [];
    expect(await check('loggedIn=yes')).toBe(401);
    expect(api.calls).toEqual([]);
  });

  it('answers 502 when the API cannot tell (failing, late, down): never "live" on a guess', async () => {
    api.mode = 'failing';
    expect(await sessionStatus({ cookie: 'session=live-token', apiOrigin })).toBe(502);
    api.mode = 'hanging';
    expect(await sessionStatus({ cookie: 'session=live-token', apiOrigin, timeoutMs: 200 })).toBe(502);
    expect(await sessionStatus({ cookie: 'session=live-token', apiOrigin: 'http://127.0.0.1:9' })).toBe(502);
  });

  it('is served by serve-app at the path nginx asks, never stored', async () => {
    api.mode = 'ok';
    const live = await fetch(`${pages}${SESSION_CHECK_PATH}`, {
      headers: { cookie: 'loggedIn=yes; session=live-token' },
    });
    expect([live.status, live.headers.get('cache-control')]).toEqual([204, 'no-store']);
    const forged = await fetch(`${pages}${SESSION_CHECK_PATH}`, { headers: { cookie: 'loggedIn=yes; session=x' } });
    expect(forged.status).toBe(401);
  });
});
