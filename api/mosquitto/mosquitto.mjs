// Runs Debian's mosquitto with the repository's production configuration (api/mosquitto), for
// the API's broker tests, the e2e suite's production project and `npm run start:prod`. Only the
// listeners (loopback, given ports) and the paths of the plugin and its data change.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopOnSignal, waitForPorts } from '@marketplace/shared/node/ports';

export const MOSQUITTO_CONF = join(import.meta.dirname, 'mosquitto.conf');
/** Where Debian's package puts the plugin (the eclipse-mosquitto image has it in /usr/lib). */
export const DEBIAN_DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';

/**
 * The repository's configuration for a local run: the same text, with local listeners and paths.
 *
 * @param {{ mqttPort: number, wsPort: number, dir: string }} options
 */
export function localBrokerConfig({ mqttPort, wsPort, dir }) {
  const replaced = readFileSync(MOSQUITTO_CONF, 'utf8')
    .replace(/^listener 1883$/m, `listener ${mqttPort} 127.0.0.1`)
    .replace(/^listener 9001$/m, `listener ${wsPort} 127.0.0.1`)
    .replace(/^plugin .*$/m, `plugin ${DEBIAN_DYNSEC_PLUGIN}`)
    .replace(/^plugin_opt_config_file .*$/m, `plugin_opt_config_file ${join(dir, 'dynamic-security.json')}`);
  if ((replaced.match(/127\.0\.0\.1/g) ?? []).length !== 2)
    throw new Error(`${MOSQUITTO_CONF} no longer has the two listeners this runner rewrites`);
  return replaced;
}

/**
 * Starts mosquitto; the dynamic security file in `dir` starts with one administrator (the API's
 * login), as docker-compose's broker does, and is kept across restarts.
 *
 * @param {{ mqttPort: number, wsPort: number, dir: string, admin: { username: string, password: string } }} options
 */
export async function startMosquitto(options) {
  const { dir, admin } = options;
  mkdirSync(dir, { recursive: true });
  const confPath = join(dir, 'mosquitto.conf');
  writeFileSync(confPath, localBrokerConfig(options));
  const dynsec = join(dir, 'dynamic-security.json');
  if (!existsSync(dynsec))
    execFileSync('mosquitto_ctrl', ['dynsec', 'init', dynsec, admin.username, admin.password], { stdio: 'ignore' });
  // Started as root, mosquitto drops to its own user, which must read and rewrite the plugin's file.
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'mosquitto:', dir]);

  /** @type {import('node:child_process').ChildProcess | null} */
  let child = null;
  const start = async () => {
    /** @type {string[]} */
    const log = [];
    const running = spawn('mosquitto', ['-c', confPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = running;
    running.stdout.on('data', (d) => log.push(String(d)));
    running.stderr.on('data', (d) => log.push(String(d)));
    if (!(await waitForPorts([options.mqttPort, options.wsPort], () => running.exitCode === null))) {
      running.kill('SIGKILL');
      throw new Error(`mosquitto did not start:\n${log.join('')}`);
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((done) => running.once('exit', done));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `mqtt://127.0.0.1:${options.mqttPort}`,
    wsUrl: `ws://127.0.0.1:${options.wsPort}`,
    stop,
    /** Stops and starts the broker again with the same data, as a crash and restart would. */
    async restart() {
      await stop();
      await start();
    },
  };
}

// `node api/mosquitto/mosquitto.mjs`: the broker in the foreground, for `npm run start:prod` and
// the e2e production project (MQTT_PORT, MQTT_WS_PORT, MQTT_DATA_DIR, MQTT_USERNAME, MQTT_PASSWORD).
if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env;
  if (!env.MQTT_DATA_DIR || !env.MQTT_USERNAME || !env.MQTT_PASSWORD) {
    console.error('mosquitto.mjs: set MQTT_DATA_DIR, MQTT_USERNAME and MQTT_PASSWORD (the API uses the same login)');
    process.exit(2);
  }
  const broker = await startMosquitto({
    mqttPort: Number(env.MQTT_PORT ?? 1883),
    wsPort: Number(env.MQTT_WS_PORT ?? 9001),
    dir: env.MQTT_DATA_DIR,
    admin: { username: env.MQTT_USERNAME, password: env.MQTT_PASSWORD },
  });
  console.log(`[broker] mosquitto on ${broker.url} and ${broker.wsUrl}`);
  stopOnSignal(broker.stop);
}
