/**
 * A real MQTT broker standing in for RabbitMQ's cluster in the tests whose subject is not the
 * live channel. Several instances on one PostgreSQL database must meet on an external broker
 * (an instance that would embed its own refuses to start there: claimEmbeddedBroker in
 * src/db/database.ts), so the multi-instance tests (harness.ts `replicas`, gateway, instance
 * kill, keep-alive, ...) need one; booting RabbitMQ for each of them would cost a cluster's start
 * per file for nothing they check. The live channel itself, on real RabbitMQ with its HTTP
 * authentication and management API, is tested in test/external-broker.test.ts.
 *
 * An Aedes broker on plain TCP on loopback (the API publishes over mqtt://) that lets in the API's
 * own login only, and an HTTP server answering the two management calls the API makes
 * (live/external.ts): closing a user's connections, recorded in `closedUsers`, and listing the
 * connections, of which there are none (no page connects here).
 */
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Aedes } from 'aedes';

export interface StandInBroker {
  /**
   * What an API takes to publish here (MQTT_USERNAME is left to its default, 'api'), with what an
   * API on an external broker must have to start: an internal port (a free one) for the broker's
   * questions and the credential they carry (this broker asks none).
   */
  env: {
    MQTT_BROKER_URL: string;
    MQTT_MANAGEMENT_URL: string;
    MQTT_PASSWORD: string;
    LIVE_LOGIN_KEY: string;
    API_INTERNAL_PORT: string;
    BROKER_AUTH_SECRET: string;
  };
  /** The usernames whose connections the API asked the management API to close, in order. */
  closedUsers: string[];
  close(): Promise<void>;
}

/** The API's login name when MQTT_USERNAME is not set (config.ts). */
const API_USERNAME = 'api';
const CONNECTIONS_OF_USER = /^\/api\/connections\/username\/([^/?]+)$/;

export async function startStandInBroker(): Promise<StandInBroker> {
  const password = randomBytes(16).toString('hex');
  const broker = await Aedes.createBroker({
    // As RabbitMQ asks the API (routes/brokerAuth.ts): the API's own login and nothing else.
    authenticate(_client, username, given, done) {
      const ok = username === API_USERNAME && given?.toString() === password;
      done(ok ? null : Object.assign(new Error('Not authorized'), { returnCode: 5 as const }), ok);
    },
  });
  const closedUsers: string[] = [];
  const authorization = `Basic ${Buffer.from(`${API_USERNAME}:${password}`).toString('base64')}`;
  const management = createHttpServer((req, res) => {
    const path = req.url ?? '';
    if (req.headers.authorization !== authorization) {
      res.writeHead(401).end();
      return;
    }
    const user = CONNECTIONS_OF_USER.exec(path)?.[1];
    if (req.method === 'DELETE' && user) {
      closedUsers.push(decodeURIComponent(user));
      res.writeHead(204).end();
    } else if (req.method === 'GET' && path.split('?')[0] === '/api/connections') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    } else res.writeHead(404).end();
  });
  // The API instances' connections, ended at close: a server closes only once they are gone.
  const sockets = new Set<Socket>();
  const mqttServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    broker.handle(socket);
  });
  const listen = (server: Server) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const [mqttPort, managementPort] = await Promise.all([listen(mqttServer), listen(management)]);
  const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

  return {
    env: {
      MQTT_BROKER_URL: `mqtt://127.0.0.1:${mqttPort}`,
      MQTT_MANAGEMENT_URL: `http://127.0.0.1:${managementPort}`,
      MQTT_PASSWORD: password,
      LIVE_LOGIN_KEY: randomBytes(32).toString('hex'),
      API_INTERNAL_PORT: '0',
      BROKER_AUTH_SECRET: randomBytes(32).toString('hex'),
    },
    closedUsers,
    async close() {
      // Listening stops first, so an instance still reconnecting cannot slip a socket in after.
      const done = Promise.all([closed(mqttServer), closed(management)]);
      for (const socket of sockets) socket.destroy();
      management.closeAllConnections();
      await done;
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
