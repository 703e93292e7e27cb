import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMosquitto, type LocalBroker } from 'api/mosquitto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, freePort, present, startTestApi, type TestApi, type TestClient } from './harness.js';

// Debian's mosquitto with the repository's production configuration (api/mosquitto) and its
// dynamic security plugin; the API is its administrator, as in docker-compose.
const ADMIN = { username: 'api-admin', password: 'test-admin-password' };
let dir: string;
let broker: LocalBroker;
let t: TestApi;
const open: MqttClient[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mosquitto-test-'));
  broker = await startMosquitto({ mqttPort: await freePort(), wsPort: await freePort(), dir, admin: ADMIN });
  t = await startTestApi({
    MQTT_BROKER_URL: broker.url,
    MQTT_USERNAME: ADMIN.username,
    MQTT_PASSWORD: ADMIN.password,
    LIVE_PUBLIC_URL: broker.wsUrl,
    SESSION_SWEEP_MS: '200',
  });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
});
afterAll(async () => {
  await t.close();
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A browser page's connection: over websocket, with the login the API gives its session. */
async function pageConnection(
  user: TestClient,
  options: IClientOptions = {},
): Promise<{ mq: MqttClient; login: { username: string; password: string } }> {
  const res = await user.call('getLiveCredentials');
  expect(res.status).toBe(200);
  const login = { username: present(res.body.username, 'username'), password: present(res.body.password, 'password') };
  const mq = await mqtt.connectAsync(broker.wsUrl, { ...login, reconnectPeriod: 0, connectTimeout: 5000, ...options });
  open.push(mq);
  return { mq, login };
}

/** The QoS the broker grants a subscription, 128 when it refuses (mqtt.js rejects then, with the SUBACK on the error). */
const granted = (mq: MqttClient, topic: string): Promise<number | undefined> =>
  mq.subscribeAsync(topic, { qos: 1 }).then(
    (grants) => grants[0]?.qos,
    (error: { packet?: { granted?: number[] } }) => {
      if (error.packet?.granted) return error.packet.granted[0];
      throw error;
    },
  );

function messages(mq: MqttClient): { topic: string; body: unknown }[] {
  const seen: { topic: string; body: unknown }[] = [];
  mq.on('message', (topic, payload) => seen.push({ topic, body: JSON.parse(payload.toString()) }));
  return seen;
}

async function notify(profileName: string, content: string): Promise<number> {
  const res = await t.client().fetch<{ id: number }>('/internal/notify', {
    method: 'POST',
    body: JSON.stringify({ profileName, content }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const until = async (check: () => boolean, what: string, ms = 8000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (check()) return;
  throw new Error(`timed out waiting for ${what}`);
};

describe('mosquitto with dynamic security, administered by the API', () => {
  it('refuses a connection without a login, and embeds no broker in the API', async () => {
    await expect(mqtt.connectAsync(broker.url, { reconnectPeriod: 0, connectTimeout: 3000 })).rejects.toThrow(
      /Not authorized/i,
    );
    await expect(mqtt.connectAsync(broker.wsUrl, { reconnectPeriod: 0, connectTimeout: 3000 })).rejects.toThrow(
      /Not authorized/i,
    );
    await expect(
      mqtt.connectAsync(broker.url, {
        username: 'web-guess',
        password: 'guess',
        reconnectPeriod: 0,
        connectTimeout: 3000,
      }),
    ).rejects.toThrow(/Not authorized/i);
    const upgrade = await fetch(`${t.url}/mqtt`, { headers: { connection: 'Upgrade', upgrade: 'websocket' } }).catch(
      () => null,
    );
    expect(upgrade === null || upgrade.status === 404).toBe(true);
  });

  it("gives a page its user's two topics and the rollbacks only: not another user's, not a wildcard, and no publishing", async () => {
    const clara = await t.as('clara');
    expect((await clara.call('getLiveCredentials')).status).toBe(200);
    expect((await t.client().call('getLiveCredentials')).status).toBe(401);
    const { mq } = await pageConnection(clara);
    expect(await granted(mq, 'notifications/clara')).toBe(1);
    expect(await granted(mq, 'chatNotifications/clara')).toBe(1);
    expect(await granted(mq, 'platform/rollbacks')).toBe(1);
    expect(await granted(mq, 'platform/#')).toBe(128);
    expect(await granted(mq, 'notifications/mia')).toBe(128);
    expect(await granted(mq, 'notifications/#')).toBe(128);
    expect(await granted(mq, 'notifications/+')).toBe(128);
    expect(await granted(mq, '#')).toBe(128);

    // A second page of clara's listens; what the first publishes on her own topic goes nowhere.
    const { mq: other } = await pageConnection(clara);
    expect(await granted(other, 'notifications/clara')).toBe(1);
    const seen = messages(other);
    await mq.publishAsync(
      'notifications/clara',
      JSON.stringify({ id: 1, status: 'NEW', content: 'forged', link: null, timestamp: '2026-01-01T00:00:00Z' }),
      { qos: 1 },
    );
    await notify('clara', 'From the API');
    await until(() => seen.length > 0, 'the API notification');
    expect(seen.map((m) => (m.body as { content: string }).content)).toEqual(['From the API']);
  });

  it("delivers a notification and a chat message published by the API to the right user's page only", async () => {
    const [olga, zoe] = [await t.as('olga'), await t.as('zoe')];
    const { mq: olgaPage } = await pageConnection(olga);
    const { mq: zoePage } = await pageConnection(zoe);
    await granted(olgaPage, 'notifications/olga');
    await granted(olgaPage, 'chatNotifications/olga');
    await granted(zoePage, 'notifications/zoe');
    await granted(zoePage, 'chatNotifications/zoe');
    const [toOlga, toZoe] = [messages(olgaPage), messages(zoePage)];

    await notify('olga', 'Via mosquitto');
    expect((await zoe.call('sendChatMessage', { profileName: 'olga', content: 'Hello Olga' })).status).toBe(200);
    await until(() => toOlga.length === 2, 'both messages');
    expect(toOlga).toEqual([
      { topic: 'notifications/olga', body: expect.objectContaining({ content: 'Via mosquitto', status: 'NEW' }) },
      { topic: 'chatNotifications/olga', body: expect.objectContaining({ profileName: 'zoe', content: 'Hello Olga' }) },
    ]);
    expect(toZoe).toEqual([]);
  });

  it("revokes a session's logins at logout: its pages are disconnected and cannot come back", async () => {
    const ben = await t.as('ben');
    const { mq, login } = await pageConnection(ben);
    const closed = new Promise((done) => mq.once('close', () => done(undefined)));
    expect((await ben.call('logout')).status).toBe(200);
    await closed;
    await expect(
      mqtt.connectAsync(broker.wsUrl, { ...login, reconnectPeriod: 0, connectTimeout: 3000 }),
    ).rejects.toThrow(/Not authorized/i);
  });

  it('revokes the logins of a session that expired, at the next sweep', async () => {
    const sam = await t.as('sam');
    const { mq, login } = await pageConnection(sam);
    const closed = new Promise((done) => mq.once('close', () => done(undefined)));
    await t.rows`UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE user_id = (SELECT id FROM users WHERE profile_name = 'sam')`;
    await closed;
    await expect(
      mqtt.connectAsync(broker.wsUrl, { ...login, reconnectPeriod: 0, connectTimeout: 3000 }),
    ).rejects.toThrow(/Not authorized/i);
    expect((await sam.call('getUserInfo')).status).toBe(401);
  });

  it('survives a broker restart: the page reconnects with its login, resubscribes, and gets what is published after', async () => {
    const dave = await t.as('dave');
    const { mq } = await pageConnection(dave, { reconnectPeriod: 300 });
    // As the browser's channel does: subscribe again on every connect (clean session).
    mq.on('connect', () => void mq.subscribe('notifications/dave', { qos: 1 }));
    await granted(mq, 'notifications/dave');
    const seen = messages(mq);

    await broker.restart();
    await until(() => mq.connected, 'the page to reconnect');
    await new Promise((r) => setTimeout(r, 300));
    await notify('dave', 'After the restart');
    await until(() => seen.length === 1, 'the notification after the restart');
    expect(seen[0]?.body).toMatchObject({ content: 'After the restart' });
  });

  // Issue 40, item 3: the outbox row is the message's only copy, kept by the database.
  it('delivers a notification committed while the broker is down once it is back, though the instance that wrote it is gone', async () => {
    const ivy = await t.as('ivy');
    // As the browser's channel does: subscribe again on every connect (clean session).
    const { mq } = await pageConnection(ivy, { reconnectPeriod: 200, resubscribe: false });
    let subscribed = false;
    mq.on('connect', () => {
      subscribed = false;
      mq.subscribeAsync('notifications/ivy', { qos: 1 }).then(
        () => (subscribed = true),
        () => undefined,
      );
    });
    await granted(mq, 'notifications/ivy');
    const seen = messages(mq);

    await broker.stop();
    const id = await notify('ivy', 'Written while the broker was down');
    // The instance that wrote it stops before the broker is back: nothing of it lives in a process.
    await t.stop();
    await broker.restart();
    await until(() => mq.connected && subscribed, 'the page to reconnect and subscribe again');
    await t.start();
    await until(() => seen.length > 0, 'the notification', 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(seen).toEqual([
      {
        topic: 'notifications/ivy',
        body: expect.objectContaining({ id, content: 'Written while the broker was down' }),
      },
    ]);
  });
});
