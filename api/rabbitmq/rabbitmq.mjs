// Runs Debian's rabbitmq-server as a cluster of nodes on this machine with the repository's
// production configuration (api/rabbitmq/rabbitmq.conf, written per node by node-config.mjs), for
// the API's broker tests, the e2e suite's production project and `npm run start:prod`. Only the
// listeners (loopback, given ports), the API's address and the nodes' names change; each cluster
// has its own Erlang port mapper (epmd) and cookie, so clusters of several runs never meet.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { portOpen, stopOnSignal, waitForPorts } from '@marketplace/shared/node/ports';
import { localNodeConfig } from './node-config.mjs';

const SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server';
const PLUGINS = [
  'rabbitmq_mqtt',
  'rabbitmq_web_mqtt',
  'rabbitmq_management',
  'rabbitmq_auth_backend_http',
  'rabbitmq_auth_backend_cache',
];
/** How long after one node of a lost cluster registers the next one is started (startAll). */
const STAGGER_MS = 3000;
/** A node's boot: about 10 s on this machine kind, longer when it waits for its peer's tables. */
const BOOT_TIMEOUT_MS = 120_000;

/**
 * Starts a cluster: the first node, then the others, which join it. `dir` keeps every node's data
 * (and the cluster's cookie), so a node started again rejoins with what it had.
 *
 * @param {{
 *   dir: string,
 *   name?: string,
 *   epmdPort: number,
 *   authUrl: string,
 *   authSecret: string,
 *   nodes: { mqttPort: number, wsPort: number, managementPort: number, distPort: number }[],
 *   supervise?: boolean,
 * }} options `supervise`: a node that exits without being stopped here is started again after a
 *   second, as docker-compose's restart policy does (each node's process group id is in
 *   `dir/node-N.pid`, for a test that kills one as a lost machine).
 */
