/**
 * No 502 from keep-alive (issue 36, item 4): the gateway (api/gateway/nginx.conf under Debian's
 * nginx) keeps an idle connection to an instance for less time than the instance does, so it never
 * sends a request on a connection the instance is closing; and an instance drained by SIGTERM
 * first tells the gateway to stop (Connection: close, /health 503) and closes nothing the gateway
 * may still use. Thousands of state-changing POSTs from concurrent guests, idle gaps just under,
 * at and just over both timeouts, one instance drained mid-run: not one 502 or 504, and no
 * connection closed under the gateway but those the drain's end resets. Those are connections the
 * kernel had accepted for the instance when it stopped listening: nothing in Node can accept them
 * first, so the gateway sends their calls, which carry an Idempotency-Key as the browser's do, to
 * the other instance (api/gateway/nginx.conf, `@keyed`).
 * The timeouts are shortened in the production relation (the gateway's upstream keepalive_timeout
 * 15 s, the instances' API_KEEP_ALIVE_TIMEOUT_MS 30 s: here 200 ms and 400 ms, which Node turns
 * into a close after 1.4 s), so the run takes half a minute. With the relation reversed (the
 * instances closing first) the same run sees connections reset under the gateway and 502s, and the
 * gateway then leaves the instances out (figures in docs/production.md). PostgreSQL project only
 * (vitest.config.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startGateway } from 'api/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, freshDatabase, SHELL_ORIGIN, TestClient } from './harness.js';
import { type ApiProcess, startApiProcess } from './processes.js';
import { type StandInBroker, startStandInBroker } from './standInBroker.js';

const INSTANCE = 'x-api-instance';
/** The gateway's upstream keepalive_timeout and the instances' API_KEEP_ALIVE_TIMEOUT_MS, in ms. */
const GATEWAY_IDLE_MS = 200;
const INSTANCE_IDLE_MS = 400;
/** The drain's grace, at least the gateway's idle time, as in production (SHUTDOWN_GRACE_MS). */
const GRACE_MS = 400;
/**
 * How far from each timeout the idle gaps fall. More of them just under the instances' close: a
 * connection idle that long is one the instance may be closing as the gateway reuses it (the
 * race the relation of the timeouts rules out), and the gateway's pooled connections were last
 * used over the length of a burst, so their idle times spread that much past the gap.
 */
const AROUND_GATEWAY_MS = [-20, -5, 0, 5, 20];
const AROUND_INSTANCE_MS = [-60, -40, -25, -12, -5, 0, 15];
const GUESTS = 24;
const ROUNDS = 24;
/** Each guest adds an item to its cart and removes it, twice: four POSTs a round, back to back. */
const BURST = 2;
const DRAIN_AT_ROUND = 9;
const BUSY = 4;
const BUSY_PAUSE_MS = 10;

/** How long the instance at `port` keeps an idle kept-alive connection (Node adds a second to its setting). */
function idleCloseMs(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answeredAt = 0;
    socket.on('data', () => (answeredAt = Date.now()));
    socket.on('end', () => resolve(Date.now() - answeredAt));
    socket.on('error', reject);
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  });
}

