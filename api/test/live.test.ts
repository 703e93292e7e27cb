import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_WEBSOCKET_PATH } from '@marketplace/shared/contract';
import { type LiveLogin, liveLogins } from '../src/live/logins.js';
import {
  ADMIN_TOKEN,
  FOREIGN_ORIGIN,
  SHELL_ORIGIN,
  present,
  startTestApi,
  type TestApi,
  type TestClient,
} from './harness.js';

let t: TestApi;
const open: MqttClient[] = [];
beforeAll(async () => {
  t = await startTestApi();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
});
afterAll(() => t.close());

const wsUrl = () => `${t.url.replace('http', 'ws')}${LIVE_WEBSOCKET_PATH}`;

/** A real MQTT client over websocket carrying the browser's cookies and Origin. */
async function connect(client: TestClient | null, origin = SHELL_ORIGIN): Promise<MqttClient> {
  const headers: Record<string, string> = { origin };
  if (client) headers.cookie = client.cookieHeader;
  const mq = await mqtt.connectAsync(wsUrl(), { reconnectPeriod: 0, connectTimeout: 5000, wsOptions: { headers } });
  open.push(mq);
  return mq;
}

function nextMessage(mq: MqttClient, topic: string, timeoutMs = 5000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no message on ${topic}`)), timeoutMs);
    mq.on('message', (received, payload) => {
      if (received !== topic) return;
      clearTimeout(timer);
      resolve(JSON.parse(payload.toString()));
    });
  });
}

/** A page's connection with its broker login (getLiveCredentials), as the browser makes it. */
function dial(login: LiveLogin): Promise<MqttClient> {
  return mqtt.connectAsync(wsUrl(), {
    username: login.username,
    password: login.password,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    wsOptions: { headers: { origin: SHELL_ORIGIN } },
  });
}

/** A page's broker login, asked for as the browser does. */
async function credentialsOf(client: TestClient): Promise<LiveLogin> {
  const res = await client.call('getLiveCredentials');
  expect(res.status).toBe(200);
  return { username: present(res.body.username, 'username'), password: present(res.body.password, 'password') };
}

/** Resolves when the connection closes. */
const closing = (mq: MqttClient) => new Promise<void>((resolve) => mq.once('close', () => resolve()));

const notifyViaAdmin = (profileName: string, content: string) =>
  t.client().fetch('/internal/notify', {
    method: 'POST',
    body: JSON.stringify({ profileName, content, link: '/events' }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
  });

describe('live broker', () => {
  it('refuses a connection without a session', async () => {
    await expect(connect(null)).rejects.toThrow(/Not authorized/i);
  });

  // The browser logs in as it does on the production broker (RabbitMQ, which asks the API): with its page's login.
  it("takes a page's broker login from getLiveCredentials, its user's topics only; a wrong password or a logout ends it", async () => {
    const leo = await t.as('leo');
    const login = await credentialsOf(leo);
    await expect(dial({ ...login, password: 'wrong' })).rejects.toThrow(/Not authorized/i);
    const mq = await dial(login);
    open.push(mq);
    expect((await mq.subscribeAsync('notifications/leo', { qos: 1 }))[0]?.qos).toBe(1);
    await expect(mq.subscribeAsync('notifications/clara', { qos: 1 })).rejects.toMatchObject({
      packet: { granted: [128] },
    });
    const closed = closing(mq);
    expect((await leo.call('logout')).status).toBe(200);
    await closed;
    await expect(dial(login)).rejects.toThrow(/Not authorized/i);
    expect((await t.client().call('getLiveCredentials')).status).toBe(401);
  });

  // The logins are signed, not stored (live/logins.ts): the signature, the expiry and the session
  // it names are what the broker checks.
  it('refuses a login signed with another key, an expired one, and one moved to another session or profile', async () => {
    const [leo, clara] = await Promise.all([t.as('leo'), t.as('clara')]);
    const own = await credentialsOf(leo);
    const other = await credentialsOf(clara);
    const { logins } = t.api.services;
    const identity = present(logins.parse(own.username), "the login's identity");
    expect(identity.profileName).toBe('leo');
    const refused: Record<string, LiveLogin> = {
      forged: liveLogins(randomBytes(32), t.config.liveLoginTtlMs).issue(identity),
      expired: logins.issue(identity, Date.now() - t.config.liveLoginTtlMs - 1000),
      "another session's name": { username: other.username, password: own.password },
      'another profile': { username: logins.usernameOf({ ...identity, profileName: 'clara' }), password: own.password },
    };
    for (const [what, login] of Object.entries(refused))
      await expect(dial(login), what).rejects.toThrow(/Not authorized/i);
    // The genuine one still connects: what was refused was the changes.
    const mq = await dial(own);
    open.push(mq);
    expect(mq.connected).toBe(true);
  });

  it("closes the connections of the session that logs out only: the user's other session keeps its page", async () => {
    const [here, there] = await Promise.all([t.as('mia'), t.as('mia')]);
    const [leaving, staying] = await Promise.all([dial(await credentialsOf(here)), dial(await credentialsOf(there))]);
    open.push(leaving, staying);
    await staying.subscribeAsync('notifications/mia', { qos: 1 });
    const closed = closing(leaving);
    expect((await here.call('logout')).status).toBe(200);
    await closed;
    const arrived = nextMessage(staying, 'notifications/mia');
    await notifyViaAdmin('mia', 'Still here');
    expect(await arrived).toMatchObject({ content: 'Still here' });
    expect(staying.connected).toBe(true);
  });

  it("closes an expired session's pages when the sweep removes it, and refuses its login from then on", async () => {
    const max = await t.as('max');
    const login = await credentialsOf(max);
    const mq = await dial(login);
    open.push(mq);
    const { liveId } = present(t.api.services.logins.parse(login.username), "the login's identity");
    await t.rows`UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE live_id = ${liveId}`;
    const closed = closing(mq);
    const pass = await t.api.sweep();
    expect(pass.ran && pass.sessions).toBe(1);
    await closed;
    await expect(dial(login)).rejects.toThrow(/Not authorized/i);
  });

  it('refuses a websocket opened from a foreign origin', async () => {
    const clara = await t.as('clara');
    const status = (origin: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(wsUrl(), 'mqtt', { headers: { origin, cookie: clara.cookieHeader } });
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('error', reject);
      });
    expect(await status(FOREIGN_ORIGIN)).toBe(403);
    expect(await status(SHELL_ORIGIN)).toBe(101);
  });

  it("grants a user's own topics and refuses another user's", async () => {
    const clara = await t.as('clara');
    const mq = await connect(clara);
    const granted = await mq.subscribeAsync(['notifications/clara', 'chatNotifications/clara'], { qos: 1 });
    expect(granted.map((g) => [g.topic, g.qos])).toEqual([
      ['notifications/clara', 1],
      ['chatNotifications/clara', 1],
    ]);
    // mqtt.js rejects a subscribe whose SUBACK holds 0x80 (refused); the code is on the packet.
    for (const topic of ['notifications/mia', 'chatNotifications/mia', '#', 'notifications/+']) {
      await expect(mq.subscribeAsync(topic, { qos: 1 }), topic).rejects.toMatchObject({ packet: { granted: [128] } });
    }
    expect(mq.connected).toBe(true);
  });

  it('announces a rollback from the release commands to every logged-in page, behind the admin token', async () => {
    const [clara, leo] = await Promise.all([t.as('clara'), t.as('leo')]);
    const pages = await Promise.all([connect(clara), connect(leo)]);
    for (const mq of pages) await mq.subscribeAsync('platform/rollbacks', { qos: 1 });
    const heard = pages.map((mq) => nextMessage(mq, 'platform/rollbacks'));
    const announce = (body: unknown, token = ADMIN_TOKEN) =>
      t.client().fetch('/internal/releases/rollback', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      });
    const rollback = { remote: 'header', version: '1a2b3c4d5e6f', to: '0f0f0f0f0f0f' };
    expect((await announce(rollback, 'not-the-token')).status).toBe(401);
    expect((await announce({ remote: 'header' })).status).toBe(400);
    expect((await announce(rollback)).status).toBe(202);
    expect(await Promise.all(heard)).toEqual([rollback, rollback]);
  });

  it('delivers a published notification to its subscriber in the spec shape, and to nobody else', async () => {
    const clara = await t.as('clara');
    const mia = await t.as('mia');
    const claraMq = await connect(clara);
    const miaMq = await connect(mia);
    await claraMq.subscribeAsync('notifications/clara', { qos: 1 });
    await miaMq.subscribeAsync('notifications/mia', { qos: 1 });
    await expect(miaMq.subscribeAsync('notifications/clara', { qos: 1 })).rejects.toThrow();
    let miaGot = 0;
    miaMq.on('message', () => miaGot++);
    const arrived = nextMessage(claraMq, 'notifications/clara');
    const created = await notifyViaAdmin('clara', 'Your photos are ready');
    expect(created.status).toBe(201);
    expect(await arrived).toEqual({
      id: created.body.id,
      status: 'NEW',
      content: 'Your photos are ready',
      link: '/events',
      timestamp: expect.any(String),
    });
    // The same notification is in the list, so a reload agrees with the live view.
    expect(present((await clara.call('getNotifications')).body.notifications[0], 'a notification').id).toBe(
      created.body.id,
    );
    expect(miaGot).toBe(0);
  });

  it("delivers a chat message to its recipient on chatNotifications, with the message's id", async () => {
    const clara = await t.as('clara');
    const mia = await t.as('mia');
    const mq = await connect(clara);
    await mq.subscribeAsync('chatNotifications/clara', { qos: 1 });
    const arrived = nextMessage(mq, 'chatNotifications/clara');
    const sent = await mia.call('sendChatMessage', { profileName: 'clara', content: 'See you at 6' });
    expect(await arrived).toEqual({
      // Delivery is at least once: the page knows a message it has had by this id.
      messageId: present(sent.body.message, 'the sent message').id,
      profileName: 'mia',
      name: 'Mia Lens',
      profilePicture: expect.stringMatching(/avatars\/mia\.png$/),
      content: 'See you at 6',
      status: 'NEW',
      timestamp: expect.any(String),
    });
  });

  it('publishes an order event: the photographer hears of a cancel', async () => {
    const clara = await t.as('clara');
    const mia = await t.as('mia');
    const mq = await connect(mia);
    await mq.subscribeAsync('notifications/mia', { qos: 1 });
    const arrived = nextMessage(mq, 'notifications/mia');
    expect((await clara.call('updateEventOrderStatus', { orderId: 'ord-1004', status: 'CANCELLED' })).status).toBe(200);
    expect(await arrived).toMatchObject({
      status: 'NEW',
      link: '/eventorder/ord-1004',
      content: expect.stringContaining('cancelled'),
    });
  });

  it('does not let clients publish, even to their own topic', async () => {
    const clara = await t.as('clara');
    const listener = await connect(clara);
    await listener.subscribeAsync('notifications/clara', { qos: 1 });
    let got = 0;
    listener.on('message', () => got++);
    const publisher = await connect(clara);
    const closed = new Promise<void>((resolve) => publisher.once('close', () => resolve()));
    publisher.publish(
      'notifications/clara',
      JSON.stringify({ id: 1, status: 'NEW', content: 'forged', link: null, timestamp: '' }),
      { qos: 0 },
    );
    await closed;
    // A real notification still arrives, and it is the only one.
    const arrived = nextMessage(listener, 'notifications/clara');
    await notifyViaAdmin('clara', 'genuine');
    expect(await arrived).toMatchObject({ content: 'genuine' });
    expect(got).toBe(1);
  });

  it('closes the live connection at logout', async () => {
    const clara = await t.as('clara');
    const mq = await connect(clara);
    const closed = new Promise<void>((resolve) => mq.once('close', () => resolve()));
    await clara.call('logout');
    await closed;
    expect(mq.connected).toBe(false);
  });

  it('the notify command creates and publishes a notification', async () => {
    const clara = await t.as('clara');
    const mq = await connect(clara);
    await mq.subscribeAsync('notifications/clara', { qos: 1 });
    const arrived = nextMessage(mq, 'notifications/clara', 15_000);
    const tsx = join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');
    const { stdout } = await promisify(execFile)(tsx, ['src/cli/notify.ts', 'clara', 'From the command line', '/faq'], {
      cwd: join(import.meta.dirname, '..'),
      env: { ...process.env, API_URL: t.url, ADMIN_TOKEN, DATABASE_PATH: t.config.databasePath },
    });
    expect(stdout).toMatch(/notified clara/);
    expect(await arrived).toMatchObject({ content: 'From the command line', link: '/faq', status: 'NEW' });
  });
});
