// Each node's configuration for a local run: the repository's production configuration
// (rabbitmq.conf) with only the listeners, the API's address and the nodes' names changed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const RABBITMQ_CONF = join(import.meta.dirname, 'rabbitmq.conf');

/**
 * The repository's configuration with `values` in place of its own: every key given must be in
 * the file (so the file and this runner cannot drift apart), and keys ending in `.*` replace the
 * whole numbered list (the cluster's nodes).
 *
 * @param {string} text
 * @param {Record<string, string | string[]>} values
 */
export function withValues(text, values) {
  let out = text;
  for (const [key, value] of Object.entries(values)) {
    if (key.endsWith('.*')) {
      const prefix = key.slice(0, -1);
      const lines = out.split('\n');
      const first = lines.findIndex((l) => l.startsWith(prefix));
      if (first < 0) throw new Error(`${RABBITMQ_CONF} no longer has ${key}`);
      const kept = lines.filter((l) => !l.startsWith(prefix));
      const list = Array.isArray(value) ? value : [value];
      kept.splice(first, 0, ...list.map((v, i) => `${prefix}${i + 1} = ${v}`));
      out = kept.join('\n');
    } else {
      const pattern = new RegExp(`^${key.replace(/[.]/g, '\\.')} = .*$`, 'm');
      if (!pattern.test(out)) throw new Error(`${RABBITMQ_CONF} no longer has ${key}`);
      out = out.replace(pattern, `${key} = ${String(value)}`);
    }
  }
  return out;
}

/** The basic-auth user the broker asks the API as (api/src/config.ts BROKER_AUTH_USER). */
export const BROKER_AUTH_USER = 'broker-auth';

/**
 * The URL of one of the API's /internal/broker routes, with the credential the API requires in
 * its user information (Erlang's HTTP client sends it as basic auth; the backend sends no header
 * of its own). The secret goes in undecoded, so it is of a URL's unreserved characters only.
 *
 * @param {string} authUrl where the API's /internal/broker routes are (http://127.0.0.1:port)
 * @param {string} authSecret the API's BROKER_AUTH_SECRET
 * @param {string} name user, vhost, resource or topic
 */
export function brokerAuthPath(authUrl, authSecret, name) {
  if (!/^[A-Za-z0-9._~-]{32,}$/.test(authSecret))
    throw new Error('the broker auth secret must be 32 characters at least, of A-Z a-z 0-9 . _ ~ - only');
  const url = new URL(`${authUrl.replace(/\/$/, '')}/internal/broker/${name}`);
  if (url.username || url.password) throw new Error('authUrl must carry no credential: authSecret is it');
  return `${url.protocol}//${BROKER_AUTH_USER}:${authSecret}@${url.host}${url.pathname}`;
}

/**
 * One node's configuration for a local run.
 *
 * @param {{ mqttPort: number, wsPort: number, managementPort: number }} ports
 * @param {string[]} nodeNames every node of the cluster
 * @param {string} authUrl where the API's /internal/broker routes are (http://127.0.0.1:port)
 * @param {string} authSecret the API's BROKER_AUTH_SECRET, which the broker presents there
 */
export function localNodeConfig(ports, nodeNames, authUrl, authSecret) {
  /** @param {string} name */
  const path = (name) => brokerAuthPath(authUrl, authSecret, name);
  return withValues(readFileSync(RABBITMQ_CONF, 'utf8'), {
    'mqtt.listeners.tcp.default': `127.0.0.1:${ports.mqttPort}`,
    'web_mqtt.tcp.port': String(ports.wsPort),
    'management.tcp.port': String(ports.managementPort),
    'auth_http.user_path': path('user'),
    'auth_http.vhost_path': path('vhost'),
    'auth_http.resource_path': path('resource'),
    'auth_http.topic_path': path('topic'),
    'cluster_formation.classic_config.nodes.*': nodeNames,
  }).concat('\n# Local run: loopback only.\nweb_mqtt.tcp.ip = 127.0.0.1\nmanagement.tcp.ip = 127.0.0.1\n');
}
