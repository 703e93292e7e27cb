/**
 * The API gateway (api/gateway/nginx.conf, Debian's nginx) in front of two instances on one
 * PostgreSQL database: requests spread over both, sessions hold whichever answers, a websocket
 * upgrade passes through to an instance, the operator routes are refused, each browser is counted
 * as itself (behind a load balancer too, whatever X-Forwarded-For it sends), and when one instance
 * is gone the other serves everything. The instances share an external broker (a stand-in:
 * test/standInBroker.ts), as several on one database must, so none serves a broker at /mqtt;
 * pages reach the broker's own websocket (RabbitMQ's, test/external-broker.test.ts).
 * PostgreSQL project only (vitest.config.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from 'api/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_WEBSOCKET_PATH } from '@marketplace/shared/contract';
import {
  ADMIN_TOKEN,
  awayFromWindowEnd,
  DEMO_PASSWORD,
  freePort,
  replicas,
  SHELL_ORIGIN,
  type TestApi,
  TestClient,
  signedBeaconBody,
} from './harness.js';

const INSTANCE = 'x-api-instance';
/**
 * Loopback addresses stand for machines: the gateway reaches the instances from 127.0.0.1, a
 * load balancer in front of it is 127.0.0.3, a browser reaching it directly 127.0.0.2. The
 * instances trust the gateway and the load balancer.
 */
const LOAD_BALANCER = '127.0.0.3';
const BROWSER = '127.0.0.2';
const BEACONS_PER_MINUTE = 2;

