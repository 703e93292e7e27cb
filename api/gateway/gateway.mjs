// Runs Debian's nginx with the API gateway's configuration (api/gateway/nginx.conf) in front of
// local API instances, for the API's gateway test, the e2e suite and `npm run start:prod`. Only
// the listen address and the upstream servers change.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopOnSignal, waitForPorts } from '@marketplace/shared/node/ports';

export const GATEWAY_CONF = join(import.meta.dirname, 'nginx.conf');

/**
 * The repository's configuration with a loopback listener and the given instances.
 * @param {{ port: number, upstreams: string[] }} options upstreams as host:port
 */
export function localGatewayConfig({ port, upstreams }) {
  const text = readFileSync(GATEWAY_CONF, 'utf8');
  const servers = [...text.matchAll(/^(\s*)server api-\d+:4000 (.*);$/gm)];
  const first = servers[0];
  if (servers.length < 2 || !first || !/^\s*listen 4000;$/m.test(text))
    throw new Error(`${GATEWAY_CONF} no longer has the listener and upstream servers this runner rewrites`);
  const [, indent, options] = first;
  return text
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
 * @param {{ port: number, upstreams: string[], workDir: string }} options
 * @returns {Promise<{ url: string, stop(): Promise<void> }>}
 */
export async function startGateway({ port, upstreams, workDir }) {
  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, 'gateway.conf'), localGatewayConfig({ port, upstreams }));
  writeFileSync(
    join(workDir, 'nginx.conf'),
    `worker_processes 1;
pid ${workDir}/nginx.pid;
error_log ${workDir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${workDir}/body;
  proxy_temp_path ${workDir}/proxy;
  fastcgi_temp_path ${workDir}/fastcgi;
  uwsgi_temp_path ${workDir}/uwsgi;
  scgi_temp_path ${workDir}/scgi;
  include ${workDir}/gateway.conf;
}
`,
  );
  /** @type {string[]} */
  const log = [];
  const child = spawn('nginx', ['-p', workDir, '-c', join(workDir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  if (!(await waitForPorts([port], () => child.exitCode === null))) {
    child.kill('SIGKILL');
    throw new Error(`the API gateway did not start:\n${log.join('')}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
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
