// Runs Debian's nginx with the API gateway's configuration (api/gateway/nginx.conf) in front of
// local API instances (and, when given, the broker's nodes and the instances' internal listeners),
// for the API's gateway tests, the e2e suite and `npm run start:prod`. Only the listen addresses
// and the upstream servers change; what is not given is left out (below).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNginx } from '@marketplace/shared/node/nginx';
import { stopOnSignal } from '@marketplace/shared/node/ports';

export const GATEWAY_CONF = join(import.meta.dirname, 'nginx.conf');

const KEEPALIVE_TIMEOUT = /^(\s*)keepalive_timeout (\S+);$/m;
const PUBLIC_LISTEN = /^\s*listen 4000;$/m;
const INTERNAL_LISTEN = /^\s*listen 4001;$/m;
const BROKER_LOCATION = /^\s*location = \/mqtt \{$/m;

/** @param {string} what @returns {never} */
const fail = (what) => {
  throw new Error(`${GATEWAY_CONF} no longer has ${what}, which this runner rewrites`);
};

/**
 * Where the block opening at `start` ends (the index after its closing brace, and its newline):
 * nginx.conf has no braces in strings or comments that would miscount.
 * @param {string} text
 * @param {number} start
 */
function blockEnd(text, start) {
  let depth = 0;
  for (let i = text.indexOf('{', start); i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text[i + 1] === '\n' ? i + 2 : i + 1;
  }
  return fail(`a closed block at ${start}`);
}

/**
 * The text without the block opening on the line at `start`, nor the comment lines just above
 * it, which describe it.
 * @param {string} text
 * @param {number} start the index of the block's first line
 */
function withoutBlock(text, start) {
  const lines = text.slice(0, start).split('\n');
  // lines ends with '' (start is at a line's beginning); drop the comments before it.
  lines.pop();
  while (lines.length > 0 && /^\s*#/.test(lines[lines.length - 1] ?? '')) lines.pop();
  const before = lines.length > 0 ? `${lines.join('\n')}\n` : '';
  return before + text.slice(blockEnd(text, start));
}

/**
 * The index of the beginning of the line where `pattern` first matches.
 * @param {string} text
 * @param {RegExp} pattern
 * @param {string} what
 */
function lineStart(text, pattern, what) {
  const match = pattern.exec(text);
  if (!match) return fail(what);
  return text.lastIndexOf('\n', match.index + (match[0].startsWith('\n') ? 1 : 0)) + 1;
}

/**
 * The upstream block `name` with `servers` (host:port) in place of its own, each with the options
 * its first server had (max_fails, fail_timeout).
 * @param {string} text
 * @param {string} name
 * @param {string[]} servers
 */
function withServers(text, name, servers) {
  const start = lineStart(text, new RegExp(`^upstream ${name} \\{$`, 'm'), `upstream ${name}`);
  const end = blockEnd(text, start);
  const block = text.slice(start, end);
  const first = /^(\s*)server \S+ (.*);$/m.exec(block);
  if (!first) return fail(`servers in upstream ${name}`);
  const [, indent, options] = first;
  const rewritten = block
    .replace(/^\s*server \S+ .*;\n/gm, '')
    .replace(/\{\n/, `{\n${servers.map((s) => `${indent}server ${s} ${options};\n`).join('')}`);
  return text.slice(0, start) + rewritten + text.slice(end);
}

/**
 * The repository's configuration with loopback listeners and the given upstreams; a test may
 * shorten the upstream keepalive_timeout (`upstreamKeepaliveTimeout`, nginx's time syntax: 500ms).
 *
 * - Without `brokerUpstreams`, there is no broker upstream and /mqtt goes to the instances like
 *   any other path: an API run with its embedded broker serves it there (the API's gateway tests
 *   start the gateway in front of instances only).
 * - Without `internalPort`, there is no internal listener: nothing asks the instances' internal
 *   routes through the gateway (no broker, or one that asks an instance directly). With it,
 *   `internalUpstreams` (the instances' API_INTERNAL_PORT listeners) are required.
 *
 * @param {{
 *   port: number,
 *   upstreams: string[],
 *   upstreamKeepaliveTimeout?: string,
 *   brokerUpstreams?: string[],
 *   internalPort?: number,
 *   internalUpstreams?: string[],
 * }} options every upstream as host:port
 */
export function localGatewayConfig({
  port,
  upstreams,
  upstreamKeepaliveTimeout,
  brokerUpstreams = [],
  internalPort,
  internalUpstreams = [],
}) {
  const text = readFileSync(GATEWAY_CONF, 'utf8');
  if (!PUBLIC_LISTEN.test(text) || !KEEPALIVE_TIMEOUT.test(text)) fail('the public listener and keepalive_timeout');
  if (!INTERNAL_LISTEN.test(text)) fail('the internal listener');
  if (!BROKER_LOCATION.test(text)) fail('the location = /mqtt');
  if (internalPort !== undefined && internalUpstreams.length === 0)
    throw new Error("the gateway's internal listener needs the instances' internal listeners (internalUpstreams)");
  let out = withServers(text, 'api', upstreams)
    .replace(KEEPALIVE_TIMEOUT, (line, space) =>
      upstreamKeepaliveTimeout ? `${space}keepalive_timeout ${upstreamKeepaliveTimeout};` : line,
    )
    .replace(PUBLIC_LISTEN, `    listen 127.0.0.1:${port};`);
  if (brokerUpstreams.length > 0) out = withServers(out, 'broker', brokerUpstreams);
  else {
    out = withoutBlock(out, lineStart(out, BROKER_LOCATION, 'the location = /mqtt'));
    out = withoutBlock(out, lineStart(out, /^upstream broker \{$/m, 'upstream broker'));
  }
  if (internalPort !== undefined)
    out = withServers(out, 'api_internal', internalUpstreams).replace(
      INTERNAL_LISTEN,
      `    listen 127.0.0.1:${internalPort};`,
    );
  else {
    // The server block whose listener is 4001.
    const listen = lineStart(out, INTERNAL_LISTEN, 'the internal listener');
    const server = out.lastIndexOf('\nserver {', listen) + 1;
    if (server <= 0) fail("the internal listener's server block");
    out = withoutBlock(out, server);
    out = withoutBlock(out, lineStart(out, /^upstream api_internal \{$/m, 'upstream api_internal'));
  }
  // What was left out leaves its blank lines behind.
  return out.replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '\n');
}

/**
 * Starts the gateway in the foreground of a child process; its files (pid, logs, temporary
 * bodies) in `workDir`. `internalUrl` is set when it has an internal listener.
 * @param {{
 *   port: number,
 *   upstreams: string[],
 *   workDir: string,
 *   upstreamKeepaliveTimeout?: string,
 *   brokerUpstreams?: string[],
 *   internalPort?: number,
 *   internalUpstreams?: string[],
 * }} options
 * @returns {Promise<{ url: string, internalUrl: string | null, stop(): Promise<void> }>}
 */
export async function startGateway({ workDir, ...options }) {
  const server = await runNginx({
    workDir,
    port: options.port,
    site: localGatewayConfig(options),
    name: 'the API gateway',
  });
  return {
    url: `http://127.0.0.1:${options.port}`,
    internalUrl: options.internalPort === undefined ? null : `http://127.0.0.1:${options.internalPort}`,
    stop: server.stop,
  };
}

// `node api/gateway/gateway.mjs`: the gateway in the foreground, for `npm run start:prod` and the
// e2e production project. GATEWAY_PORT, GATEWAY_UPSTREAMS (the instances, host:port,host:port),
// GATEWAY_WORK_DIR; and optionally GATEWAY_BROKER_UPSTREAMS (the broker nodes' web MQTT listeners),
// GATEWAY_INTERNAL_PORT with GATEWAY_INTERNAL_UPSTREAMS (the instances' internal listeners).
if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  const list = (/** @type {string | undefined} */ value) =>
    (value ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
  if (!env.GATEWAY_PORT || !env.GATEWAY_UPSTREAMS || !env.GATEWAY_WORK_DIR) {
    console.error('gateway.mjs: set GATEWAY_PORT, GATEWAY_UPSTREAMS (host:port,...) and GATEWAY_WORK_DIR');
    process.exit(2);
  }
  if (Boolean(env.GATEWAY_INTERNAL_PORT) !== Boolean(env.GATEWAY_INTERNAL_UPSTREAMS)) {
    console.error('gateway.mjs: set GATEWAY_INTERNAL_PORT and GATEWAY_INTERNAL_UPSTREAMS (host:port,...) together');
    process.exit(2);
  }
  const gateway = await startGateway({
    port: Number(env.GATEWAY_PORT),
    upstreams: list(env.GATEWAY_UPSTREAMS),
    workDir: env.GATEWAY_WORK_DIR,
    brokerUpstreams: list(env.GATEWAY_BROKER_UPSTREAMS),
    internalPort: env.GATEWAY_INTERNAL_PORT ? Number(env.GATEWAY_INTERNAL_PORT) : undefined,
    internalUpstreams: list(env.GATEWAY_INTERNAL_UPSTREAMS),
  });
  const broker = env.GATEWAY_BROKER_UPSTREAMS ? `; /mqtt -> ${env.GATEWAY_BROKER_UPSTREAMS}` : '';
  const internal = gateway.internalUrl
    ? `; ${gateway.internalUrl}/internal/broker/ -> ${env.GATEWAY_INTERNAL_UPSTREAMS}`
    : '';
  console.log(`[gateway] ${gateway.url} -> ${env.GATEWAY_UPSTREAMS}${broker}${internal}`);
  stopOnSignal(gateway.stop);
}
