// `npm run start:prod`: the production topology of docker-compose without Docker: Debian's
// PostgreSQL on 54320; an S3-compatible object store for uploads and media on 4569 (s3rver,
// api/objectstore); two API instances on them (4101, 4102; their operator routes on 4111, 4112)
// behind the API gateway on 4000 (Debian's nginx with api/gateway/nginx.conf); Debian's RabbitMQ,
// a cluster of two nodes with the repository's configuration (api/rabbitmq), which pages reach
// through the gateway's /mqtt and which asks the API who may connect through the gateway's
// internal listener on 4001; and each app under Debian's nginx with the images' template, the
// shell's pages passed to its page server.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { root } from './ensure-deps.mjs';

/** Resolves once something accepts connections on each of `ports` on loopback (2 minutes at most). */
async function untilListening(ports) {
  const open = (port) =>
    new Promise((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  for (let i = 0; i < 240; i++) {
    if ((await Promise.all(ports.map(open))).every(Boolean)) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  console.error(`[start] nothing listens on ${ports.join(', ')} after 2 minutes; starting the broker all the same`);
}
/** Resolves once the child prints `line` (its server is ready), passing its output on. */
const printedBy = (child, line) =>
  new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      if (String(chunk).includes(line)) resolve(undefined);
    });
    child.once('exit', () => reject(new Error(`${line} did not start`)));
  });

/**
 * Starts every process of the production topology, each pushed onto `children` as it starts;
 * `apps` are served under nginx, `shell` with its page server behind. Resolves with what the
 * canary watcher needs to reach the instances' figures.
 */
