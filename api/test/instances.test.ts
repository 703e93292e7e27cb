/**
 * Several API instances on one PostgreSQL database (the production topology's replicas): nothing
 * a user relies on lives in one process. PostgreSQL project only (vitest.config.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMosquitto, type LocalBroker } from 'api/mosquitto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE_RULES } from '../src/auth/loginThrottle.js';
import { DEMO_USERS } from '../src/db/seed.js';
import { MIGRATIONS } from '../src/db/migrations.js';
import {
  ADMIN_TOKEN,
  DEMO_PASSWORD,
  freePort,
  replicas,
  type RawBody,
  type Reply,
  type TestApi,
  TestClient,
} from './harness.js';

const INSTANCE = 'x-api-instance';

/** One browser (one cookie jar) whose requests go to the instances in turn, as a load balancer's round robin. */
class BalancedClient extends TestClient {
  private turn = 0;
  constructor(private readonly urls: string[]) {
    super(urls[0] ?? '');
  }
  override fetch<B = RawBody>(url: string, init: Parameters<TestClient['fetch']>[1] = {}): Promise<Reply<B>> {
    const base = this.urls[this.turn++ % this.urls.length] ?? this.base;
    return super.fetch<B>(url.startsWith('http') ? url : `${base}${url}`, init);
  }
}

/** Another client of the same browser (its cookies), talking to another instance. */
function sameBrowserOn(client: TestClient, api: TestApi): TestClient {
  const other = new TestClient(api.url);
  for (const [k, v] of client.cookies) other.cookies.set(k, v);
  return other;
}

