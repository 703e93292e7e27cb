import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, freePort, startTestApi, type TestApi } from './harness.js';

let broker: Aedes;
let tcp: Server;
let brokerUrl: string;
let t: TestApi;

beforeAll(async () => {
  // Stands in for docker-compose's mosquitto: a separate broker the API does not own.
  broker = await Aedes.createBroker();
  tcp = createServer(broker.handle);
  const port = await freePort();
  await new Promise<void>((resolve) => tcp.listen(port, '127.0.0.1', () => resolve()));
  brokerUrl = `mqtt://127.0.0.1:${port}`;
  t = await startTestApi({ MQTT_BROKER_URL: brokerUrl });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  await new Promise<void>((resolve) => tcp.close(() => resolve()));
});

describe('external broker', () => {
  it('publishes server events to the broker given by MQTT_BROKER_URL, and embeds none', async () => {
    const upgrade = await fetch(`${t.url}/mqtt`, { headers: { connection: 'Upgrade', upgrade: 'websocket' } }).catch(() => null);
    expect(upgrade === null || upgrade.status === 404).toBe(true);

    const sub = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
    await sub.subscribeAsync('notifications/olga', { qos: 1 });
    const arrived = new Promise<unknown>((resolve) => sub.on('message', (_topic, payload) => resolve(JSON.parse(payload.toString()))));
    // Published right after start-up: the API's client queues it until its connection is up.
    const res = await t.client().fetch('/internal/notify', {
      method: 'POST',
      body: JSON.stringify({ profileName: 'olga', content: 'Via mosquitto' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(201);
    expect(await arrived).toMatchObject({ content: 'Via mosquitto', status: 'NEW' });
    await sub.endAsync();
  });
});
