// Runs one built app with Debian's nginx and the images' template (nginx/app.conf.template),
// filled as the official nginx image fills it: envsubst with the names of the defined variables
// only, so nginx's own $uri and friends stay. One nginx per app, as one container per app.
// Used by the nginx test, the e2e suite's production project and `npm run start:prod`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORM, runtimeConfigFromEnv } from '@marketplace/shared/node/platform';
import { contentSecurityPolicy } from './csp.mjs';
import { stopOnSignal, waitForPorts } from '@marketplace/shared/node/ports';

export const NGINX_TEMPLATE = join(dirname(fileURLToPath(import.meta.url)), 'nginx', 'app.conf.template');

/**
 * The template's variables for an app: where it listens and what it serves, its fallback, and
 * the runtime config with its policy (from `env`, with the same defaults serve.mjs uses).
 *
 * @param {{ dist: string, port: number, fallback: '/index.html' | '=404', env?: NodeJS.ProcessEnv }} app
 * @returns {Record<string, string>}
 */
export function templateVariables({ dist, port, fallback, env = process.env }) {
  const config = runtimeConfigFromEnv(env);
  return {
    APP_PORT: `127.0.0.1:${port}`,
    APP_ROOT: resolve(dist),
    APP_FALLBACK: fallback,
    API_ORIGIN: config.apiOrigin,
    FILES_ORIGIN: config.filesOrigin,
    LIVE_URL: config.liveUrl,
    ...Object.fromEntries(
      Object.entries(PLATFORM.remotes).map(([name, r]) => [r.manifestVariable, config.remotes[name]]),
    ),
    DISCOVERY_URL: config.discoveryUrl ?? '',
    // Read by this server to compose the page; without a store, its own `null`.
    DISCOVERY_UPSTREAM: config.discoveryUrl ?? `http://127.0.0.1:${port}/platform/missing.json`,
    ALLOW_VERSION_OVERRIDE: String(config.allowVersionOverride),
    ALLOW_LOCAL_REMOTES: String(config.allowLocalRemotes),
    RUM_SAMPLE: String(config.rumSample),
    CONTENT_SECURITY_POLICY: env.CONTENT_SECURITY_POLICY || contentSecurityPolicy(config),
  };
}

/** The template filled like the image's entrypoint: `envsubst "${A} ${B} ..."` over the defined names. */
export function renderTemplate(variables) {
  const env = { ...process.env, ...variables };
  const names = Object.keys(env)
    .filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    .map((name) => `\${${name}}`)
    .join(' ');
  const result = spawnSync('envsubst', [names], { input: readFileSync(NGINX_TEMPLATE, 'utf8'), env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`envsubst failed: ${result.stderr || result.error?.message}`);
  return result.stdout;
}

/**
 * Starts nginx for one app in the foreground of a child process.
 *
 * @param {{ dist: string, port: number, fallback: '/index.html' | '=404', env?: NodeJS.ProcessEnv, workDir: string }} app
 * @returns {Promise<{ url: string, stop(): Promise<void> }>}
 */
export async function startNginx({ workDir, ...app }) {
  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, 'default.conf'), renderTemplate(templateVariables(app)));
  // What the image's /etc/nginx/nginx.conf gives the template (mime types, sendfile), with the
  // pid, logs and temporary files in workDir so no root-owned path is needed.
  writeFileSync(
    join(workDir, 'nginx.conf'),
    `worker_processes 1;
pid ${workDir}/nginx.pid;
error_log ${workDir}/error.log warn;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  sendfile on;
  access_log off;
  client_body_temp_path ${workDir}/body;
  proxy_temp_path ${workDir}/proxy;
  fastcgi_temp_path ${workDir}/fastcgi;
  uwsgi_temp_path ${workDir}/uwsgi;
  scgi_temp_path ${workDir}/scgi;
  include ${workDir}/default.conf;
}
`,
  );
  const log = [];
  const child = spawn('nginx', ['-p', workDir, '-c', join(workDir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  if (!(await waitForPorts([app.port], () => child.exitCode === null))) {
    child.kill('SIGKILL');
    throw new Error(`nginx for ${app.dist} did not start:\n${log.join('')}`);
  }
  return {
    url: `http://localhost:${app.port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// `node page-server/nginx.mjs`: one app under nginx in the foreground, for `npm run start:prod`
// and the e2e production project (APP_DIST, APP_LOCAL_PORT, APP_FALLBACK, NGINX_WORK_DIR, and the
// runtime config variables).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { APP_DIST, APP_LOCAL_PORT, APP_FALLBACK, NGINX_WORK_DIR } = process.env;
  if (!APP_DIST || !APP_LOCAL_PORT || (APP_FALLBACK !== '/index.html' && APP_FALLBACK !== '=404') || !NGINX_WORK_DIR) {
    console.error('nginx.mjs: set APP_DIST, APP_LOCAL_PORT, APP_FALLBACK (/index.html or =404) and NGINX_WORK_DIR');
    process.exit(2);
  }
  const server = await startNginx({
    dist: APP_DIST,
    port: Number(APP_LOCAL_PORT),
    fallback: APP_FALLBACK,
    workDir: NGINX_WORK_DIR,
  });
  console.log(`[nginx] ${APP_DIST} on ${server.url}`);
  stopOnSignal(server.stop);
}
