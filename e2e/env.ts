import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { manifestEnv } from '@marketplace/shared/node/platform';
import { REMOTE_NAMES, REMOTES, SHELL as SHELL_APP, type RemoteName } from '@marketplace/shared/platform';

/** The suite serves each app of the platform table 10000 above its development port (3000 -> 13000). */
const OFFSET = 10_000;
const remotePorts = Object.fromEntries(REMOTE_NAMES.map((name) => [name, REMOTES[name].devPort + OFFSET])) as Record<
  RemoteName,
  number
>;
export const PORTS = { shell: SHELL_APP.devPort + OFFSET, ...remotePorts, api: 14000 };
export const SHELL = `http://localhost:${PORTS.shell}`;
/** The production project's API instances behind its gateway (which listens on PORTS.api). */
export const API_INSTANCE_PORTS = [14031, 14032] as const;
/** Their operator listeners (API_INTERNAL_PORT): the gateway does not pass /internal. */
export const API_INTERNAL_PORTS = [14033, 14034] as const;
export const API = `http://localhost:${PORTS.api}`;
/**
 * Where the operator routes (/internal) are: the production project sets an instance's internal
 * listener in the runner's environment (so workers see it); the default project's API serves them.
 */
export const API_INTERNAL = process.env.E2E_API_INTERNAL_URL ?? API;
export const ADMIN_TOKEN = 'e2e-admin-token';
/**
 * The key the suite's page servers sign each page load's beacon token with and its API checks
 * (RUM_TOKEN_KEY; page-server/rum-token.ts): every shell the suite serves with runtimeEnv() gets it.
 */
export const RUM_TOKEN_KEY = 'e2e-rum-token-key-0123456789abcdef';
export const DEMO_PASSWORD = 'demo-pass-2026';
export const ROOT = resolve(import.meta.dirname, '..');

/** Extra shells the fault and deploy tests start, with their own remotes' URLs. */
export const EXTRA_SHELL_PORTS = [
  13100, 13200, 13300, 13400, 13500, 13600, 13700, 13800, 13900, 13950, 13960, 13970, 13980, 13990, 13992,
] as const;
/** Where the single-bundle build (shell/dist-single) is served by its test. */
export const SINGLE_PORT = 13010;

/**
 * The production project (playwright.prod.config.ts) runs RabbitMQ's two nodes behind the gateway:
 * browsers connect to ws://localhost:14000/mqtt there, which the gateway passes to a node, not to
 * an API's embedded broker. Set in the runner's environment, so workers see it.
 */
export const LIVE_URL = process.env.E2E_LIVE_URL;
/**
 * The production project's broker nodes (api/rabbitmq/rabbitmq.mjs): each one's MQTT (the API
 * publishes there), web MQTT (behind the gateway's /mqtt), management API and Erlang distribution
 * ports, on loopback; the cluster has its own Erlang port mapper.
 */
export const BROKER_NODES = [
  { mqttPort: 14051, wsPort: 14053, managementPort: 14055, distPort: 14057 },
  { mqttPort: 14052, wsPort: 14054, managementPort: 14056, distPort: 14058 },
] as const;
export const BROKER_EPMD_PORT = 14059;
/** The gateway's internal listener, through which the broker asks the instances (/internal/broker/). */
export const GATEWAY_INTERNAL_PORT = 14005;
/**
 * The API's login on the broker (MQTT_USERNAME, MQTT_PASSWORD), which the broker checks with the
 * API like any other; it is the management API's administrator, so the tests read the nodes'
 * connections with it.
 */
export const BROKER_LOGIN = { username: 'api', password: 'e2e-broker-password-2026' } as const;
/**
 * Where the production project's broker keeps its nodes' data and each node's process group id
 * (node-N.pid), for the test that kills one; unset in the default project.
 */
export const BROKER_DIR = process.env.E2E_BROKER_DIR;
/** The production project's object store (s3rver), where browsers send uploads; unset otherwise. */
export const UPLOAD_ORIGIN = process.env.E2E_UPLOAD_ORIGIN;

/**
 * How long the suite's page servers wait for the API. The suite checks what a render holds; on a
 * 2-core machine where the other worker's test is encoding video, the API's answer can come later
 * than the 500 ms a deployment waits, and the page then arrives with skeletons. The deadline's own
 * behaviour is tested with a shell of its own at 500 ms (server-rendering.spec.ts).
 */
const SUITE_DATA_DEADLINE_MS = '5000';

/** The runtime config environment of a shell whose remotes are on the given ports (and the key its page server signs beacon tokens with). */
export function runtimeEnv(ports: Record<RemoteName, number> = PORTS): Record<string, string> {
  return {
    API_ORIGIN: API,
    RUM_TOKEN_KEY,
    PAGE_DATA_DEADLINE_MS: SUITE_DATA_DEADLINE_MS,
    ...(LIVE_URL ? { LIVE_URL } : {}),
    ...(UPLOAD_ORIGIN ? { UPLOAD_ORIGIN } : {}),
    ...manifestEnv(ports),
  };
}

/** One fresh database per run of the suite. */
export const DATA_DIR = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'e2e-api-'));
