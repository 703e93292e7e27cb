/**
 * What the gateway (api/gateway/nginx.conf) sends to the next instance when one resets the
 * connection under a request, as the kernel does for connections it had accepted for an instance
 * that then stops listening (the end of a drain): a call with an Idempotency-Key goes to the
 * other instance and is answered, since the API runs a key once; a POST without one is not sent
 * twice and gets 502. No database: one upstream resets every request, the other answers it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from 'api/gateway';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from './harness.js';

const listen = (server: Server | TcpServer) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
const close = (server: Server | TcpServer) => new Promise((resolve) => server.close(resolve));

describe('the gateway when an instance resets a request', () => {
  let dir: string;
  let reset: TcpServer;
  let answer: Server;
  let upstreams: string[];
  const seen = { reset: 0, answered: 0 };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'api-gateway-retry-'));
    seen.reset = 0;
    seen.answered = 0;
    reset = createTcpServer((socket) =>
      socket.once('data', () => {
        seen.reset++;
        socket.resetAndDestroy();
      }),
    );
    answer = createHttpServer((req, res) => {
      seen.answered++;
      req.resume().on('end', () => res.end('{"ok":true}'));
    });
    upstreams = [`127.0.0.1:${await listen(reset)}`, `127.0.0.1:${await listen(answer)}`];
  });
  afterEach(async () => {
    answer.closeAllConnections();
    await Promise.all([close(reset), close(answer)]);
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * POSTs through a fresh gateway until one reached the resetting upstream: that one's status and
   * whether the answering upstream got it too.
   */
  async function postUntilReset(headers: Record<string, string>) {
    const gateway = await startGateway({ port: await freePort(), upstreams, workDir: join(dir, 'gateway') });
    try {
      // Round robin: the first or the second request meets the resetting upstream.
      for (let i = 0; i < 2; i++) {
        const answeredBefore = seen.answered;
        const res = await fetch(`${gateway.url}/v2/cart`, { method: 'POST', headers, body: '{"item":1}' });
        await res.arrayBuffer();
        if (seen.reset > 0) return { status: res.status, sentOn: seen.answered - answeredBefore };
      }
      throw new Error('no request reached the resetting upstream');
    } finally {
      await gateway.stop();
    }
  }

  it('sends a call with an Idempotency-Key to the other instance, once', async () => {
    const sent = await postUntilReset({ 'Idempotency-Key': 'key-0123456789', 'Content-Type': 'application/json' });
    expect(sent).toEqual({ status: 200, sentOn: 1 });
    expect(seen.reset).toBe(1);
  });

  it('does not send a POST without one twice: it may have been applied', async () => {
    const sent = await postUntilReset({ 'Content-Type': 'application/json' });
    expect(sent).toEqual({ status: 502, sentOn: 0 });
    expect(seen.reset).toBe(1);
  });
});