export async function startRabbitCluster(options) {
  const { dir, nodes, epmdPort } = options;
  const name = options.name ?? 'rabbit';
  mkdirSync(join(dir, 'log'), { recursive: true });
  const cookie = join(dir, '.erlang.cookie');
  // Erlang's cookie: the one secret the nodes (and nothing else) share; readable by its owner only.
  if (!existsSync(cookie)) writeFileSync(cookie, randomBytes(24).toString('hex'), { mode: 0o400 });
  writeFileSync(join(dir, 'enabled_plugins'), `[${PLUGINS.join(',')}].\n`);
  const nodeNames = nodes.map((_, i) => `${name}-${i + 1}@localhost`);
  /** @type {(import('node:child_process').ChildProcess | null)[]} */
  const children = nodes.map(() => null);
  /** @type {string[][]} */
  const logs = nodes.map(() => []);
  /** Nodes being stopped or killed on purpose (not restarted by the supervision). */
  const stopping = new Set();

  const envOf = (i) => {
    const conf = join(dir, `node-${i + 1}.conf`);
    writeFileSync(conf, localNodeConfig(nodes[i], nodeNames, options.authUrl, options.authSecret), { mode: 0o600 });
    return {
      ...process.env,
      HOME: dir,
      RABBITMQ_NODENAME: nodeNames[i],
      RABBITMQ_DIST_PORT: String(nodes[i].distPort),
      ERL_EPMD_ADDRESS: '127.0.0.1',
      ERL_EPMD_PORT: String(epmdPort),
      RABBITMQ_CONFIG_FILE: conf,
      RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
      RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
      RABBITMQ_LOG_BASE: join(dir, 'log'),
      // Erlang distribution on loopback only.
      RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
    };
  };
  /** The node names (before the @) the cluster's port mapper knows. */
  const epmdNames = () => {
    try {
      return execFileSync('epmd', ['-port', String(epmdPort), '-names'], { encoding: 'utf8' })
        .split('\n')
        .map((line) => /^name (\S+) at port/.exec(line)?.[1] ?? '')
        .filter(Boolean);
    } catch {
      return [];
    }
  };
  const portsOf = (i) => [nodes[i].mqttPort, nodes[i].wsPort, nodes[i].managementPort];
  const portsClosed = async (i) => {
    while ((await Promise.all(portsOf(i).map(portOpen))).some(Boolean)) await sleep(50);
  };

  /** Starts node i (its own process group, so a kill takes the VM and its helpers). */
  const start = async (i) => {
    if (children[i]) throw new Error(`${nodeNames[i]} is running`);
    logs[i] = [];
    const child = spawn(SERVER, [], { env: envOf(i), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    children[i] = child;
    child.stdout.on('data', (d) => logs[i].push(String(d)));
    child.stderr.on('data', (d) => logs[i].push(String(d)));
    // The node's process group, for whoever must kill it as a lost machine (the e2e suite).
    writeFileSync(join(dir, `node-${i + 1}.pid`), String(child.pid));
    child.once('exit', () => {
      if (children[i] !== child) return;
      children[i] = null;
      // Not stopped by us: a supervisor (docker's restart policy) starts it again.
      if (options.supervise && !stopping.has(i))
        setTimeout(() => {
          if (!children[i] && !stopping.has(i))
            start(i).catch((error) => console.error(`[broker] ${nodeNames[i]} did not start again: ${error.message}`));
        }, 1000);
    });
    // waitForPorts gives up after about 5 s: ask again until the boot's own limit.
    const deadline = Date.now() + BOOT_TIMEOUT_MS;
    let up = false;
    while (!up && child.exitCode === null && Date.now() < deadline)
      up = await waitForPorts(portsOf(i), () => child.exitCode === null);
    if (!up) {
      await kill(i);
      throw new Error(`${nodeNames[i]} did not start:\n${logs[i].join('').slice(-3000)}`);
    }
  };
  /** SIGKILL, as a machine lost: nothing of the node is told. */
  const kill = async (i) => {
    const child = children[i];
    if (!child) return;
    stopping.add(i);
    const exited = new Promise((done) => child.once('exit', done));
    try {
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
    } catch {
      // Gone already.
    }
    await exited;
    children[i] = null;
    // The script exits first; the VM is gone once its listeners are.
    await portsClosed(i);
    stopping.delete(i);
  };
  /** A clean stop (the node leaves its peers knowing it stopped). */
  const stop = async (i) => {
    const child = children[i];
    if (!child) return;
    stopping.add(i);
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const done = await Promise.race([exited.then(() => true), sleep(60_000).then(() => false)]);
    if (!done) await kill(i);
    // Its helper processes (erl_child_setup) end with the VM; the group is gone.
    children[i] = null;
    await portsClosed(i);
    stopping.delete(i);
  };

  /**
   * Starts every node that is not running, after a whole cluster was lost: each waits for the
   * others' tables, so they boot together, but one at a time up to that wait (two nodes booting
   * at the same moment can fail RabbitMQ 3.10's feature flag exchange: incompatible_feature_flags).
   */
  const startAll = async () => {
    const booting = [];
    for (let i = 0; i < nodes.length; i++) {
      if (children[i]) continue;
      let settled = false;
      const boot = start(i).finally(() => {
        settled = true;
      });
      booting.push(boot);
      // The next one once this one is known to its port mapper and a little later (it is then
      // past the feature flag exchange, into the wait for its peers), or once it serves.
      const registered = async () => {
        const short = nodeNames[i].split('@')[0];
        while (!settled && !epmdNames().includes(short)) await sleep(100);
        if (!settled) await sleep(STAGGER_MS);
      };
      await Promise.race([boot, registered()]);
    }
    await Promise.all(booting);
  };

  try {
    // A cluster that ran before (its nodes' data here) starts as one lost whole does: together.
    // A new one: the first node makes it, each next one joins it while it boots.
    if (existsSync(join(dir, 'mnesia', nodeNames[0]))) await startAll();
    else for (let i = 0; i < nodes.length; i++) await start(i);
  } catch (error) {
    // No node left behind by a start that failed.
    for (let i = 0; i < nodes.length; i++) await kill(i);
    throw error;
  }

  return {
    nodeNames,
    mqttUrls: nodes.map((n) => `mqtt://127.0.0.1:${n.mqttPort}`),
    wsUrls: nodes.map((n) => `ws://127.0.0.1:${n.wsPort}/mqtt`),
    managementUrls: nodes.map((n) => `http://127.0.0.1:${n.managementPort}`),
    /** Whether node i's process runs. */
    running: (i) => children[i] !== null,
    start,
    kill,
    stop,
    startAll,
    /** Stops every node and the cluster's port mapper. */
    async stopAll() {
      for (let i = nodes.length - 1; i >= 0; i--) await stop(i);
      try {
        execFileSync('epmd', ['-port', String(epmdPort), '-kill'], {
          stdio: 'ignore',
          env: { ...process.env, ERL_EPMD_PORT: String(epmdPort) },
        });
      } catch {
        // No mapper left.
      }
    },
    log: (i) => logs[i].join(''),
  };
}

// `node api/rabbitmq/rabbitmq.mjs`: the cluster in the foreground, for `npm run start:prod` and
// the e2e production project. RABBITMQ_DATA_DIR, RABBITMQ_AUTH_URL (the API's internal origin),
// RABBITMQ_AUTH_SECRET (the API's BROKER_AUTH_SECRET), RABBITMQ_PORTS as mqtt:ws:management:dist
// per node, comma-separated; RABBITMQ_EPMD_PORT.
if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  if (!env.RABBITMQ_DATA_DIR || !env.RABBITMQ_AUTH_URL || !env.RABBITMQ_AUTH_SECRET || !env.RABBITMQ_PORTS) {
    console.error(
      'rabbitmq.mjs: set RABBITMQ_DATA_DIR, RABBITMQ_AUTH_URL, RABBITMQ_AUTH_SECRET and RABBITMQ_PORTS (mqtt:ws:management:dist,...)',
    );
    process.exit(2);
  }
  const cluster = await startRabbitCluster({
    dir: env.RABBITMQ_DATA_DIR,
    authUrl: env.RABBITMQ_AUTH_URL,
    authSecret: env.RABBITMQ_AUTH_SECRET,
    epmdPort: Number(env.RABBITMQ_EPMD_PORT ?? 4369),
    supervise: true,
    nodes: env.RABBITMQ_PORTS.split(',').map((spec) => {
      const [mqttPort, wsPort, managementPort, distPort] = spec.split(':').map(Number);
      return { mqttPort, wsPort, managementPort, distPort };
    }),
  });
  console.log(`[broker] RabbitMQ ${cluster.nodeNames.join(' + ')} on ${cluster.wsUrls.join(' and ')}`);
  stopOnSignal(cluster.stopAll);
}
