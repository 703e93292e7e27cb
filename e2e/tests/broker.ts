import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, WebSocket } from '@playwright/test';
import { BROKER_DIR, BROKER_LOGIN, BROKER_NODES } from '../env.js';

// The production project's RabbitMQ cluster as the tests see it: its management API (with the
// API's login, the administrator), its nodes' process groups, and what a page's one live
// connection carries, read from its websocket frames (MQTT 3.1.1 packets).

const MANAGEMENT = BROKER_NODES.map((n) => `http://127.0.0.1:${n.managementPort}`);
const AUTHORIZATION = `Basic ${Buffer.from(`${BROKER_LOGIN.username}:${BROKER_LOGIN.password}`).toString('base64')}`;

/** A GET on the management API of the first node that answers it (a node may be down). */
export async function management<T>(path: string): Promise<T> {
  let last = '';
  for (const base of MANAGEMENT) {
    try {
      const response = await fetch(`${base}${path}`, {
        headers: { authorization: AUTHORIZATION },
        signal: AbortSignal.timeout(2000),
      });
      if (response.ok) return (await response.json()) as T;
      last = `${base}: ${response.status}`;
    } catch (error) {
      last = `${base}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  throw new Error(`no management API answered ${path} (${last})`);
}

export interface BrokerConnection {
  user: string;
  node: string;
  clientId: string;
}

/**
 * Every MQTT connection of the cluster (a user's only, given one), with the node holding it and
 * its client id (which /api/connections/username/<user> does not give).
 */
export async function brokerConnections(username?: string): Promise<BrokerConnection[]> {
  const list = await management<{ user: string; node: string; client_properties?: { client_id?: string } }[]>(
    '/api/connections?columns=user,node,client_properties',
  );
  return list
    .filter((c) => username === undefined || c.user === username)
    .map((c) => ({ user: c.user, node: c.node, clientId: c.client_properties?.client_id ?? '' }));
}

/** The cluster's nodes and whether each runs, as a node that answers sees them. */
export function brokerNodes(): Promise<{ name: string; running: boolean }[]> {
  return management('/api/nodes?columns=name,running');
}

/**
 * Kills node `index` (0-based) as a lost machine: SIGKILL to its process group (the Erlang VM and
 * its helpers), read from the runner's node-N.pid. The runner starts it again a second later.
 */
export function killBrokerNode(index: number): void {
  if (!BROKER_DIR) throw new Error('no broker here: the production project runs one');
  const pgid = Number(readFileSync(join(BROKER_DIR, `node-${index + 1}.pid`), 'utf8'));
  process.kill(-pgid, 'SIGKILL');
}

/** The node names the runner gives (api/rabbitmq/rabbitmq.mjs: rabbit-N@localhost). */
export const brokerNodeName = (index: number) => `rabbit-${index + 1}@localhost`;

/** A notification as a page received it live. */
export interface LiveNotification {
  id: number;
  content: string;
  at: number;
}

/** One websocket of a page, as its MQTT packets tell it. */
export interface LiveSocket {
  socket: WebSocket;
  openedAt: number;
  /** The MQTT client id the page connected with (its CONNECT). */
  clientId: string | null;
  /** The broker's answer to the CONNECT: 0 accepted, 4 bad login, 5 not authorised. */
  connack: number | null;
  /** When the broker confirmed a subscription (SUBACK without a failure code). */
  subscribedAt: number | null;
  /** The topics the broker confirmed a subscription to, in the order confirmed. */
  subscribed: string[];
  closedAt: number | null;
  notifications: LiveNotification[];
}

/** Splits a byte stream into whole MQTT packets; what is left over waits for the next frame. */
function packets(stream: { rest: Buffer }, chunk: Buffer): { type: number; flags: number; body: Buffer }[] {
  let buffer = Buffer.concat([stream.rest, chunk]);
  const out: { type: number; flags: number; body: Buffer }[] = [];
  for (;;) {
    if (buffer.length < 2) break;
    let length = 0;
    let multiplier = 1;
    let i = 1;
    let byte: number;
    do {
      byte = buffer[i] ?? 0;
      length += (byte & 127) * multiplier;
      multiplier *= 128;
      i++;
    } while (byte & 128 && i < buffer.length);
    if (byte & 128 || buffer.length < i + length) break;
    const first = buffer[0] ?? 0;
    out.push({ type: first >> 4, flags: first & 15, body: buffer.subarray(i, i + length) });
    buffer = buffer.subarray(i + length);
  }
  stream.rest = buffer;
  return out;
}

const CONNECT = 1;
const CONNACK = 2;
const PUBLISH = 3;
const SUBSCRIBE = 8;
const SUBACK = 9;

/** The notification a PUBLISH carries on a notifications/ topic, if it is one. */
function notificationOf(flags: number, body: Buffer): { id: number; content: string } | null {
  const topicLength = body.readUInt16BE(0);
  const topic = body.subarray(2, 2 + topicLength).toString('utf8');
  if (!topic.startsWith('notifications/')) return null;
  const qos = (flags >> 1) & 3;
  const payload = body.subarray(2 + topicLength + (qos > 0 ? 2 : 0)).toString('utf8');
  try {
    const value = JSON.parse(payload) as { id?: unknown; content?: unknown };
    return typeof value.id === 'number' && typeof value.content === 'string'
      ? { id: value.id, content: value.content }
      : null;
  } catch {
    return null;
  }
}

/**
 * Follows every live connection `page` opens from now on: its MQTT client id, the broker's
 * CONNACK and SUBACK, the notifications it receives (every copy), and when it closed.
 */
export function followLiveSockets(page: Page): LiveSocket[] {
  const sockets: LiveSocket[] = [];
  page.on('websocket', (socket) => {
    const live: LiveSocket = {
      socket,
      openedAt: Date.now(),
      clientId: null,
      connack: null,
      subscribedAt: null,
      subscribed: [],
      closedAt: null,
      notifications: [],
    };
    sockets.push(live);
    const sent = { rest: Buffer.alloc(0) };
    const received = { rest: Buffer.alloc(0) };
    /** The topics of each SUBSCRIBE sent, by its packet id, until its SUBACK. */
    const subscribing = new Map<number, string[]>();
    socket.on('framesent', ({ payload }) => {
      for (const packet of packets(sent, Buffer.from(payload))) {
        if (packet.type === SUBSCRIBE) {
          // The packet id, then each topic filter (length-prefixed) with its QoS byte.
          const topics: string[] = [];
          for (let at = 2; at + 2 <= packet.body.length;) {
            const length = packet.body.readUInt16BE(at);
            topics.push(packet.body.subarray(at + 2, at + 2 + length).toString('utf8'));
            at += 2 + length + 1;
          }
          subscribing.set(packet.body.readUInt16BE(0), topics);
        }
        if (packet.type !== CONNECT) continue;
        // Protocol name, level, flags and keep-alive, then the client id.
        const nameLength = packet.body.readUInt16BE(0);
        const at = 2 + nameLength + 4;
        live.clientId = packet.body.subarray(at + 2, at + 2 + packet.body.readUInt16BE(at)).toString('utf8');
      }
    });
    socket.on('framereceived', ({ payload }) => {
      for (const packet of packets(received, Buffer.from(payload))) {
        if (packet.type === CONNACK) live.connack = packet.body[1] ?? null;
        else if (packet.type === SUBACK && !packet.body.subarray(2).includes(0x80)) {
          live.subscribedAt ??= Date.now();
          live.subscribed.push(...(subscribing.get(packet.body.readUInt16BE(0)) ?? []));
        } else if (packet.type === PUBLISH) {
          const notification = notificationOf(packet.flags, packet.body);
          if (notification) live.notifications.push({ ...notification, at: Date.now() });
        }
      }
    });
    socket.on('close', () => {
      live.closedAt = Date.now();
    });
  });
  return sockets;
}

/** How the broker answered a connect: its CONNACK's return code, or the websocket closed first. */
export type ConnectAnswer = { connack: number } | { closedBeforeConnack: string } | { noWebsocket: true };

/**
 * Connects from `page` to the broker at `url` with `login`, as an MQTT client would, and says how
 * the broker answered. RabbitMQ 3.10's web MQTT closes a refused login's websocket without a
 * CONNACK (close code 1002, "unauthenticated"); over plain MQTT, and in later versions, a refusal
 * is a CONNACK with code 4 or 5.
 */
export function connectAnswer(
  page: Page,
  url: string,
  login: { username: string; password: string },
): Promise<ConnectAnswer> {
  return page.evaluate(
    ({ url, username, password }) =>
      new Promise<ConnectAnswer>((resolve) => {
        const text = (s: string) => {
          const bytes = new TextEncoder().encode(s);
          return [bytes.length >> 8, bytes.length & 255, ...bytes];
        };
        // MQTT 3.1.1 CONNECT: clean session, username and password, keep-alive 10 s.
        const body = [
          ...text('MQTT'),
          4,
          0xc2,
          0,
          10,
          ...text('revocation-check'),
          ...text(username),
          ...text(password),
        ];
        const length: number[] = [];
        let rest = body.length;
        do {
          length.push((rest & 127) | (rest > 127 ? 128 : 0));
          rest >>= 7;
        } while (rest > 0);
        let opened = false;
        const ws = new WebSocket(url, 'mqtt');
        ws.binaryType = 'arraybuffer';
        ws.onopen = () => {
          opened = true;
          ws.send(new Uint8Array([0x10, ...length, ...body]));
        };
        ws.onmessage = (event) => {
          const bytes = new Uint8Array(event.data as ArrayBuffer);
          if (bytes[0] === 0x20) resolve({ connack: bytes[3] ?? -1 });
          ws.close();
        };
        ws.onclose = (event) =>
          resolve(opened ? { closedBeforeConnack: `${event.code} ${event.reason}` } : { noWebsocket: true });
      }),
    { url, ...login },
  );
}
