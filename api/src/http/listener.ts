import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAdaptorServer } from '@hono/node-server';
import type { ApiConfig } from '../config.js';

/** How long a request may take to reach a connection accepted just before the listener closed. */
const SETTLE_MS = 1000;

type Fetch = (req: Request, env: unknown) => Response | Promise<Response>;

export interface Listeners {
  /** The public server (the embedded broker attaches to its upgrades). */
  server: Server;
  /** Starts listening; the internal URL is the public one when API_INTERNAL_PORT is unset. */
  listen(): Promise<{ url: string; internalUrl: string }>;
  /**
   * Stops serving without a 502 at the gateway. For `graceMs`, every answer says
   * `Connection: close` and /health answers 503 (a balancer that checks it stops sending): the
   * gateway keeps no connection it used, and those it kept idle all along it closes itself, the
   * grace being at least its upstream keepalive_timeout. Then the servers stop listening, and a
   * moment later close what is still idle: the gateway holds no connection to this instance to
   * send on any more, and a new one is refused, which it retries on another instance, POSTs
   * included. `beforeClose` runs
   * first (the broker); requests under way finish, whatever is still open after shutdownDrainMs
   * is cut.
   */
  close(graceMs: number, beforeClose: () => Promise<void>): Promise<void>;
}

/**
 * The public HTTP server and, with API_INTERNAL_PORT, the operators' one, with keep-alive and
 * header timeouts longer than the gateway's (see ApiConfig.keepAliveTimeoutMs).
 */
export function createListeners(
  config: ApiConfig,
  fetch: { public: Fetch; internal: Fetch },
  instanceHeader: string,
): Listeners {
  let draining = false;
  // Answers under way, so a drain can ask those not yet begun to close their connection too.
  const answering = new Set<ServerResponse>();
  const serve = (handler: Fetch) => {
    const server = createAdaptorServer({
      // The node bindings go along as hono's env: per-client limits read the socket's address from them.
      fetch: (req: Request, env: unknown) =>
        draining && new URL(req.url).pathname === '/health'
          ? Response.json(
              { ok: false, instance: config.instance, draining: true },
              { status: 503, headers: { [instanceHeader]: config.instance } },
            )
          : handler(req, env),
      serverOptions: { headersTimeout: config.headersTimeoutMs, requestTimeout: config.requestTimeoutMs },
    }) as Server;
    server.keepAliveTimeout = config.keepAliveTimeoutMs;
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      if (draining) res.setHeader('Connection', 'close');
      answering.add(res);
      res.once('close', () => answering.delete(res));
    });
    return server;
  };
  const server = serve(fetch.public);
  const internal = config.internalPort === null ? null : serve(fetch.internal);
  const servers = internal ? [server, internal] : [server];

  const listen = (target: Server, port: number, host: string) =>
    new Promise<string>((resolve, reject) => {
      target.once('error', reject);
      target.listen(port, host, () => resolve(`http://${host}:${(target.address() as AddressInfo).port}`));
    });

  return {
    server,
    async listen() {
      const url = await listen(server, config.port, config.host);
      const internalUrl = internal ? await listen(internal, config.internalPort ?? 0, config.internalHost) : url;
      return { url, internalUrl };
    },
    async close(graceMs, beforeClose) {
      draining = true;
      const begun: ServerResponse[] = [];
      for (const res of answering) {
        if (res.headersSent) begun.push(res);
        else res.setHeader('Connection', 'close');
      }
      if (graceMs > 0) {
        // An answer begun before the drain keeps its connection: the grace counts from its end.
        const ended = Promise.all(begun.map((res) => new Promise((done) => res.once('close', done))));
        await Promise.race([ended, sleep(config.shutdownDrainMs)]);
        await sleep(graceMs);
      }
      await beforeClose();
      // Stop accepting without closing idle connections yet (http.Server#close would, since
      // Node 19): a connection the gateway opened just before has its request on the way, and
      // Node counts it idle until that request is read. Cut then, it is a POST sent and lost:
      // a 502. After the settle, a connection with no request is one nobody will use.
      // Without a grace (tests, a stop nobody routes around) the plain close does.
      const stop = (s: Server, done: () => void) =>
        graceMs > 0 ? net.Server.prototype.close.call(s, done) : s.close(done);
      const closed = Promise.all(servers.map((s) => new Promise<void>((resolve) => stop(s, resolve))));
      if (graceMs > 0) await Promise.race([closed, sleep(SETTLE_MS)]);
      for (const s of servers) s.closeIdleConnections();
      const cut = setTimeout(() => {
        for (const s of servers) s.closeAllConnections();
      }, config.shutdownDrainMs);
      await closed;
      clearTimeout(cut);
    },
  };
}