describe('keep-alive between the gateway and the instances', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let instances: ApiProcess[] = [];
  let ports: number[];
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let gatewayDir: string;
  let broker: StandInBroker;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'api-keepalive-'));
    database = await freshDatabase(dir);
    // Two instances on one database meet on an external broker (the second would not start otherwise).
    broker = await startStandInBroker();
    ports = [await freePort(), await freePort()];
    const env = (i: number) => ({
      ...database.env,
      ...broker.env,
      MEDIA_DIR: join(dir, 'media'),
      SEED_DEMO: '1',
      API_INSTANCE: `api-${i + 1}`,
      API_TRUSTED_PROXIES: 'loopback',
      API_ALLOWED_ORIGINS: SHELL_ORIGIN,
      API_KEEP_ALIVE_TIMEOUT_MS: String(INSTANCE_IDLE_MS),
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    });
    // One first (it migrates and seeds), then the other.
    instances = [await startApiProcess(env(0), ports[0] as number)];
    instances.push(await startApiProcess(env(1), ports[1] as number));
    gatewayDir = join(dir, 'gateway');
    gateway = await startGateway({
      port: await freePort(),
      upstreams: ports.map((port) => `127.0.0.1:${port}`),
      workDir: gatewayDir,
      upstreamKeepaliveTimeout: `${GATEWAY_IDLE_MS}ms`,
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    for (const instance of instances) await instance.kill('SIGKILL');
    await broker?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every POST, idle gaps around both timeouts and a drain included: no 502', async () => {
    // What the instances really do: the gaps fall around the moment they close, not their setting.
    const instanceCloses = await idleCloseMs(ports[1] as number);
    expect(instanceCloses).toBeGreaterThan(GATEWAY_IDLE_MS + 100);
    const gaps = [
      ...AROUND_GATEWAY_MS.map((offset) => GATEWAY_IDLE_MS + offset),
      ...AROUND_INSTANCE_MS.map((offset) => instanceCloses + offset),
    ];

    const events = (await new TestClient(gateway.url).call('getEvents', { limit: '50' })).body.events;
    const items: string[] = [];
    for (const event of events) {
      const { contentItems } = (
        await new TestClient(gateway.url).call('getEvent', { eventIdentifier: event.eventIdentifier })
      ).body;
      items.push(...contentItems.filter((item) => item.canAddToCart).map((item) => item.contentIdentifier));
    }
    expect(items.length).toBeGreaterThan(0);

    const replies: { round: number; status: number; instance: string | null; afterDrain: boolean }[] = [];
    let drainedAt = 0;
    let drainStartedAt = 0;
    let drain: Promise<void> = Promise.resolve();
    const post = async (browser: TestClient, call: 'addCartItem' | 'removeCartItem', item: string, round: number) => {
      const sentAt = Date.now();
      const reply = await browser
        .call(call, { identifier: item, itemType: 'CONTENT' }, { headers: { 'Idempotency-Key': randomUUID() } })
        .catch(() => null);
      replies.push({
        round,
        status: reply?.status ?? 0,
        instance: reply?.headers.get(INSTANCE) ?? null,
        afterDrain: drainedAt > 0 && sentAt > drainedAt,
      });
    };
    // A few guests never pause: the instances are busy when their idle connections' time is up,
    // as in production, which is when a late close meets a request already sent.
    let running = true;
    let currentRound = 0;
    const busy = Array.from({ length: BUSY }, async (_, b) => {
      const browser = new TestClient(gateway.url);
      const item = items[(GUESTS + b) % items.length] as string;
      while (running) {
        await post(browser, 'addCartItem', item, currentRound);
        await post(browser, 'removeCartItem', item, currentRound);
        // Real time: a busy guest's pace against the real nginx's and instances' idle clocks.
        await sleep(BUSY_PAUSE_MS);
      }
    });
    const guests = Array.from({ length: GUESTS }, () => new TestClient(gateway.url));
    for (let round = 0; round < ROUNDS; round++) {
      currentRound = round;
      const posts = Promise.all(
        guests.map(async (browser, g) => {
          const item = items[g % items.length] as string;
          for (let i = 0; i < BURST; i++)
            for (const call of ['addCartItem', 'removeCartItem'] as const) await post(browser, call, item, round);
        }),
      );
      // SIGTERM lands while the guests' first POSTs of the round are under way: the instance drains under load.
      if (round === DRAIN_AT_ROUND)
        drain = (async () => {
          drainStartedAt = Date.now();
          await instances[0]?.kill('SIGTERM');
          drainedAt = Date.now();
        })();
      await posts;
      // The gateway reuses its most recently used connection first, so a connection idles only
      // as long as the whole load does: the guests pause together. Real time: the gaps fall around
      // the real nginx's and instances' idle timeouts.
      await sleep(gaps[round % gaps.length] as number);
    }
    running = false;
    await Promise.all([drain, ...busy]);

    const count = (status: number) => replies.filter((r) => r.status === status).length;
    // nginx's error log: "2026/11/25 20:10:01 [error] ... reset by peer ... upstream: "http://127.0.0.1:PORT/...".
    const drainedPort = String(ports[0]);
    const cuts = readFileSync(join(gatewayDir, 'error.log'), 'utf8')
      .split('\n')
      .filter((line) => /prematurely closed|reset by peer|broken pipe/i.test(line))
      .map((line) => ({
        at: new Date(line.slice(0, 19).replaceAll('/', '-').replace(' ', 'T')).getTime(),
        port: /upstream: "http:\/\/[^:]+:(\d+)/.exec(line)?.[1] ?? '',
      }));
    // Reset by the drain's end: on the drained instance, after its drain began (the log counts seconds).
    const byDrain = (c: { at: number; port: string }) =>
      c.port === drainedPort && c.at >= Math.floor(drainStartedAt / 1000) * 1000;
    const cut = cuts.filter((c) => !byDrain(c)).length;
    console.log(
      `[keep-alive] instances close idle connections after ${instanceCloses} ms, the gateway after ${GATEWAY_IDLE_MS} ms; ` +
        `${replies.length} POSTs: ${count(200)} answered 200, ${count(502)} 502, ${count(504)} 504, ` +
        `${count(0)} without an answer; ${replies.filter((r) => r.afterDrain).length} sent after the drain ` +
        `(before it: ${replies.filter((r) => r.round < DRAIN_AT_ROUND && r.status === 502).length} 502); ` +
        `${cut} connections closed under the gateway, ${cuts.length - cut} reset by the drain's end and sent on`,
    );
    expect(replies.length).toBeGreaterThan(GUESTS * ROUNDS * BURST * 2);
    expect({ 502: count(502), 504: count(504), cut }).toEqual({ 502: 0, 504: 0, cut: 0 });
    expect(replies.length - count(200)).toBe(0);
    // Both served before the drain; only the other one after it.
    expect(new Set(replies.filter((r) => r.round < DRAIN_AT_ROUND).map((r) => r.instance))).toEqual(
      new Set(['api-1', 'api-2']),
    );
    const after = replies.filter((r) => r.afterDrain);
    expect(after.length).toBeGreaterThan(0);
    expect(new Set(after.map((r) => r.instance))).toEqual(new Set(['api-2']));
  }, 90_000);
});
