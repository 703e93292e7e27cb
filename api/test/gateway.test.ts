/**
 * The API gateway (api/gateway/nginx.conf, Debian's nginx) in front of two instances on one
 * PostgreSQL database: requests spread over both, sessions hold whichever answers, a websocket
 * upgrade passes through, and when one instance is gone the other serves everything.
 * PostgreSQL project only (vitest.config.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from 'api/gateway';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_WEBSOCKET_PATH } from '@marketplace/shared/contract';
import { DEMO_PASSWORD, freePort, replicas, SHELL_ORIGIN, type TestApi, TestClient } from './harness.js';

const INSTANCE = 'x-api-instance';

describe('two instances behind the gateway', () => {
  let group: Awaited<ReturnType<typeof replicas>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let workDir: string;
  beforeAll(async () => {
    group = await replicas(2, { API_TRUST_PROXY: 'true' });
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

  it('passes a websocket upgrade through to an instance', async () => {
    const clara = new TestClient(gateway.url);
    await clara.call('login', { login: 'clara', password: DEMO_PASSWORD });
    const credentials = await clara.call('getLiveCredentials');
    const page = await mqtt.connectAsync(`${gateway.url.replace('http', 'ws')}${LIVE_WEBSOCKET_PATH}`, {
      username: credentials.body.username,
      password: credentials.body.password,
      wsOptions: { headers: { origin: SHELL_ORIGIN } },
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    expect(page.connected).toBe(true);
    await page.endAsync(true);
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
