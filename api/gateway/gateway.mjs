// Runs Debian's nginx with the API gateway's configuration (api/gateway/nginx.conf) in front of
// local API instances, for the API's gateway test, the e2e suite and `npm run start:prod`. Only
// the listen address and the upstream servers change.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNginx } from '@marketplace/shared/node/nginx';
import { stopOnSignal } from '@marketplace/shared/node/ports';

export const GATEWAY_CONF = join(import.meta.dirname, 'nginx.conf');

const KEEPALIVE_TIMEOUT = /^(\s*)keepalive_timeout (\S+);$/m;

/**
 * The repository's configuration with a loopback listener and the given instances; a test may
 * shorten the upstream keepalive_timeout (`upstreamKeepaliveTimeout`, nginx's time syntax: 500ms).
 * @param {{ port: number, upstreams: string[], upstreamKeepaliveTimeout?: string }} options upstreams as host:port
 */
export function localGatewayConfig({ port, upstreams, upstreamKeepaliveTimeout }) {
  const text = readFileSync(GATEWAY_CONF, 'utf8');
  const servers = [...text.matchAll(/^(\s*)server api-\d+:4000 (.*);$/gm)];
  const first = servers[0];
  if (servers.length < 2 || !first || !/^\s*listen 4000;$/m.test(text) || !KEEPALIVE_TIMEOUT.test(text))
    throw new Error(
      `${GATEWAY_CONF} no longer has the listener, upstream servers and keepalive_timeout this runner rewrites`,
    );
  const [, indent, options] = first;
  return text
    .replace(KEEPALIVE_TIMEOUT, (line, space) =>
      upstreamKeepaliveTimeout ? `${space}keepalive_timeout ${upstreamKeepaliveTimeout};` : line,
    )
    .replace(/^\s*listen 4000;$/m, `    listen 127.0.0.1:${port};`)
    .replace(/^\s*server api-\d+:4000 .*;\n/gm, '')
    .replace(
      /^upstream api \{\n/m,
      `upstream api {\n${upstreams.map((u) => `${indent}server ${u} ${options};\n`).join('')}`,
    );
}

/**
 * Starts the gateway in the foreground of a child process; its files (pid, logs, temporary
 * bodies) in `workDir`.
 * @param {{ port: number, upstreams: string[], workDir: string, upstreamKeepaliveTimeout?: string }} options
 * @returns {Promise<{ url: string, stop(): Promise<void> }>}
 */
export async function startGateway({ port, upstreams, workDir, upstreamKeepaliveTimeout }) {
  const server = await runNginx({
    workDir,
    port,
    site: localGatewayConfig({ port, upstreams, upstreamKeepaliveTimeout }),
    name: 'the API gateway',
  });
  return { url: `http://127.0.0.1:${port}`, stop: server.stop };
}

// `node api/gateway/gateway.mjs`: the gateway in the foreground, for `npm run start:prod` and the
// e2e production project (GATEWAY_PORT, GATEWAY_UPSTREAMS as host:port,host:port, GATEWAY_WORK_DIR).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { GATEWAY_PORT, GATEWAY_UPSTREAMS, GATEWAY_WORK_DIR } = process.env;
  if (!GATEWAY_PORT || !GATEWAY_UPSTREAMS || !GATEWAY_WORK_DIR) {
    console.error('gateway.mjs: set GATEWAY_PORT, GATEWAY_UPSTREAMS (host:port,...) and GATEWAY_WORK_DIR');
    process.exit(2);
  }
  const gateway = await startGateway({
    port: Number(GATEWAY_PORT),
    upstreams: GATEWAY_UPSTREAMS.split(',').map((u) => u.trim()),
    workDir: GATEWAY_WORK_DIR,
  });
  console.log(`[gateway] ${gateway.url} -> ${GATEWAY_UPSTREAMS}`);
  stopOnSignal(gateway.stop);
}
