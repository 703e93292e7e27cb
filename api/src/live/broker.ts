import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type Client } from 'aedes';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { LIVE_WEBSOCKET_PATH } from '@marketplace/shared/contract';
import { withTimeout } from '@marketplace/shared/timeout';
import type { SessionUser } from '../http/env.js';
import { type LivePublisher, readableTopics, topicFor } from './publisher.js';

interface BrokerOptions {
  /**
   * The user of a connection: by its broker login (getLiveCredentials), or else by the session
   * cookie sent with the websocket upgrade; null when neither is valid.
   */
  authenticate(
    login: { username: string; password: string } | null,
    cookieHeader: string | undefined,
  ): Promise<SessionUser | null>;
  /** Browser origins allowed to open the websocket (cookie auth makes a foreign origin dangerous). */
  isAllowedOrigin(origin: string): boolean;
}

/**
 * An MQTT broker over websocket on the API's own HTTP server at /mqtt, for `npm start` and the
 * tests: the browser sees what RabbitMQ, asking the API, gives in production. A connection
 * logs in with its page's broker login (or the session cookie); a client may subscribe only to
 * its own user's topics and may not publish: only the server publishes.
 */
export async function attachBroker(server: Server, options: BrokerOptions): Promise<LivePublisher> {
  const users = new WeakMap<Client, SessionUser>();
  const clientsBySession = new Map<string, Set<Client>>();
  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      const login = username && password ? { username, password: password.toString() } : null;
      const refuse = () => done(Object.assign(new Error('Not logged in'), { returnCode: 5 as const }), false);
      options.authenticate(login, client.req?.headers.cookie).then((user) => {
        if (!user) return refuse();
        users.set(client, user);
        const set = clientsBySession.get(user.token) ?? new Set<Client>();
        set.add(client);
        clientsBySession.set(user.token, set);
        done(null, true);
      }, refuse);
    },
    authorizeSubscribe(client, subscription, done) {
      const user = users.get(client);
      const own = user ? readableTopics(user.profileName) : [];
      // A null subscription answers SUBACK 0x80 (refused) without dropping the connection.
      done(null, own.includes(subscription.topic) ? subscription : null);
    },
    authorizePublish(client, _packet, done) {
      done(client ? new Error('Clients may not publish') : null);
    },
  });
  broker.on('clientDisconnect', (client) => {
    const user = users.get(client);
    if (user) clientsBySession.get(user.token)?.delete(client);
  });

  const wss = new WebSocketServer({ noServer: true });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== LIVE_WEBSOCKET_PATH) {
      socket.destroy();
      return;
    }
    const origin = req.headers.origin;
    if (origin && !options.isAllowedOrigin(origin)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      broker.handle(createWebSocketStream(ws), req);
    });
  };
  server.on('upgrade', onUpgrade);

  const send = (topic: string, json: string, done: (error?: Error) => void) =>
    broker.publish({ cmd: 'publish', topic, payload: Buffer.from(json), qos: 1, retain: false, dup: false }, (error) =>
      done(error ?? undefined),
    );

  return {
    publish(kind, profileName, payload) {
      send(topicFor(kind, profileName), JSON.stringify(payload), () => {});
    },
    // Aedes calls back once the message is handed to its subscribers' queues (the broker has it).
    publishAsync(kind, profileName, json, timeoutMs) {
      if (broker.closed) return Promise.reject(new Error('the embedded broker is closed'));
      const sent = new Promise<void>((resolve, reject) =>
        send(topicFor(kind, profileName), json, (error) => (error ? reject(error) : resolve())),
      );
      return withTimeout(sent, timeoutMs, () => new Error(`the embedded broker: no answer in ${timeoutMs} ms`));
    },
    endSession({ token }) {
      for (const client of clientsBySession.get(token) ?? []) client.close();
      clientsBySession.delete(token);
      return Promise.resolve();
    },
    // Sessions end in this one process, which closes their connections then (endSession).
    closeEnded: () => Promise.resolve(0),
    async close() {
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
