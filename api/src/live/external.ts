import mqtt from 'mqtt';
import { messageOf } from '@marketplace/shared/errors';
import { withTimeout } from '@marketplace/shared/timeout';
import type { LiveLogins } from './logins.js';
import { type LivePublisher, topicFor } from './publisher.js';

/** A management call not answered in this time is tried on the next node. */
const MANAGEMENT_TIMEOUT_MS = 2000;

export interface ExternalBrokerOptions {
  /** The nodes' MQTT listeners (mqtt://host:port): the API publishes to one, and moves to the next when it is lost. */
  urls: string[];
  /** The nodes' management APIs (http://host:port), any of which closes connections on every node. */
  managementUrls: string[];
  /** The API's own login, which the broker checks with the API like a page's (routes/brokerAuth.ts). */
  login: { username: string; password: string };
  logins: LiveLogins;
}

/**
 * Publishes to RabbitMQ's cluster (api/rabbitmq), which asks the API who may connect and what
 * each login may do (routes/brokerAuth.ts): nothing about a page's login is written to the broker.
 * Ending a session closes its connections on every node through the management API, by the
 * session's username.
 */
export function connectExternalBroker(options: ExternalBrokerOptions): LivePublisher {
  const { login } = options;
  const servers = options.urls.map((url) => {
    const { hostname, port } = new URL(url);
    return { host: hostname, port: Number(port || 1883) };
  });
  // mqtt.js moves to the next of `servers` at each reconnect, so a lost node costs one period.
  const client = mqtt.connect({
    servers,
    protocol: 'mqtt',
    protocolVersion: 4,
    username: login.username,
    password: login.password,
    reconnectPeriod: 1000,
    // mqtt.js stops for good after a refused login by default; the broker refuses the API's own
    // while it cannot ask the API (its gateway not up yet, say), so keep trying.
    reconnectOnConnackError: true,
    connectTimeout: 5000,
    // RabbitMQ closes a connection silent for exactly its keepalive, and mqtt.js pings only once
    // that much time has passed: at mqtt.js's default (60 s) the API would drop every quiet minute.
    keepalive: 30,
    clean: true,
  });
  const where = options.urls.join(', ');
  client.on('error', (err) => console.error(`[live] broker ${where}: ${err.message}`));

  const authorization = `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`;
  /** One management call, on the first node that answers it (a node that is down is skipped). */
  async function management(method: 'GET' | 'DELETE', path: string): Promise<Response> {
    let last: unknown = null;
    for (const base of options.managementUrls) {
      try {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { authorization, 'x-reason': 'the session ended' },
          signal: AbortSignal.timeout(MANAGEMENT_TIMEOUT_MS),
        });
        if (response.status < 500) return response;
        last = new Error(`${base}: ${response.status}`);
      } catch (error) {
        last = error;
      }
    }
    throw new Error(`no management API answered ${method} ${path}: ${messageOf(last)}`);
  }

  const closeUser = async (username: string) => {
    const response = await management('DELETE', `/api/connections/username/${encodeURIComponent(username)}`);
    // 404: nothing of that user is connected.
    if (!response.ok && response.status !== 404)
      throw new Error(`closing ${username}'s connections: ${response.status} ${await response.text()}`);
  };

  return {
    publish(kind, profileName, payload) {
      client.publish(topicFor(kind, profileName), JSON.stringify(payload), { qos: 1 });
    },
    // mqtt.js calls back at the broker's PUBACK. Offline it would keep the message in memory until
    // a reconnect (lost with the process), so a broker not connected is refused here instead.
    publishAsync(kind, profileName, json, timeoutMs) {
      if (!client.connected) return Promise.reject(new Error(`the broker (${where}) is not connected`));
      return withTimeout(
        client.publishAsync(topicFor(kind, profileName), json, { qos: 1 }).then(() => undefined),
        timeoutMs,
        () => new Error(`${where}: no answer in ${timeoutMs} ms`),
      );
    },
    endSession: ({ username }) => closeUser(username),
    async closeEnded(isLive) {
      const response = await management('GET', '/api/connections?columns=user');
      if (!response.ok) throw new Error(`listing connections: ${response.status}`);
      const users = new Set(((await response.json()) as { user?: string }[]).map((c) => c.user ?? ''));
      let closed = 0;
      for (const username of users) {
        const identity = options.logins.parse(username);
        if (identity && !(await isLive(identity.liveId))) {
          await closeUser(username);
          closed++;
        }
      }
      return closed;
    },
    // At once: a message still unacknowledged is in the outbox, and mqtt.js would wait for its
    // acknowledgement forever with the broker down.
    close: () => client.endAsync(true).then(() => undefined),
  };
}
