import { createConnection, createServer } from 'node:net';

/** A port free on 127.0.0.1 right now, for a test server. @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:port. @param {number} port */
export function portOpen(port) {
  return new Promise((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/**
 * Waits until every port accepts connections; false when `alive()` says the server died first or
 * 5 s pass.
 *
 * @param {number[]} ports
 * @param {() => boolean} alive
 */
export async function waitForPorts(ports, alive) {
  for (let i = 0; i < 100 && alive(); i++) {
    if ((await Promise.all(ports.map(portOpen))).every(Boolean)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** Stops a server child process on SIGINT or SIGTERM, then exits. @param {() => Promise<void>} stop */
export function stopOnSignal(stop) {
  const end = () => void stop().finally(() => process.exit(0));
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
}
