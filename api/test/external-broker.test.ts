import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalRabbitCluster } from '../rabbitmq/rabbitmq.mjs';
import { startRabbitCluster } from '../rabbitmq/rabbitmq.mjs';
import { ADMIN_TOKEN, freePort, present, startTestApi, type TestApi, type TestClient } from './harness.js';

// Debian's RabbitMQ, a cluster of two nodes with the repository's production configuration
// (api/rabbitmq), asking this API who may connect and what each login may do, as in
// docker-compose. The API reaches the nodes through a TCP relay of the test's, which can cut it
// off the broker while pages stay connected.
const API_PASSWORD = 'test-broker-password-0123';
/** What the nodes present to the API's /internal/broker routes (BROKER_AUTH_SECRET). */
const BROKER_AUTH_SECRET = 'test-broker-auth-secret-0123456789abcdef';
let dir: string;
let cluster: LocalRabbitCluster;
let t: TestApi;
let relay: CuttableRelay;
const open: MqttClient[] = [];

/** TCP relays to the nodes' MQTT listeners that can refuse and drop every connection for a while. */
interface CuttableRelay {
  urls: string[];
  cut(): void;
  mend(): void;
  close(): Promise<void>;
}

async function cuttableRelay(targets: string[]): Promise<CuttableRelay> {
  let cut = false;
  const sockets = new Set<Socket>();
  const servers: Server[] = [];
  const urls: string[] = [];
  for (const target of targets) {
    const { hostname, port } = new URL(target);
    const server = createServer((socket) => {
      if (cut) return socket.destroy();
      const upstream = tcpConnect(Number(port), hostname);
      for (const s of [socket, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      socket.pipe(upstream).pipe(socket);
      socket.on('close', () => upstream.destroy());
      upstream.on('close', () => socket.destroy());
    });
    const listenPort = await freePort();
    await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
    servers.push(server);
    urls.push(`mqtt://127.0.0.1:${listenPort}`);
  }
  return {
    urls,
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    mend() {
      cut = false;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rabbitmq-test-'));
  const internalPort = await freePort();
  const nodes = [];
  for (let i = 0; i < 2; i++)
    nodes.push({
      mqttPort: await freePort(),
      wsPort: await freePort(),
      managementPort: await freePort(),
      distPort: await freePort(),
    });
  cluster = await startRabbitCluster({
    dir,
    epmdPort: await freePort(),
    authUrl: `http://127.0.0.1:${internalPort}`,
    authSecret: BROKER_AUTH_SECRET,
    nodes,
  });
  relay = await cuttableRelay(cluster.mqttUrls);
  t = await startTestApi({
    API_INTERNAL_PORT: String(internalPort),
    API_INTERNAL_HOST: '127.0.0.1',
    MQTT_BROKER_URL: relay.urls.join(','),
    MQTT_MANAGEMENT_URL: cluster.managementUrls.join(','),
    MQTT_PASSWORD: API_PASSWORD,
    LIVE_LOGIN_KEY: 'test-live-login-key-0123456789abcdef',
    BROKER_AUTH_SECRET,
    LIVE_PUBLIC_URL: cluster.wsUrls[0] ?? '',
    LIVE_RELAY_POLL_MS: '100',
  });
}, 180_000);
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.endAsync(true)));
});
afterAll(async () => {
  await t?.close();
  await relay?.close();
  await cluster?.stopAll();
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

type Login = { username: string; password: string };

async function loginOf(user: TestClient): Promise<Login> {
  const res = await user.call('getLiveCredentials');
  expect(res.status).toBe(200);
  return { username: present(res.body.username, 'username'), password: present(res.body.password, 'password') };
}

let clients = 0;
/** A page's client id, as shared/src/live/channel.ts makes it: its login's username first. */
const clientIdOf = (login: Login) => `${login.username}-${++clients}`;

/** How a page connects (shared/src/live/channel.ts), one attempt only, unless `options` say otherwise. */
const pageOptions = (login: Login, options: IClientOptions): IClientOptions => ({
  ...login,
  clientId: clientIdOf(login),
  protocolVersion: 4,
  reconnectPeriod: 0,
  connectTimeout: 5000,
  // As pages do: RabbitMQ drops a connection quiet for exactly its keepalive.
  keepalive: 30,
  ...options,
});

/** A browser page's connection over websocket to node `node`, with a login. */
async function connectPage(login: Login, node: number, options: IClientOptions = {}): Promise<MqttClient> {
  const mq = await mqtt.connectAsync(present(cluster.wsUrls[node], 'node'), pageOptions(login, options));
  open.push(mq);
  return mq;
}

/** A connection, or the CONNACK code it was refused with (0: closed without one). */
function tryConnect(login: Login, node: number, options: IClientOptions = {}): Promise<MqttClient | number> {
  const mq = mqtt.connect(present(cluster.wsUrls[node], 'node'), pageOptions(login, options));
  open.push(mq);
  return new Promise((resolve) => {
    mq.once('connect', () => resolve(mq));
    mq.once('error', (error) => resolve((error as { code?: number }).code ?? 0));
    mq.once('close', () => resolve(0));
  });
}

/** Why a connection was refused: its CONNACK code (4 bad login, 5 not authorised), 0 when the broker closed it without one, or 'connected'. */
const connectRefusal = async (login: Login, node = 0): Promise<number | 'connected'> => {
  const outcome = await tryConnect(login, node);
  return typeof outcome === 'number' ? outcome : 'connected';
};

/** The page's messages as they arrive. */
function messages(mq: MqttClient): { topic: string; body: { id?: number; content?: string } }[] {
  const seen: { topic: string; body: { id?: number; content?: string } }[] = [];
  mq.on('message', (topic, payload) => {
    try {
      seen.push({ topic, body: JSON.parse(payload.toString()) as { id?: number; content?: string } });
    } catch {
      seen.push({ topic, body: { content: payload.toString() } });
    }
  });
  return seen;
}

/**
 * Whether the broker refuses the subscription: SUBACK 128, or (RabbitMQ 3.10) the connection
 * closed for the access it was refused.
 */
const subscriptionRefused = (mq: MqttClient, topic: string): Promise<boolean> =>
  mq.subscribeAsync(topic, { qos: 1 }).then(
    (grants) => grants[0]?.qos === 128,
    () => true,
  );

async function notify(profileName: string, content: string): Promise<number> {
  const res = await fetch(`${t.api.internalUrl}/internal/notify`, {
    method: 'POST',
    body: JSON.stringify({ profileName, content }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const until = (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) =>
  vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: ms, interval: 50 },
  );

/** The broker's own view, as the API's login: which users have connections, and on which node. */
async function connectionsOf(username: string): Promise<{ node: string }[]> {
  const res = await fetch(
    `${cluster.managementUrls[0] ?? ''}/api/connections/username/${encodeURIComponent(username)}`,
    { headers: { authorization: `Basic ${Buffer.from(`api:${API_PASSWORD}`).toString('base64')}` } },
  );
  return res.ok ? ((await res.json()) as { node: string }[]) : [];
}

const closedWithin = (mq: MqttClient): Promise<number> => {
  const from = Date.now();
  return new Promise((resolve) => {
    if (!mq.connected) resolve(0);
    mq.once('close', () => resolve(Date.now() - from));
  });
};

describe('a page on the RabbitMQ cluster', () => {
  it("reads its user's topics on either node and the rollbacks; another user's topic is refused", async () => {
    const ivy = await t.as('ivy');
    const login = await loginOf(ivy);
    // No broker write per page view: the login is signed, the broker asks the API.
    expect(login.username).toMatch(/^s\.[\w-]+\.[\w-]+$/);
    const pages = [await connectPage(login, 0), await connectPage(login, 1)];
    const seen = pages.map(messages);
    for (const page of pages)
      for (const topic of ['notifications/ivy', 'chatNotifications/ivy', 'platform/rollbacks'])
        expect(await subscriptionRefused(page, topic)).toBe(false);
    const nodes = (await connectionsOf(login.username)).map((c) => c.node).sort();
    expect(nodes).toEqual([...cluster.nodeNames].sort());

    const id = await notify('ivy', 'On both nodes');
    await until(() => seen.every((s) => s.some((m) => m.body.id === id)), 'the notification on both pages');

    const spy = await connectPage(login, 0);
    expect(await subscriptionRefused(spy, 'notifications/mia')).toBe(true);
    const wildcard = await connectPage(login, 1);
    expect(await subscriptionRefused(wildcard, 'notifications/#')).toBe(true);
  });

  it("uses only subscription queues named after its own login: another login's queue, kept or not, is refused", async () => {
    const ivy = await t.as('ivy');
    const victim = await loginOf(ivy);
    // The victim's page keeps its queue past its connection (clean session off).
    const kept = `${victim.username}-kept`;
    const page = await connectPage(victim, 0, { clientId: kept, clean: false });
    expect(await subscriptionRefused(page, 'notifications/ivy')).toBe(false);
    await page.endAsync(true);
    // Another session of the same user, and another user, under the victim's client id.
    for (const [profile, thief] of [
      ['ivy', await loginOf(await t.as('ivy'))],
      ['mia', await loginOf(await t.as('mia'))],
    ] as const) {
      // Refused at once, or connected without the queue: either way nothing of it arrives.
      const outcome = await tryConnect(thief, 0, { clientId: kept, clean: false });
      const taken = typeof outcome === 'number' ? null : outcome;
      const seen = taken ? messages(taken) : [];
      const id = await notify('ivy', 'For the kept queue');
      await taken?.endAsync(true);
      // The victim's page, back, gets it from its queue: it was kept there, not taken by the thief.
      const back = mqtt.connect(
        present(cluster.wsUrls[0], 'node'),
        pageOptions(victim, { clientId: kept, clean: false }),
      );
      open.push(back);
      const backSeen = messages(back);
      await until(() => backSeen.some((m) => m.body.id === id), "the kept message on its owner's page");
      await back.endAsync(true);
      expect(seen.map((m) => m.body.id)).not.toContain(id);
      // A client id that is not under its login's name cannot subscribe at all.
      const stranger = await connectPage(thief, 1, { clientId: `mqttjs_${++clients}` });
      expect(await subscriptionRefused(stranger, `notifications/${profile}`)).toBe(true);
    }
  });

  it('publishes nothing: a page that tries is cut off and nobody receives it', async () => {
    const ivy = await t.as('ivy');
    const login = await loginOf(ivy);
    const listener = await connectPage(login, 1);
    const seen = messages(listener);
    await listener.subscribeAsync('notifications/ivy', { qos: 1 });
    const forger = await connectPage(login, 0);
    const closed = closedWithin(forger);
    forger.publish('notifications/ivy', JSON.stringify({ id: -1, content: 'forged' }), { qos: 0 });
    await closed;
    const id = await notify('ivy', 'After the forgery');
    await until(() => seen.some((m) => m.body.id === id), 'the real notification');
    expect(seen.map((m) => m.body.content)).not.toContain('forged');
  });

  it('refuses a forged, expired, or re-addressed login, and a wrong API password', async () => {
    const ivy = await t.as('ivy');
    const login = await loginOf(ivy);
    const [expiry, signature = ''] = login.password.split('.');
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect(await connectRefusal({ ...login, password: `${expiry}.${flipped}` })).not.toBe('connected');
    // Another expiry under the same signature.
    expect(await connectRefusal({ ...login, password: `${Number(expiry) + 3600}.${signature}` })).not.toBe('connected');
    // The same session's login for another user's profile.
    const [prefix, liveId] = login.username.split('.');
    const other = `${prefix}.${liveId}.${Buffer.from('mia').toString('base64url')}`;
    expect(await connectRefusal({ username: other, password: login.password })).not.toBe('connected');
    // Signed by the API, but past its expiry.
    const identity = present(t.api.services.logins.parse(login.username), 'identity');
    const expired = t.api.services.logins.issue(identity, Date.now() - t.config.liveLoginTtlMs - 1000);
    expect(await connectRefusal(expired)).not.toBe('connected');
    expect(await connectRefusal({ username: 'api', password: 'not-the-password' })).not.toBe('connected');
    expect(await connectRefusal(login, 1)).toBe('connected');
  });
});

describe('ending a session', () => {
  it("logout closes the session's connections on both nodes; its login cannot reconnect; another session's stay", async () => {
    const ivy = await t.as('ivy');
    const otherSession = await t.as('ivy');
    const login = await loginOf(ivy);
    const pages = [await connectPage(login, 0), await connectPage(login, 1)];
    const survivor = await connectPage(await loginOf(otherSession), 1);
    const closes = pages.map(closedWithin);
    const from = Date.now();
    expect((await ivy.call('logout')).status).toBe(200);
    const closedAfter = await Promise.all(closes.map((c) => c.then(() => Date.now() - from)));
    // Reported, not asserted: how long it takes is a measurement, not the behaviour under test.
    console.log(`[broker] logout closed the session's pages on both nodes after ${closedAfter.join(' and ')} ms`);
    expect(await connectRefusal(login, 0)).not.toBe('connected');
    expect(await connectRefusal(login, 1)).not.toBe('connected');
    expect(survivor.connected).toBe(true);
  });

  it("a session's expiry closes its pages with no sweep asked; a session gone while the broker was not told is closed by the next sweep", async () => {
    const ivy = await t.as('ivy');
    const login = await loginOf(ivy);
    const page = await connectPage(login, 1);
    const closed = closedWithin(page);
    const identity = present(t.api.services.logins.parse(login.username), 'identity');
    const expiresAt = Date.now() + 1000;
    await t.rows`UPDATE sessions SET expires_at = ${new Date(expiresAt).toISOString()} WHERE live_id = ${identity.liveId}`;
    // No sweep asked: every instance ends expired sessions each second (SESSION_EXPIRY_CHECK_MS).
    await closed;
    console.log(`[broker] an expired session's page closed ${Date.now() - expiresAt} ms after its expiry`);
    expect(await connectRefusal(login, 0)).not.toBe('connected');

    // Deleted without the broker being told (as when it could not be reached at logout): the
    // sweep's comparison of the broker's connections with the sessions closes it.
    const mia = await t.as('mia');
    const miaLogin = await loginOf(mia);
    const stray = await connectPage(miaLogin, 0);
    const strayClosed = closedWithin(stray);
    const miaId = present(t.api.services.logins.parse(miaLogin.username), 'identity').liveId;
    await t.rows`DELETE FROM sessions WHERE live_id = ${miaId}`;
    // The management API lists connections from its statistics, a few seconds behind.
    await until(
      async () => {
        const pass = await t.api.sweep();
        return pass.ran && (pass.liveClosed ?? 0) > 0;
      },
      'the sweep to close the stray connection',
      20_000,
    );
    await strayClosed;
  }, 40_000);
});

describe('broker faults', () => {
  it('the API cut off the broker for a minute: what was committed meanwhile arrives after, in order', async () => {
    const ivy = await t.as('ivy');
    const page = await connectPage(await loginOf(ivy), 1);
    const seen = messages(page);
    await page.subscribeAsync('notifications/ivy', { qos: 1 });
    relay.cut();
    const ids: number[] = [];
    const until60 = Date.now() + 60_000;
    while (Date.now() < until60) {
      ids.push(await notify('ivy', `During the cut ${ids.length}`));
      // Real time: the cut lasts a minute of the broker's and the API's own clocks (keepalives, reconnects).
      await sleep(5000);
    }
    // Nothing went out: the broker acknowledged none of them (their outbox rows are unsent), and
    // the page, still connected to the broker, got none of them.
    const [unsent] = await t.rows<{ n: number | string }>`SELECT COUNT(*) AS n FROM live_outbox WHERE sent_at IS NULL`;
    expect(Number(unsent?.n)).toBeGreaterThanOrEqual(ids.length);
    expect(seen.filter((m) => ids.includes(m.body.id ?? 0))).toEqual([]);
    relay.mend();
    const from = Date.now();
    await until(() => ids.every((id) => seen.some((m) => m.body.id === id)), 'the outbox to drain', 30_000);
    // At least once: a message whose acknowledgement was lost in the cut may come twice (mqtt.js
    // sends its copy again, and the relay its row); pages show each id once (the header dedupes).
    const copies = seen.filter((m) => ids.includes(m.body.id ?? 0)).length;
    console.log(
      `[broker] ${ids.length} notifications committed during a 60 s cut arrived ${Date.now() - from} ms after (${copies - ids.length} repeated)`,
    );
    expect([...new Set(seen.map((m) => m.body.id))]).toEqual([...ids].sort((a, b) => a - b));
  }, 120_000);

  it('the whole cluster killed and started again: pages reconnect with their login, and what was committed while it was down arrives', async () => {
    const ivy = await t.as('ivy');
    const login = await loginOf(ivy);
    const page = await connectPage(login, 0, { reconnectPeriod: 1000 });
    const seen = messages(page);
    // A page resubscribes on every connect (shared/src/live/channel.ts); here by hand.
    page.on('connect', () => void page.subscribeAsync('notifications/ivy', { qos: 1 }).catch(() => undefined));
    await page.subscribeAsync('notifications/ivy', { qos: 1 });
    const before = await notify('ivy', 'Before the restart');
    await until(() => seen.some((m) => m.body.id === before), 'the first notification');

    // Both machines lost at once, then both back.
    await Promise.all([cluster.kill(0), cluster.kill(1)]);
    await until(() => !page.connected, 'the page to lose its node');
    const during = await notify('ivy', 'While the cluster is down');
    const from = Date.now();
    await cluster.startAll();
    console.log(`[broker] both nodes killed; the cluster served again ${Date.now() - from} ms after they were started`);
    // Generous: on a loaded runner an MQTT connect to a node still settling can take its whole
    // connect timeout (30 s) before the next attempt, for the page and for the API's relay alike.
    await until(() => page.connected, 'the page to reconnect', 90_000);
    const after = await notify('ivy', 'After the restart');
    await until(() => seen.some((m) => m.body.id === after), 'the notification after the restart', 90_000);
    // Committed while the broker was down: the outbox published it once the API was back on it;
    // a page that was not subscribed yet then reloads the list (SPEC), so it may not be live here.
    await until(
      async () =>
        (
          await t.rows<{
            sent_at: string | null;
          }>`SELECT sent_at FROM live_outbox WHERE payload LIKE ${`%"id":${during},%`}`
        )[0]?.sent_at != null,
      'the outbox row of the notification committed while the broker was down to be sent',
      90_000,
    );
    expect(seen.filter((m) => m.body.id === after)).toHaveLength(1);
  }, 480_000);
});
