import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { REMOTE_NAMES, REMOTES, SHELL as SHELL_APP } from '@marketplace/shared/platform';
import base, { apiServer } from './playwright.config.js';
import { API, API_INSTANCE_PORTS, API_INTERNAL_PORTS, PORTS, ROOT, runtimeEnv } from './env.js';

// The production topology of docker-compose, without Docker: Debian's PostgreSQL; an S3-compatible
// object store for uploads and media (s3rver: api/objectstore); two API instances on both behind
// the API gateway (api/gateway/nginx.conf under Debian's nginx) where the browsers reach the API; Debian's mosquitto with the repository's configuration (dynamic
// security, no anonymous clients) administered by both instances; and the shell and each remote
// under Debian's nginx with the images' template, on the same ports as the default project, so
// the same tests run against it.
const BROKER = { mqtt: 14002, ws: 14001 };
const POSTGRES_PORT = 14030;
const OBJECT_STORE_PORT = 14040;
const OBJECT_STORE = `http://localhost:${OBJECT_STORE_PORT}`;
// s3rver's one fixed key pair (api/objectstore/s3rver.mjs).
const OBJECT_STORE_LOGIN = { FILES_S3_ACCESS_KEY_ID: 'S3RVER', FILES_S3_SECRET_ACCESS_KEY: 'S3RVER' };
const ADMIN = { MQTT_USERNAME: 'api-admin', MQTT_PASSWORD: 'e2e-broker-password' };
const LIVE_URL = `ws://localhost:${BROKER.ws}`;
// For the test workers (env.ts reads it when they load it; here it was read before this line ran).
process.env.E2E_LIVE_URL = LIVE_URL;
process.env.E2E_UPLOAD_ORIGIN = OBJECT_STORE;
// The operator routes are on each instance's internal listener only, as in docker-compose.
process.env.E2E_API_INTERNAL_URL = `http://127.0.0.1:${API_INTERNAL_PORTS[0]}`;
// Started as root, mosquitto and nginx's workers run as other users: they must reach these files.
const work = mkdtempSync(join(tmpdir(), 'e2e-prod-'));
chmodSync(work, 0o755);

const nginx = (pkg: string, port: number) => ({
  command: `node ${ROOT}/page-server/nginx.mjs`,
  url: `http://127.0.0.1:${port}/runtime-config.json`,
  env: {
    ...runtimeEnv(),
    LIVE_URL,
    UPLOAD_ORIGIN: OBJECT_STORE,
    APP_DIST: join(ROOT, pkg, 'dist'),
    APP_LOCAL_PORT: String(port),
    APP_FALLBACK: pkg === PLATFORM.shell.package ? '@page' : '=404',
    NGINX_WORK_DIR: join(work, pkg),
  },
  reuseExistingServer: false,
  timeout: 30_000,
});

export default defineConfig({
  ...base,
  // Everything that concerns serving and live updates: logins and logout with the live
  // connection, live notifications and chat, the fault matrix and isolation, the CSP, deploys,
  // pages rendered by the page server behind nginx.
  testIgnore: [],
  testMatch: [
    'session.spec.ts',
    'header.spec.ts',
    'csp.spec.ts',
    'deploy.spec.ts',
    'faults.spec.ts',
    'isolation.spec.ts',
    'shell.spec.ts',
    'server-rendering.spec.ts',
    'production.spec.ts',
    'topology.spec.ts',
  ],
  projects: (base.projects ?? []).map((project) => ({ ...project, name: `production-${project.name ?? 'desktop'}` })),
  webServer: [
    {
      command: `node ${ROOT}/api/mosquitto/mosquitto.mjs`,
      port: BROKER.ws,
      env: {
        MQTT_PORT: String(BROKER.mqtt),
        MQTT_WS_PORT: String(BROKER.ws),
        MQTT_DATA_DIR: join(work, 'mosquitto'),
        ...ADMIN,
      },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `node ${ROOT}/api/postgres/postgres.mjs`,
      port: POSTGRES_PORT,
      env: { PG_DATA_DIR: join(work, 'postgres'), PG_PORT: String(POSTGRES_PORT), PG_DATABASE: 'platform' },
      reuseExistingServer: false,
      timeout: 60_000,
      // The server runs detached (pg_ctl): the runner stops it on SIGTERM; a SIGKILL would leave it.
      gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
    },
    {
      command: `node ${ROOT}/api/objectstore/s3rver.mjs`,
      port: OBJECT_STORE_PORT,
      env: { S3_DATA_DIR: join(work, 'objects'), S3_PORT: String(OBJECT_STORE_PORT) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    ...API_INSTANCE_PORTS.map((port, i) => ({
      ...apiServer({
        MQTT_BROKER_URL: `mqtt://127.0.0.1:${BROKER.mqtt}`,
        ...ADMIN,
        LIVE_PUBLIC_URL: LIVE_URL,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${POSTGRES_PORT}/platform`,
        API_PORT: String(port),
        API_INTERNAL_PORT: String(API_INTERNAL_PORTS[i]),
        API_INSTANCE: `api-${i + 1}`,
        // The gateway, on loopback, is the one proxy whose X-Forwarded-For entry is believed.
        API_TRUSTED_PROXIES: 'loopback',
        FILES_S3_ENDPOINT: `http://127.0.0.1:${OBJECT_STORE_PORT}`,
        FILES_S3_PUBLIC_ENDPOINT: OBJECT_STORE,
        ...OBJECT_STORE_LOGIN,
      }),
      url: `http://127.0.0.1:${port}/health`,
    })),
    {
      command: `node ${ROOT}/api/gateway/gateway.mjs`,
      url: `${API}/health`,
      env: {
        GATEWAY_PORT: String(PORTS.api),
        GATEWAY_UPSTREAMS: API_INSTANCE_PORTS.map((port) => `127.0.0.1:${port}`).join(','),
        GATEWAY_WORK_DIR: join(work, 'gateway'),
      },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    nginx(SHELL_APP.package, PORTS.shell),
    ...REMOTE_NAMES.map((name) => nginx(REMOTES[name].package, PORTS[name])),
  ],
});