export async function startProduction({ children, apps, shell }) {
  // The API's password on the broker (MQTT_PASSWORD): made once, kept beside the API's database. The
  // broker holds no copy: it asks the API (the gateway's internal listener) whether a login may
  // connect, and the API knows its own.
  mkdirSync(join(root, 'api', 'data'), { recursive: true });
  const passwordFile = join(root, 'api', 'data', 'broker-password');
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  // And the key pages' broker logins are signed with (LIVE_LOGIN_KEY), shared by both instances.
  const loginKeyFile = join(root, 'api', 'data', 'live-login-key');
  if (!existsSync(loginKeyFile)) writeFileSync(loginKeyFile, randomBytes(32).toString('base64url'), { mode: 0o600 });
  // And the credential the broker presents to the instances' /internal/broker/ (BROKER_AUTH_SECRET).
  const brokerAuthFile = join(root, 'api', 'data', 'broker-auth-secret');
  if (!existsSync(brokerAuthFile)) writeFileSync(brokerAuthFile, randomBytes(32).toString('hex'), { mode: 0o600 });
  const login = {
    MQTT_USERNAME: 'api',
    MQTT_PASSWORD: readFileSync(passwordFile, 'utf8').trim(),
    LIVE_LOGIN_KEY: readFileSync(loginKeyFile, 'utf8').trim(),
    BROKER_AUTH_SECRET: readFileSync(brokerAuthFile, 'utf8').trim(),
  };
  // Pages connect through the gateway, which spreads them over the broker's nodes.
  const liveUrl = 'ws://localhost:4000/mqtt';
  // The gateway's internal listener: the broker's questions to the instances' /internal/broker/.
  const gatewayInternalPort = 4001;
  // The broker's two nodes, each mqtt:ws:management:dist. The Erlang ports (the mapper and the
  // nodes' distribution) are clear of a RabbitMQ service of the machine's own, which Debian's
  // package may have started on 4369 and 25672: this cluster has a mapper of its own, stopped with it.
  const brokerNodes = [
    { mqtt: 1883, ws: 15675, management: 15672, dist: 25682 },
    { mqtt: 1884, ws: 15676, management: 15673, dist: 25683 },
  ];
  // PostgreSQL first: the instances connect at start (its data kept in api/data/postgres).
  const postgres = spawn(process.execPath, [join(root, 'api', 'postgres', 'postgres.mjs')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PG_DATA_DIR: join(root, 'api', 'data', 'postgres'), PG_PORT: '54320' },
  });
  children.push(postgres);
  await printedBy(postgres, '[postgres]');
  // The object store, its objects kept in api/data/objects: up before the instances, which make its bucket.
  const objectStore = 'http://localhost:4569';
  const objectsDir = join(root, 'api', 'data', 'objects');
  const newStore = !existsSync(objectsDir);
  // Its two keys, drawn at each start: the instances' (anything in the bucket) and the media
  // worker's (read the sources, write what it makes), held to those grants by the store's guard.
  const storeKeys = {
    api: { id: 'platform-api', secret: randomBytes(24).toString('hex') },
    worker: { id: 'platform-media-worker', secret: randomBytes(24).toString('hex') },
  };
  const store = spawn(process.execPath, [join(root, 'api', 'objectstore', 's3rver.mjs')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      S3_DATA_DIR: objectsDir,
      S3_PORT: '4569',
      S3_API_KEY_ID: storeKeys.api.id,
      S3_API_SECRET: storeKeys.api.secret,
      S3_WORKER_KEY_ID: storeKeys.worker.id,
      S3_WORKER_SECRET: storeKeys.worker.secret,
    },
  });
  children.push(store);
  await printedBy(store, '[object store]');
  // One operator token for every instance (the notify command reads the same file).
  const tokenFile = join(root, 'api', 'data', 'admin-token');
  if (!existsSync(tokenFile)) writeFileSync(tokenFile, randomBytes(24).toString('hex'), { mode: 0o600 });
  // Kept where an instance keeps its own (api/src/config/keptSecrets.ts), so earlier links stay valid.
  const linkKeyFile = join(root, 'api', 'data', 'file-link-key');
  if (!existsSync(linkKeyFile)) writeFileSync(linkKeyFile, randomBytes(32).toString('base64url'), { mode: 0o600 });
  const apiEnv = {
    ...process.env,
    ...login,
    // The demo accounts and data on a new database (docker-compose, a deployment, leaves them out).
    SEED_DEMO: '1',
    // The instances publish to either node and close ended sessions' connections through either
    // node's management API; they need neither to start (they connect when it is up).
    MQTT_BROKER_URL: brokerNodes.map((n) => `mqtt://127.0.0.1:${n.mqtt}`).join(','),
    MQTT_MANAGEMENT_URL: brokerNodes.map((n) => `http://127.0.0.1:${n.management}`).join(','),
    LIVE_PUBLIC_URL: liveUrl,
    DATABASE_URL: 'postgres://postgres@127.0.0.1:54320/platform',
    API_PUBLIC_ORIGIN: 'http://localhost:4000',
    // The gateway, on loopback, is the one proxy whose X-Forwarded-For entry is believed.
    API_TRUSTED_PROXIES: 'loopback',
    // SIGTERM: the gateway is told to stop for longer than it keeps an idle connection (15 s).
    SHUTDOWN_GRACE_MS: '16000',
    ADMIN_TOKEN: readFileSync(tokenFile, 'utf8').trim(),
    // The key links to private files are signed with, the instances' and the worker's: given, so
    // the worker reads no file beside the database.
    FILE_LINK_KEY: process.env.FILE_LINK_KEY || readFileSync(linkKeyFile, 'utf8').trim(),
    FILES_S3_ENDPOINT: 'http://127.0.0.1:4569',
    FILES_S3_PUBLIC_ENDPOINT: objectStore,
    FILES_S3_ACCESS_KEY_ID: storeKeys.api.id,
    FILES_S3_SECRET_ACCESS_KEY: storeKeys.api.secret,
  };
  // The files of earlier starts (the folder `npm start` keeps) move into a new store once.
  const mediaDir = join(root, 'api', 'data', 'media');
  if (newStore && existsSync(mediaDir))
    spawnSync('pnpm', ['--filter', 'api', 'files:import', mediaDir], { cwd: root, stdio: 'inherit', env: apiEnv });
  const instances = [4101, 4102];
  instances.forEach((port, i) => {
    // The operator routes (/internal: notify, the release figures) on 4111 and 4112, which the
    // gateway does not pass.
    const env = {
      ...apiEnv,
      API_PORT: String(port),
      API_INTERNAL_PORT: String(port + 10),
      API_INSTANCE: `api-${i + 1}`,
    };
    // Media jobs run in the worker below, not beside serving.
    env.MEDIA_WORKER = 'off';
    children.push(spawn('pnpm', ['--filter', 'api', 'start'], { cwd: root, stdio: 'inherit', env }));
  });
  // One media worker (docker-compose runs two): decodes and remakes uploads, from pg-boss's queue.
  // Without the instances' secrets in its environment (api/src/config/worker.ts reads none of
  // them), on the store's worker key; started as root, as nobody (workerUser).
  const serving = new Set([...Object.keys(login), 'ADMIN_TOKEN', 'RUM_TOKEN_KEY']);
  const workerEnv = {
    ...Object.fromEntries(Object.entries(apiEnv).filter(([name]) => !serving.has(name))),
    FILES_S3_ACCESS_KEY_ID: storeKeys.worker.id,
    FILES_S3_SECRET_ACCESS_KEY: storeKeys.worker.secret,
  };
  children.push(
    spawn(join(root, 'api', 'node_modules', '.bin', 'tsx'), ['src/worker.ts'], {
      cwd: join(root, 'api'),
      stdio: 'inherit',
      env: workerEnv,
      ...workerUser(),
    }),
  );
  const gatewayEnv = {
    ...process.env,
    GATEWAY_PORT: '4000',
    GATEWAY_UPSTREAMS: instances.map((port) => `127.0.0.1:${port}`).join(','),
    GATEWAY_BROKER_UPSTREAMS: brokerNodes.map((n) => `127.0.0.1:${n.ws}`).join(','),
    GATEWAY_INTERNAL_PORT: String(gatewayInternalPort),
    GATEWAY_INTERNAL_UPSTREAMS: instances.map((port) => `127.0.0.1:${port + 10}`).join(','),
    GATEWAY_WORK_DIR: join(root, 'api', 'data', 'gateway'),
  };
  children.push(
    spawn(process.execPath, [join(root, 'api', 'gateway', 'gateway.mjs')], {
      cwd: root,
      stdio: 'inherit',
      env: gatewayEnv,
    }),
  );
  for (const app of apps) {
    const env = {
      ...process.env,
      LIVE_URL: liveUrl,
      UPLOAD_ORIGIN: objectStore,
      APP_DIST: join(root, app.package, 'dist'),
      APP_LOCAL_PORT: String(app.devPort),
      APP_FALLBACK: app === shell ? '@page' : '=404',
      NGINX_WORK_DIR: join(root, 'api', 'data', 'nginx', app.package),
    };
    children.push(
      spawn(process.execPath, [join(root, 'page-server', 'nginx.ts')], { cwd: root, stdio: 'inherit', env }),
    );
  }
  // The broker last, once the instances and the gateway's internal listener are up: its nodes ask
  // the instances through that listener whether a login may connect, the instances' own first of
  // all, which would be refused for want of an instance to ask. The nodes boot one after the other
  // (the second joins the first), some 20 s; the instances connect when they are up.
  await untilListening([...instances.map((port) => port + 10), gatewayInternalPort]);
  children.push(
    spawn(process.execPath, [join(root, 'api', 'rabbitmq', 'rabbitmq.mjs')], {
      cwd: root,
      stdio: 'inherit',
      // Its own process group: a terminal's Ctrl-C reaches the group of this script, and then this
      // script passes the signal on; the runner, told twice, would end before it has stopped its
      // nodes (which run detached), leaving them running.
      detached: true,
      env: {
        ...process.env,
        RABBITMQ_DATA_DIR: join(root, 'api', 'data', 'rabbitmq'),
        RABBITMQ_AUTH_URL: `http://127.0.0.1:${gatewayInternalPort}`,
        RABBITMQ_AUTH_SECRET: login.BROKER_AUTH_SECRET,
        RABBITMQ_PORTS: brokerNodes.map((n) => `${n.mqtt}:${n.ws}:${n.management}:${n.dist}`).join(','),
        RABBITMQ_EPMD_PORT: '4370',
      },
    }),
  );
  return {
    API_INTERNAL_URL: instances.map((port) => `http://127.0.0.1:${port + 10}`).join(','),
    ADMIN_TOKEN: apiEnv.ADMIN_TOKEN,
  };
}

/**
 * The user the media worker runs as: the one who started the platform, or, when that is root,
 * nobody (uid 65534), who cannot read the secrets kept beside the database (mode 0600) nor write
 * the repository. A clone nobody cannot reach (under a private home) keeps the worker as root,
 * and says so.
 */
function workerUser() {
  if (process.getuid?.() !== 0) return {};
  const nobody = { uid: 65534, gid: 65534 };
  const probe = spawnSync(process.execPath, ['-e', "require('node:fs').accessSync('src/worker.ts')"], {
    cwd: join(root, 'api'),
    ...nobody,
  });
  if (probe.status === 0) return nobody;
  console.warn(`[start] the media worker runs as root: nobody (uid 65534) cannot reach ${root}`);
  return {};
}
