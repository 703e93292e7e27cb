// Remotes and an API with faults in front of them, switchable while the page is open.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brokenCopy } from './build-copies.js';
import { type AppDir, startApp, stop } from './servers.js';

/** A remote's fault, switchable while the page is open. */
export type Fault = 'down' | 'manifest 500' | 'entry delayed past the load timeout' | 'throwing on render';

/** Longer than the shell's slot timeout (shell/src/remotes/registry.ts, 8 s). */
const ENTRY_DELAY_MS = 9_500;

const portOf = (server: Server) => (server.address() as AddressInfo).port;

/**
 * A remote's origin with a fault in front of its real build: not listening, its manifest
 * answering 500, its entry answered after the slot's timeout, or serving a copy whose module
 * throws while rendering. `heal()` makes it a healthy remote again without the page reloading.
 */
export async function startFaultyRemote(
  app: AppDir,
  port: number,
  fault: Fault,
  broken: { chunkPrefix: string; find: string; replace: string },
) {
  const good = await startApp(app, 0);
  const bad = await startApp(brokenCopy(app, broken.chunkPrefix, broken.find, broken.replace), 0);
  let healed = false;
  let front: Server | undefined;
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (!healed && fault === 'manifest 500' && url.startsWith('/mf-manifest.json')) {
      res
        .writeHead(500, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' })
        .end('down for maintenance');
      return;
    }
    if (!healed && fault === 'entry delayed past the load timeout' && url.startsWith('/remoteEntry.js'))
      await new Promise((r) => setTimeout(r, ENTRY_DELAY_MS));
    const target = !healed && fault === 'throwing on render' ? bad : good;
    const upstream = await fetch(`http://127.0.0.1:${portOf(target)}${url}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    const headers = Object.fromEntries(
      [...upstream.headers].filter(
        ([k]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k),
      ),
    );
    res.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      front = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
      front.listen(port, '127.0.0.1', () => resolve());
    });
  if (fault !== 'down') await listen();
  return {
    async heal() {
      healed = true;
      if (!front) await listen();
    },
    close: () => Promise.all([stop(front), stop(good), stop(bad)]).then(() => undefined),
  };
}

/** What the fault proxy answers for a call instead of the API: a status, or no answer at all (status 0). */
export type ApiFault = { status: number } | 'connection dropped';

/**
 * A proxy in front of the real API that answers chosen calls with a failure (with the CORS
 * headers a real failure carries, so the page sees the status) and forwards everything else.
 */
export async function startApiFaultProxy(port: number, target: string) {
  const faults = new Map<string, { fault: ApiFault; passes: number }>();
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', target);
      const rule = faults.get(`${req.method} ${url.pathname}`);
      // A rule may let its first calls through (the second upload fails, not the first).
      const fault = rule && rule.passes-- <= 0 ? rule.fault : undefined;
      const origin = req.headers.origin;
      const cors: Record<string, string> = origin
        ? { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' }
        : {};
      if (fault === 'connection dropped') {
        req.socket.destroy();
        return;
      }
      if (fault) {
        res
          .writeHead(fault.status, { ...cors, 'Content-Type': 'application/json' })
          .end(JSON.stringify({ error: `injected ${fault.status}` }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      const upstream = await fetch(url, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
        redirect: 'manual',
      });
      const out: Record<string, string | string[]> = Object.fromEntries(
        [...upstream.headers].filter(
          ([k]) =>
            ![
              'content-encoding',
              'content-length',
              'transfer-encoding',
              'connection',
              'keep-alive',
              'set-cookie',
            ].includes(k),
        ),
      );
      const cookies = upstream.headers.getSetCookie();
      if (cookies.length) out['set-cookie'] = cookies;
      res.writeHead(upstream.status, out).end(Buffer.from(await upstream.arrayBuffer()));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    /** From now on (after `passFirst` more calls), `method path` (e.g. 'POST /v2/logout') fails this way. */
    fail(call: string, fault: ApiFault, passFirst = 0) {
      faults.set(call, { fault, passes: passFirst });
    },
    heal(call: string) {
      faults.delete(call);
    },
    close: () => stop(server),
  };
}
