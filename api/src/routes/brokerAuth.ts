import { timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { BROKER_AUTH_USER } from '../config.js';
import type { AppEnv } from '../http/env.js';
import { routingKeyOf } from '../live/logins.js';
import { readableTopics } from '../live/publisher.js';
import type { Services } from '../services.js';

/**
 * The queues RabbitMQ's MQTT plugin makes for a connection's subscriptions, `mqtt-subscription-`
 * + client id + `qos0`/`qos1`. A page's client id starts with its login's username
 * (shared/src/live/channel.ts), and a login may use only queues so named: the client id is the
 * client's choice, and a queue that outlived its connection (clean session off) is consumed
 * without its topics being checked again, so another login, or a login of a session that ended,
 * could otherwise read what was bound to it.
 */
const ownQueue = (username: string, name: string) =>
  name.startsWith(`mqtt-subscription-${username}-`) && /qos[01]$/.test(name);
/** The exchange MQTT messages go through (rabbitmq.conf `mqtt.exchange`). */
const EXCHANGE = 'amq.topic';
const VHOST = '/';

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * RabbitMQ's HTTP authentication backend (api/rabbitmq/rabbitmq.conf `auth_http.*`): the broker
 * asks, the API answers `allow` or `deny`. Served on the internal port, which only the gateway's
 * internal listener passes on (api/gateway/nginx.conf); never through the public gateway (an API
 * with an external broker does not start without an internal port: server.ts).
 *
 * The broker asks with the credential its configuration's URLs carry (basic auth, user
 * BROKER_AUTH_USER, password BROKER_AUTH_SECRET: the backend can send no header of its own).
 * A question without it is refused (403) before anything in it is read, so whoever reaches the
 * internal port otherwise (another container, a process on the host) cannot test passwords or
 * logins here. Without a secret (no external broker) every question is refused.
 *
 * - A page's login (live/logins.ts) connects while its signature holds, its expiry is ahead and
 *   its session lives; it may read its user's topics and the rollbacks, through the queues the
 *   MQTT plugin makes for its subscriptions, and publish nothing.
 * - The API's own login (MQTT_USERNAME, MQTT_PASSWORD) may publish to any topic and is the
 *   management API's administrator (it closes ended sessions' connections).
 * - Anything else is denied, and so is every login while the API has no external broker.
 */
export function registerBrokerAuthRoutes(app: Hono<AppEnv>, { config, logins, repos }: Services): void {
  const api = config.broker?.login ?? null;
  const isApi = (username: string) => api !== null && username === api.username;
  const field = async (c: Context<AppEnv>) => {
    const body = await c.req.parseBody().catch(() => ({}));
    return (name: string): string => {
      const value = (body as Record<string, unknown>)[name];
      return typeof value === 'string' ? value : '';
    };
  };
  const answer = (c: Context<AppEnv>, allowed: boolean, tags = '') =>
    c.text(allowed ? `allow${tags ? ` ${tags}` : ''}` : 'deny');

  const expected =
    config.brokerAuthSecret === null
      ? null
      : `Basic ${Buffer.from(`${BROKER_AUTH_USER}:${config.brokerAuthSecret}`).toString('base64')}`;
  app.use('/internal/broker/*', async (c, next) => {
    const given = c.req.header('authorization') ?? '';
    if (expected === null || !sameText(given, expected)) return c.text('Forbidden', 403);
    await next();
  });

  app.post('/internal/broker/user', async (c) => {
    const get = await field(c);
    const username = get('username');
    const password = get('password');
    if (api && isApi(username)) return answer(c, sameText(password, api.password), 'administrator');
    const identity = api ? logins.verify(username, password) : null;
    return answer(c, identity !== null && (await repos.sessions.isLive(identity.liveId)));
  });

  app.post('/internal/broker/vhost', async (c) => {
    const get = await field(c);
    const username = get('username');
    return answer(c, get('vhost') === VHOST && (isApi(username) || logins.parse(username) !== null));
  });

  app.post('/internal/broker/resource', async (c) => {
    const get = await field(c);
    const [username, resource, name, permission] = [get('username'), get('resource'), get('name'), get('permission')];
    const known = isApi(username) || logins.parse(username) !== null;
    if (!known || get('vhost') !== VHOST) return answer(c, false);
    // A page's own subscription queues; the API subscribes to nothing.
    if (resource === 'queue') return answer(c, !isApi(username) && ownQueue(username, name));
    // Binding a queue to the exchange reads it; only the API writes (publishes) to it.
    if (resource === 'exchange' && name === EXCHANGE)
      return answer(c, permission === 'read' || (permission === 'write' && isApi(username)));
    return answer(c, false);
  });

  app.post('/internal/broker/topic', async (c) => {
    const get = await field(c);
    const [username, name, permission, routingKey] = [
      get('username'),
      get('name'),
      get('permission'),
      get('routing_key'),
    ];
    if (get('vhost') !== VHOST || name !== EXCHANGE) return answer(c, false);
    if (isApi(username)) return answer(c, permission === 'write');
    const identity = logins.parse(username);
    return answer(
      c,
      identity !== null &&
        permission === 'read' &&
        readableTopics(identity.profileName).map(routingKeyOf).includes(routingKey),
    );
  });
}