/** A request sent from `from`, its path as written (fetch would resolve it first). */
function send(
  url: string,
  {
    method = 'GET',
    path = '/',
    from = '127.0.0.1',
    headers = {},
    body = '',
  }: {
    method?: string;
    path?: string;
    from?: string;
    headers?: Record<string, string>;
    body?: string;
  },
): Promise<{ status: number; instance: string | undefined }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers, localAddress: from }, (res) => {
      res.resume();
      res.on('end', () => {
        const instance = res.headers[INSTANCE];
        resolve({ status: res.statusCode ?? 0, instance: typeof instance === 'string' ? instance : undefined });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A page load's real-user beacon (counted per client: BEACONS_PER_MINUTE, then 429). */
const beacon = (url: string, from: string, forwardedFor?: string) =>
  send(url, {
    method: 'POST',
    path: '/rum',
    from,
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      origin: SHELL_ORIGIN,
      ...(forwardedFor && { 'x-forwarded-for': forwardedFor }),
    },
    body: signedBeaconBody(),
  }).then((r) => r.status);

describe('two instances behind the gateway', () => {
  let group: Awaited<ReturnType<typeof replicas>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let workDir: string;
  beforeAll(async () => {
    group = await replicas(2, {
      API_TRUSTED_PROXIES: `127.0.0.1,${LOAD_BALANCER}`,
      RUM_BEACONS_PER_MINUTE: String(BEACONS_PER_MINUTE),
    });
    workDir = mkdtempSync(join(tmpdir(), 'gateway-test-'));
    gateway = await startGateway({
      port: await freePort(),
      upstreams: group.apis.map((api) => new URL(api.url).host),
      workDir,
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await group?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('spreads requests over both instances, and a session holds whichever answers', async () => {
    const browser = new TestClient(gateway.url);
    const login = await browser.call('login', { login: 'clara', password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    const served = new Set<string | null>([login.headers.get(INSTANCE)]);
    for (let i = 0; i < 6; i++) {
      const reply = await browser.call('getUserInfo');
      expect([reply.status, reply.body.profileName]).toEqual([200, 'clara']);
      served.add(reply.headers.get(INSTANCE));
    }
    expect([...served].sort()).toEqual(['api-1', 'api-2']);
  });

  // Several instances on one database no longer embed a broker (an instance that would refuses to
  // start), so what passes through is the upgrade itself, which an instance answers: it has no
  // /mqtt of its own, and the pages' logins are for the external broker.
  it('passes a websocket upgrade through to an instance, which on an external broker serves no /mqtt', async () => {
    const clara = new TestClient(gateway.url);
    await clara.call('login', { login: 'clara', password: DEMO_PASSWORD });
    const credentials = await clara.call('getLiveCredentials');
    expect(credentials.status).toBe(200);
    const answer = await new Promise<{ status: number; instance: string | undefined }>((resolve, reject) => {
      const ws = new WebSocket(`${gateway.url.replace('http', 'ws')}${LIVE_WEBSOCKET_PATH}`, 'mqtt', {
        headers: { origin: SHELL_ORIGIN, cookie: clara.cookieHeader },
      });
      ws.once('unexpected-response', (_req, res) => {
        const instance = res.headers[INSTANCE];
        resolve({ status: res.statusCode ?? 0, instance: typeof instance === 'string' ? instance : undefined });
        res.resume();
        ws.terminate();
      });
      ws.once('open', () => {
        ws.close();
        resolve({ status: 101, instance: undefined });
      });
      ws.once('error', reject);
    });
    // Answered by an instance (named), not by the gateway, and not upgraded.
    expect(answer.status).toBe(404);
    expect(['api-1', 'api-2']).toContain(answer.instance);
  });

  it('refuses the operator routes itself, however the path is spelled, though an instance would serve them', async () => {
    // An instance serves /internal/* on its internal port (on an external broker it has one).
    const direct = await send(group.apis[1]?.api.internalUrl ?? '', {
      method: 'POST',
      path: '/internal/notify',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ profileName: 'clara', content: 'Straight to an instance' }),
    });
    expect(direct.status).toBe(201);
    for (const path of ['/internal/notify', '/%69nternal/notify', '//internal/notify', '/v2/../internal/notify']) {
      const reply = await send(gateway.url, {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ profileName: 'clara', content: 'Through the gateway' }),
      });
      // Answered by the gateway: no instance saw it.
      expect([path, reply.status, reply.instance]).toEqual([path, 404, undefined]);
    }
    const figures = await send(gateway.url, {
      path: '/internal/rum/figures',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect([figures.status, figures.instance]).toEqual([404, undefined]);
  });

  it('counts a browser as itself: addresses it writes into X-Forwarded-For are ignored', async () => {
    await awayFromWindowEnd();
    const statuses = [];
    for (let i = 0; i <= BEACONS_PER_MINUTE; i++) statuses.push(await beacon(gateway.url, BROWSER, `198.51.100.${i}`));
    expect(statuses).toEqual([...Array<number>(BEACONS_PER_MINUTE).fill(204), 429]);
  });

  it('counts each browser behind a trusted load balancer as itself, not the balancer as one client', async () => {
    await awayFromWindowEnd();
    const statuses = [];
    // The balancer appends each browser's address; a browser's own spoofed entry stays to its left.
    for (const browser of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      for (let i = 0; i < BEACONS_PER_MINUTE; i++)
        statuses.push(await beacon(gateway.url, LOAD_BALANCER, `10.9.9.${i}, ${browser}`));
    expect(statuses).toEqual(Array<number>(3 * BEACONS_PER_MINUTE).fill(204));
    // The next from one of them is one too many.
    expect(await beacon(gateway.url, LOAD_BALANCER, '203.0.113.2')).toBe(429);
  });

  it('serves everything through the other instance once one is gone, and sessions survive', async () => {
    const max = new TestClient(gateway.url);
    expect((await max.call('login', { login: 'max', password: DEMO_PASSWORD })).status).toBe(200);
    await (group.apis[0] as TestApi).api.close();
    const replies = [];
    for (let i = 0; i < 6; i++) {
      replies.push(await max.call('getUserInfo'));
      replies.push(await max.call('addCartItem', { identifier: `ci-photo-00${i + 1}`, itemType: 'CONTENT' }));
    }
    // Every request answered (a photo max owns or not for sale is a 400, not a failure) by api-2.
    expect(replies.map((r) => r.status).filter((s) => s >= 500 || s === 401)).toEqual([]);
    expect(new Set(replies.map((r) => r.headers.get(INSTANCE)))).toEqual(new Set(['api-2']));
  });
});
