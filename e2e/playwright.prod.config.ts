import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { REMOTE_NAMES, REMOTES, SHELL as SHELL_APP } from '@marketplace/shared/platform';
import base, { apiServer } from './playwright.config.js';
import {
  API,
  API_INSTANCE_PORTS,
  API_INTERNAL_PORTS,
  BROKER_EPMD_PORT,
  BROKER_LOGIN,
  BROKER_NODES,
  GATEWAY_INTERNAL_PORT,
  PORTS,
  ROOT,
  runtimeEnv,
} from './env.js';

// The production topology of docker-compose, without Docker: Debian's PostgreSQL; an S3-compatible
// object store for uploads and media (s3rver: api/objectstore); two API instances on both behind
// the API gateway (api/gateway/nginx.conf under Debian's nginx) where the browsers reach the API;
// Debian's RabbitMQ, two nodes in one cluster with the repository's configuration
// (api/rabbitmq), which browsers reach through the gateway's /mqtt and which asks the instances
// who may connect through the gateway's internal listener, the instances publishing to either
// node; and the shell and each remote under Debian's nginx with the images' template, on the same
// ports as the default project, so the same tests run against it.
const POSTGRES_PORT = 14030;
const OBJECT_STORE_PORT = 14040;
const OBJECT_STORE = `http://localhost:${OBJECT_STORE_PORT}`;
// The store's keys, as this run names them (api/objectstore/s3rver.mjs; its guard holds each to
// its grants): the API instances', which run their media jobs too, and the media workers'.
const OBJECT_STORE_KEYS = {
  api: { id: 'e2e-api', secret: 'e2e-object-store-api-secret-0123' },
  worker: { id: 'e2e-media-worker', secret: 'e2e-object-store-worker-secret-0' },
};
const OBJECT_STORE_LOGIN = {
  FILES_S3_ACCESS_KEY_ID: OBJECT_STORE_KEYS.api.id,
  FILES_S3_SECRET_ACCESS_KEY: OBJECT_STORE_KEYS.api.secret,
};
const LIVE_URL = `${API.replace('http', 'ws')}/mqtt`;
// One folder per run: the workers load this file again, and must find the runner's (the broker's
// node-N.pid files are there). Started as root, nginx's workers run as another user: they must
// reach these files.
const work = process.env.E2E_PROD_WORK_DIR ?? mkdtempSync(join(tmpdir(), 'e2e-prod-'));
process.env.E2E_PROD_WORK_DIR = work;
chmodSync(work, 0o755);
// For the test workers (env.ts reads them when they load it; here it was read before these lines ran).
process.env.E2E_LIVE_URL = LIVE_URL;
process.env.E2E_BROKER_DIR = join(work, 'rabbitmq');
process.env.E2E_UPLOAD_ORIGIN = OBJECT_STORE;
// The operator routes are on each instance's internal listener only, as in docker-compose.
process.env.E2E_API_INTERNAL_URL = `http://127.0.0.1:${API_INTERNAL_PORTS[0]}`;

const BROKER_AUTH_SECRET = 'e2e-broker-auth-secret-0123456789abcdef';

const nginx = (pkg: string, port: number) => ({
  command: `node ${ROOT}/page-server/nginx.ts`,
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
  testIgnore: [],
  projects: (base.projects ?? []).flatMap((project) => {
    const name = `production-${project.name ?? 'desktop'}`;
    return [
      {
        ...project,
        name,
        // Everything that concerns serving and live updates: logins and logout with the live
        // connection, live notifications and chat, the fault matrix and isolation, the CSP,
        // deploys, pages rendered by the page server behind nginx.
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
      },
      {
        ...project,
        name: `${name}-broker-failover`,
        // A broker node killed: after every other test, so no page of theirs loses its
        // connection midway through.
        testMatch: ['broker-failover.spec.ts'],
        dependencies: [name],
      },
    ];
  }),
  webServer: [
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
      env: {
        S3_DATA_DIR: join(work, 'objects'),
        S3_PORT: String(OBJECT_STORE_PORT),
        S3_API_KEY_ID: OBJECT_STORE_KEYS.api.id,
        S3_API_SECRET: OBJECT_STORE_KEYS.api.secret,
        S3_WORKER_KEY_ID: OBJECT_STORE_KEYS.worker.id,
        S3_WORKER_SECRET: OBJECT_STORE_KEYS.worker.secret,
      },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    ...API_INSTANCE_PORTS.map((port, i) => ({
      ...apiServer({
        MQTT_BROKER_URL: BROKER_NODES.map((n) => `mqtt://127.0.0.1:${n.mqttPort}`).join(','),
        MQTT_MANAGEMENT_URL: BROKER_NODES.map((n) => `http://127.0.0.1:${n.managementPort}`).join(','),
        MQTT_USERNAME: BROKER_LOGIN.username,
        MQTT_PASSWORD: BROKER_LOGIN.password,
        // Signs pages' broker logins: the same on both instances.
        LIVE_LOGIN_KEY: 'e2e-live-login-key-0123456789abcdef',
        // The credential the broker's HTTP auth backend presents to /internal/broker/ (the same below).
        BROKER_AUTH_SECRET,
        FILE_LINK_KEY: 'e2e-file-link-key-0123456789abcdef0123',
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
        GATEWAY_BROKER_UPSTREAMS: BROKER_NODES.map((n) => `127.0.0.1:${n.wsPort}`).join(','),
        GATEWAY_INTERNAL_PORT: String(GATEWAY_INTERNAL_PORT),
        GATEWAY_INTERNAL_UPSTREAMS: API_INTERNAL_PORTS.map((port) => `127.0.0.1:${port}`).join(','),
        GATEWAY_WORK_DIR: join(work, 'gateway'),
      },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    nginx(SHELL_APP.package, PORTS.shell),
    ...REMOTE_NAMES.map((name) => nginx(REMOTES[name].package, PORTS[name])),
    // Last: the nodes boot one after the other (the second joins the first), about 20 s. The
    // instances, which connect to the broker until it answers, are up and the gateway's internal
    // listener passes the broker's questions to them, so their first login is answered rather
    // than refused for want of an instance to ask. Supervised as docker's restart policy would: a
    // node killed is started again after a second and rejoins.
    {
      command: `node ${ROOT}/api/rabbitmq/rabbitmq.mjs`,
      port: BROKER_NODES[1].wsPort,
      env: {
        RABBITMQ_DATA_DIR: join(work, 'rabbitmq'),
        RABBITMQ_AUTH_URL: `http://127.0.0.1:${GATEWAY_INTERNAL_PORT}`,
        RABBITMQ_AUTH_SECRET: BROKER_AUTH_SECRET,
        RABBITMQ_PORTS: BROKER_NODES.map((n) => `${n.mqttPort}:${n.wsPort}:${n.managementPort}:${n.distPort}`).join(
          ',',
        ),
        RABBITMQ_EPMD_PORT: String(BROKER_EPMD_PORT),
      },
      reuseExistingServer: false,
      timeout: 180_000,
      // The nodes run detached (their own process groups): the runner stops them on SIGTERM; a
      // SIGKILL would leave them running.
      gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 90_000 },
    },
  ],
});