describe('several instances on one database', () => {
  let group: Awaited<ReturnType<typeof replicas>>;
  beforeAll(async () => {
    group = await replicas(3, { API_TRUST_PROXY: 'true', LOGIN_FAILURE_DELAY_MS: '1' });
  });
  afterAll(() => group.close());
  const [a, b] = [() => group.apis[0] as TestApi, () => group.apis[1] as TestApi];

  it('started together, apply each migration once and seed once', async () => {
    const [migrations] = await a().rows<{ n: number; top: number }>`
      SELECT COUNT(*) AS n, MAX(version) AS top FROM schema_migrations`;
    expect(migrations).toEqual({ n: MIGRATIONS.length, top: MIGRATIONS.length });
    const [users] = await a().rows<{ n: number }>`SELECT COUNT(*) AS n FROM users`;
    expect(users?.n).toBe(DEMO_USERS.length);
  });

  it('name themselves in every answer, errors included', async () => {
    const ok = await a().client().call('getEvents');
    expect(ok.headers.get(INSTANCE)).toBe('api-1');
    const refused = await b().client().call('getCart', {}, { origin: 'http://evil.example' });
    expect(refused.headers.get(INSTANCE)).toBe('api-2');
    const missing = await b().client().fetch('/no/such/path');
    expect([missing.status, missing.headers.get(INSTANCE)]).toEqual([404, 'api-2']);
  });

  it('share sessions and carts: logged in on one, the user is known on the others', async () => {
    const browser = new BalancedClient(group.apis.map((api) => api.url));
    expect((await browser.call('login', { login: 'clara', password: DEMO_PASSWORD })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await browser.call('checkAuthentication')).status).toBe(200);
    await browser.call('addCartItem', { identifier: 'ci-photo-002', itemType: 'CONTENT' });
    const carts = await Promise.all(
      [0, 1, 2].map(async () => (await browser.call('getCart')).body.cart.map((i) => i.identifier)),
    );
    expect(carts).toEqual([['ci-photo-002'], ['ci-photo-002'], ['ci-photo-002']]);
  });

  it('keep one row when two instances add the same cart item at the same moment', async () => {
    const ana = await a().as('ana');
    const onB = sameBrowserOn(ana, b());
    const item = { identifier: 'ci-photo-002', itemType: 'CONTENT' } as const;
    const replies = await Promise.all([ana.call('addCartItem', item), onB.call('addCartItem', item)]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    const [row] = await a().rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM cart_items c JOIN users u ON c.owner_key = 'u:' || u.id
      WHERE u.profile_name = 'ana' AND c.identifier = 'ci-photo-002'`;
    expect(row?.n).toBe(1);
  });

  it("count a client's failed logins over all instances: 429 as soon as one instance alone would", async () => {
    const from = { headers: { 'x-forwarded-for': '203.0.113.50' } };
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_THROTTLE_RULES.refuseAfterPerAccount; i++) {
      const api = group.apis[i % group.apis.length] as TestApi;
      statuses.push((await api.client().call('login', { login: 'max', password: `guess-${i}` }, from)).status);
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    // Each instance saw at most 4 of the 10 failures; together they are 10, so each refuses.
    for (const api of group.apis) {
      const refused = await api.client().call('login', { login: 'max', password: DEMO_PASSWORD }, from);
      expect(refused.status).toBe(429);
    }
  });

  it('sweep expired sessions on every instance at once without error or leftovers', async () => {
    const leo = await a().as('leo');
    await a().rows`UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z'
      WHERE user_id = (SELECT id FROM users WHERE profile_name = 'leo')`;
    await Promise.all(group.apis.map((api) => api.api.sweep()));
    const [left] = await a().rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM sessions WHERE user_id = (SELECT id FROM users WHERE profile_name = 'leo')`;
    expect(left?.n).toBe(0);
    expect((await leo.call('checkAuthentication')).status).toBe(401);
  });
});

describe('several instances on one external broker', () => {
  const ADMIN = { username: 'api-admin', password: 'test-admin-password' };
  let brokerDir: string;
  let broker: LocalBroker;
  let group: Awaited<ReturnType<typeof replicas>>;
  beforeAll(async () => {
    brokerDir = mkdtempSync(join(tmpdir(), 'mosquitto-replicas-'));
    broker = await startMosquitto({
      mqttPort: await freePort(),
      wsPort: await freePort(),
      dir: brokerDir,
      admin: ADMIN,
    });
    group = await replicas(2, {
      MQTT_BROKER_URL: broker.url,
      MQTT_USERNAME: ADMIN.username,
      MQTT_PASSWORD: ADMIN.password,
      LIVE_PUBLIC_URL: broker.wsUrl,
    });
  });
  afterAll(async () => {
    await group.close();
    await broker.stop();
    rmSync(brokerDir, { recursive: true, force: true });
  });

  it('deliver what one instance publishes to a page whose login another issued, and revoke it from either', async () => {
    const [a, b] = group.apis as [TestApi, TestApi];
    const clara = await a.as('clara');
    const credentials = await clara.call('getLiveCredentials');
    expect([credentials.status, credentials.headers.get(INSTANCE)]).toEqual([200, 'api-1']);
    const login = { username: credentials.body.username, password: credentials.body.password };
    const page = await mqtt.connectAsync(broker.wsUrl, { ...login, reconnectPeriod: 0, connectTimeout: 5000 });
    try {
      const received: unknown[] = [];
      page.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString())));
      await page.subscribeAsync('notifications/clara', { qos: 1 });
      // The notification is created through the other instance.
      const sent = await b.client().fetch('/internal/notify', {
        method: 'POST',
        body: JSON.stringify({ profileName: 'clara', content: 'From the second instance' }),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect([sent.status, sent.headers.get(INSTANCE)]).toEqual([201, 'api-2']);
      await until(() => received.length === 1, 'the notification');
      expect(received[0]).toMatchObject({ content: 'From the second instance', status: 'NEW' });

      // Logging out through the other instance closes the page's connection and its login.
      const closed = new Promise((done) => page.once('close', () => done(undefined)));
      expect((await sameBrowserOn(clara, b).call('logout')).status).toBe(200);
      await closed;
      await expect(
        mqtt.connectAsync(broker.wsUrl, { ...login, reconnectPeriod: 0, connectTimeout: 3000 }),
      ).rejects.toThrow(/Not authorized/i);
    } finally {
      await page.endAsync(true);
    }
  });
});

async function until(check: () => boolean, what: string, ms = 8000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (check()) return;
  throw new Error(`timed out waiting for ${what}`);
}
