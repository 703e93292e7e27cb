/**
 * The drain's last step (issue 36, item 4). The gateway closes a connection it kept idle for its
 * upstream keepalive_timeout, which the grace outlasts; a gateway late to do so (its worker busy,
 * its timers run after its events) may still send on one just as the grace ends. The instance
 * then has stopped listening but answers it, with `Connection: close`, for a settle of a second
 * before it closes what is idle: cut, that POST would be a 502 nobody may retry.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { createListeners, type Listeners } from './listener.js';

const config = loadConfig({ API_PORT: '0', API_HOST: '127.0.0.1', API_INSTANCE: 'api-t', SHUTDOWN_DRAIN_MS: '5000' });

function start(): Listeners {
  const fetch = () => new Response('done');
  return createListeners(config, { public: fetch, internal: fetch }, 'x-api-instance');
}

/** Opens a connection and resolves once the server has accepted it. */
function open(listeners: Listeners, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    listeners.server.once('connection', () => resolve(socket));
  });
}

/** Everything the server writes to `socket` until it closes it ('' when it was cut unanswered). */
function reply(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text));
  });
}

describe('the drain', () => {
  let listeners: Listeners | null = null;
  afterEach(async () => {
    await listeners?.close(0, async () => undefined).catch(() => undefined);
    listeners = null;
  });

  it('answers a request sent on a kept-alive connection just after the grace', async () => {
    listeners = start();
    const { url } = await listeners.listen();
    const socket = await open(listeners, Number(new URL(url).port));
    const first = new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await first).toMatch(/connection: keep-alive/i);
    const answered = reply(socket);
    const { server } = listeners;
    const closing = listeners.close(50, async () => undefined);
    listeners = null;
    // The grace is over and the instance has stopped listening; the gateway, late, sends on the connection it kept.
    await vi.waitFor(() => expect(server.listening).toBe(false));
    socket.write('POST /v2/cart HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n');
    const text = await answered;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toMatch(/connection: close/i);
    await closing;
  });

  it('closes a kept-alive connection nobody sends on after the settle and refuses new ones', async () => {
    listeners = start();
    const { url } = await listeners.listen();
    const port = Number(new URL(url).port);
    const idle = await open(listeners, port);
    const first = new Promise((resolve) => idle.once('data', resolve));
    idle.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await first;
    const idleClosed = reply(idle);
    await listeners.close(50, async () => undefined);
    listeners = null;
    // close() resolved: the idle connection was closed (not left to the drain's cut), unanswered.
    expect(await idleClosed).toBe('');
    await expect(
      new Promise((resolve, reject) => connect(port, '127.0.0.1').once('connect', resolve).once('error', reject)),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
