// Runs one built app with Debian's nginx and the images' template (nginx/app.conf.template),
// filled as the official nginx image fills it: envsubst with the names of the defined variables
// only, so nginx's own $uri and friends stay. One nginx per app, as one container per app.
// Used by the nginx test, the e2e suite's production project and `npm run start:prod`.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORM, runtimeConfigFromEnv } from '@marketplace/shared/node/platform';
import { contentSecurityPolicy } from './csp.mjs';
import { runNginx } from '@marketplace/shared/node/nginx';
import { stopOnSignal } from '@marketplace/shared/node/ports';

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
  // What the image's /etc/nginx/nginx.conf gives the template: mime types, sendfile.
  const server = await runNginx({
    workDir,
    port: app.port,
    site: renderTemplate(templateVariables(app)),
    httpDirectives: '  include /etc/nginx/mime.types;\n  default_type application/octet-stream;\n  sendfile on;',
    name: app.dist,
  });
  return { url: `http://localhost:${app.port}`, stop: server.stop };
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
