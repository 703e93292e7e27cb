// `pnpm --filter api bench:broker`: the live channel's figures on this machine (issue 40, item 6),
// for a RabbitMQ cluster of one node and of two (api/rabbitmq, Debian's rabbitmq-server), with
// one API (SQLite) that the broker asks about every login: pages' connections per second, the
// time from a notification's commit (POST /internal/notify) to its arrival on a subscribed page
// (p50, p95), and how many connected pages the cluster holds (up to PAGES, all still connected
// at the end). Prints one line per cluster size, for docs/performance.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { freePort } from '@marketplace/shared/node/ports';
import { startRabbitCluster } from '../rabbitmq/rabbitmq.mjs';
import { ADMIN_TOKEN, startTestApi, type TestClient } from '../test/harness.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const NOTIFICATIONS = 200;
const CONCURRENCY = 20;
/** What the broker presents to the API's /internal/broker routes (BROKER_AUTH_SECRET). */
const BROKER_AUTH_SECRET = 'bench-broker-auth-secret-0123456789abcdef';

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function run(nodeCount: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'broker-bench-'));
  const internalPort = await freePort();
  const nodes = [];
  for (let i = 0; i < nodeCount; i++)
    nodes.push({
      mqttPort: await freePort(),
      wsPort: await freePort(),
      managementPort: await freePort(),
      distPort: await freePort(),
    });
  const cluster = await startRabbitCluster({
    dir,
    epmdPort: await freePort(),
    authUrl: `http://127.0.0.1:${internalPort}`,
    authSecret: BROKER_AUTH_SECRET,
    nodes,
  });
  const api = await startTestApi({
    API_INTERNAL_PORT: String(internalPort),
    API_INTERNAL_HOST: '127.0.0.1',
    MQTT_BROKER_URL: cluster.mqttUrls.join(','),
    MQTT_MANAGEMENT_URL: cluster.managementUrls.join(','),
    MQTT_PASSWORD: 'bench-broker-password-0123',
    LIVE_LOGIN_KEY: 'bench-live-login-key-0123456789abcdef',
    BROKER_AUTH_SECRET,
    LIVE_RELAY_POLL_MS: '50',
  });
  const pages: MqttClient[] = [];
  try {
    const user: TestClient = await api.as('ivy');
    const res = await user.call('getLiveCredentials');
    const login = res.body as { username: string; password: string };
    const connect = (i: number) =>
      mqtt.connectAsync(cluster.wsUrls[i % nodeCount] ?? '', {
        ...login,
        // Under the login's name, as pages do (api/src/routes/brokerAuth.ts).
        clientId: `${login.username}-${i}`,
        protocolVersion: 4,
        reconnectPeriod: 0,
        keepalive: 30,
      });

    // Connections per second: every page logs in (the broker asks the API) and subscribes.
    const from = Date.now();
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < PAGES) {
          const i = next++;
          try {
            const page = await connect(i);
            await page.subscribeAsync('notifications/ivy', { qos: 1 });
            pages.push(page);
          } catch {
            failed++;
          }
        }
      }),
    );
    const perSecond = (pages.length / (Date.now() - from)) * 1000;

    // Publish to receive, on one page per node, one notification at a time.
    const probes = pages.slice(0, nodeCount);
    const latencies: number[] = [];
    for (let n = 0; n < NOTIFICATIONS; n++) {
      const arrived = probes.map(
        (probe) =>
          new Promise<number>((resolve) => {
            const on = (_topic: string, payload: Buffer) => {
              if ((JSON.parse(payload.toString()) as { content?: string }).content !== `bench ${n}`) return;
              probe.off('message', on);
              resolve(Date.now());
            };
            probe.on('message', on);
          }),
      );
      const sent = Date.now();
      await fetch(`${api.api.internalUrl}/internal/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ profileName: 'ivy', content: `bench ${n}` }),
      });
      for (const at of await Promise.all(arrived)) latencies.push(at - sent);
    }
    latencies.sort((a, b) => a - b);
    const held = pages.filter((p) => p.connected).length;
    return (
      `${nodeCount} node${nodeCount > 1 ? 's' : ''}: ${perSecond.toFixed(0)} connections/s (${pages.length} pages, ${failed} refused), ` +
      `commit to page p50 ${quantile(latencies, 0.5)} ms, p95 ${quantile(latencies, 0.95)} ms (${latencies.length} arrivals), ` +
      `${held} pages held connected`
    );
  } finally {
    await Promise.all(pages.map((p) => p.endAsync(true)));
    await api.close();
    await cluster.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

const lines = [];
for (const n of [1, 2]) lines.push(await run(n));
console.log(`\n[bench:broker] up to ${PAGES} pages, ${NOTIFICATIONS} notifications\n${lines.join('\n')}`);
process.exit(0);
