import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIVE_WEBSOCKET_PATH, LIVE_TOPICS, type CallName } from '@marketplace/shared/contract';
import { ADMIN_TOKEN, DEMO_PASSWORD, SHELL_ORIGIN, startTestApi, type TestApi, type TestClient } from './harness.js';

/**
 * A bounded load test on loopback: concurrent users log in, browse, add to and remove from their cart and
 * read notifications, while 200 MQTT subscribers receive a burst of published notifications.
 * Bounded in count (fixed requests per user, fixed burst) and time (the test's timeout). It
 * reports throughput, latency percentiles and errors (printed, and written to
 * LOAD_REPORT_FILE when set), and asserts that no request failed and that every subscriber
 * received every notification of its topic exactly once.
 */
const USERS = ['clara', 'mia', 'dave', 'olga', 'max', 'leo', 'ivy', 'sam', 'zoe', 'ben', 'ana', 'tom'];
const VIRTUAL_USERS = 24;
const ROUNDS_PER_USER = 10;
const LOGIN_EVERY_ROUNDS = 5;
const SUBSCRIBERS = 200;
const BURST_PER_USER = 5;
const EVENTS = ['summer-jazz-night-2026', 'city-marathon-2026', 'tech-meetup-november'];
/**
 * Published on every topic after the burst. The relay publishes in the outbox's order and a topic's
 * messages reach a subscriber in the order published, so a subscriber that has it has had every
 * message of the burst, and any repeat of one, that it will get.
 */
const LAST = 'load last';

let t: TestApi;
const subscribers: MqttClient[] = [];
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(async () => {
  await Promise.all(subscribers.map((s) => s.endAsync(true)));
  await t.close();
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

describe('bounded load', () => {
  it(
    'serves concurrent users without a failed request while 200 subscribers each get every notification exactly once',
    { timeout: 120_000 },
    async () => {
      const sessions = new Map<string, TestClient>();
      for (const name of USERS) sessions.set(name, await t.as(name));

      // 200 live subscribers, spread over the users' own notification topics (the broker's ACL).
      const received = new Map<number, Map<string, number>>();
      const heardLast = new Set<number>();
      const wsUrl = `${t.url.replace('http', 'ws')}${LIVE_WEBSOCKET_PATH}`;
      for (let i = 0; i < SUBSCRIBERS; i++) {
        const user = USERS[i % USERS.length] as string;
        const client = sessions.get(user) as TestClient;
        const mq = await mqtt.connectAsync(wsUrl, {
          reconnectPeriod: 0,
          connectTimeout: 10_000,
          wsOptions: { headers: { origin: SHELL_ORIGIN, cookie: client.cookieHeader } },
        });
        subscribers.push(mq);
        const counts = new Map<string, number>();
        received.set(i, counts);
        mq.on('message', (_topic, payload) => {
          const { content } = JSON.parse(payload.toString()) as { content: string };
          if (content === LAST) heardLast.add(i);
          else counts.set(content, (counts.get(content) ?? 0) + 1);
        });
        await mq.subscribeAsync(LIVE_TOPICS.notifications(user), { qos: 1 });
      }

      const latencies: number[] = [];
      const byCall = new Map<string, number[]>();
      const failures: string[] = [];
      const timed = async (what: string, send: () => Promise<{ status: number }>) => {
        const start = performance.now();
        const { status } = await send();
        const ms = performance.now() - start;
        latencies.push(ms);
        byCall.set(what, [...(byCall.get(what) ?? []), ms]);
        if (status >= 400) failures.push(`${what}: ${status}`);
      };

      // Browsing, cart and notifications for every virtual user, all at once.
      const virtualUser = async (n: number) => {
        const name = USERS[n % USERS.length] as string;
        const client = sessions.get(name) as TestClient;
        // What this account may buy (not its own, for sale); the account's virtual users take different items.
        const buyable = (
          await Promise.all(EVENTS.map((eventIdentifier) => client.call('getEvent', { eventIdentifier })))
        )
          .flatMap((r) => r.body.contentItems ?? [])
          .filter((i) => i.canAddToCart)
          .map((i) => i.contentIdentifier);
        const item = buyable[Math.floor(n / USERS.length) % buyable.length] as string;
        const call = (what: CallName, request: Record<string, unknown> = {}) =>
          timed(what, () => client.call(what, request));
        for (let round = 0; round < ROUNDS_PER_USER; round++) {
          // Now and then a log in from another device: password hashing shares the server with browsing.
          if (round % LOGIN_EVERY_ROUNDS === 0)
            await timed('login', () => t.client().call('login', { login: name, password: DEMO_PASSWORD }));
          await call('getEvents', { limit: 20 });
          await call('getEvent', { eventIdentifier: 'summer-jazz-night-2026' });
          await call('search', { query: round % 2 ? 'jazz' : 'mia' });
          await call('getPosts', { limit: 20 });
          await call('addCartItem', { identifier: item, itemType: 'CONTENT' });
          await call('getCart');
          await call('removeCartItem', { identifier: item });
          await call('getNotifications');
          await call('getMessageNotifications', { pageNo: 0, limit: 10 });
        }
      };

      // The burst: every user's topic gets BURST_PER_USER notifications, published by the API.
      const burst = async () => {
        await Promise.all(
          USERS.flatMap((user) =>
            Array.from({ length: BURST_PER_USER }, (_, k) =>
              timed('notify', () =>
                t.client().fetch('/internal/notify', {
                  method: 'POST',
                  body: JSON.stringify({ profileName: user, content: `load ${user} ${k}`, link: null }),
                  headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
                }),
              ),
            ),
          ),
        );
      };

      const started = performance.now();
      await Promise.all([...Array.from({ length: VIRTUAL_USERS }, (_, n) => virtualUser(n)), burst()]);
      const seconds = (performance.now() - started) / 1000;

      // Delivery: wait until every subscriber has the message after the burst (or time out).
      const expected = (i: number) =>
        Array.from({ length: BURST_PER_USER }, (_, k) => `load ${USERS[i % USERS.length]} ${k}`);
      for (const user of USERS) {
        const last = await t.client().fetch('/internal/notify', {
          method: 'POST',
          body: JSON.stringify({ profileName: user, content: LAST, link: null }),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        expect(last.status).toBe(201);
      }
      await vi.waitFor(() => expect(heardLast.size).toBe(SUBSCRIBERS), { timeout: 20_000, interval: 100 });

      const sorted = [...latencies].sort((a, b) => a - b);
      const report = {
        virtualUsers: VIRTUAL_USERS,
        requests: latencies.length,
        seconds: Number(seconds.toFixed(2)),
        requestsPerSecond: Math.round(latencies.length / seconds),
        latencyMs: {
          p50: Number(percentile(sorted, 50).toFixed(1)),
          p95: Number(percentile(sorted, 95).toFixed(1)),
          p99: Number(percentile(sorted, 99).toFixed(1)),
          max: Number((sorted.at(-1) ?? 0).toFixed(1)),
        },
        p95ByCallMs: Object.fromEntries(
          [...byCall].map(([what, ms]) => [
            what,
            Number(
              percentile(
                [...ms].sort((a, b) => a - b),
                95,
              ).toFixed(1),
            ),
          ]),
        ),
        errors: failures.length,
        subscribers: SUBSCRIBERS,
        notificationsPublished: USERS.length * BURST_PER_USER,
        deliveries: [...received.values()].reduce(
          (sum, counts) => sum + [...counts.values()].reduce((a, b) => a + b, 0),
          0,
        ),
      };
      console.log(`[load] ${JSON.stringify(report)}`);
      if (process.env.LOAD_REPORT_FILE)
        writeFileSync(join(process.cwd(), process.env.LOAD_REPORT_FILE), `${JSON.stringify(report, null, 2)}\n`);

      expect(failures).toEqual([]);
      expect(latencies).toHaveLength(
        VIRTUAL_USERS * (ROUNDS_PER_USER * 9 + ROUNDS_PER_USER / LOGIN_EVERY_ROUNDS) + USERS.length * BURST_PER_USER,
      );
      for (const [i, counts] of received) {
        expect(Object.fromEntries(counts), `subscriber ${i}`).toEqual(
          Object.fromEntries(expected(i).map((c) => [c, 1])),
        );
      }
      expect(report.deliveries).toBe(SUBSCRIBERS * BURST_PER_USER);
    },
  );
});
