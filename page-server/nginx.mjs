// Runs one built app with Debian's nginx and the images' template (nginx/app.conf.template),
// filled as the official nginx image fills it: envsubst with the names of the defined variables
// only, so nginx's own $uri and friends stay. One nginx per app, as one container per app.
// Used by the nginx test, the e2e suite's production project and `npm run start:prod`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORM, runtimeConfigFromEnv } from '@marketplace/shared/node/platform';
import { contentSecurityPolicy } from './csp.mjs';
import { runNginx } from '@marketplace/shared/node/nginx';
import { freePort, stopOnSignal } from '@marketplace/shared/node/ports';
import { serveApp, stopServer } from './serve.mjs';

export const NGINX_TEMPLATE = join(dirname(fileURLToPath(import.meta.url)), 'nginx', 'app.conf.template');

/** What a path without a file gets: the shell's page server renders it, a remote has none. */
export const SHELL_FALLBACK = '@page';
export const REMOTE_FALLBACK = '=404';

/** A page server for nobody: a remote's nginx has no pages, yet its template names an upstream. */
const NO_PAGES = 'http://127.0.0.1:9';

/**
 * The template's variables for an app: where it listens and what it serves, its fallback, its
 * page server (the shell's), and the runtime config with its policy (from `env`, with the same
 * defaults serve.mjs uses).
 *
 * @param {{ dist: string, port: number, fallback: '@page' | '=404', env?: NodeJS.ProcessEnv,
 *   pageUpstream?: string, pageCacheDir?: string }} app
 * @returns {Record<string, string>}
 */
export function templateVariables({ dist, port, fallback, env = process.env, pageUpstream, pageCacheDir }) {
  const config = runtimeConfigFromEnv(env);
  return {
    APP_PORT: `127.0.0.1:${port}`,
    APP_ROOT: resolve(dist),
    APP_FALLBACK: fallback,
    PAGE_UPSTREAM: pageUpstream ?? NO_PAGES,
    PAGE_CACHE_DIR: pageCacheDir ?? join(tmpdir(), 'nginx-page-cache'),
    API_ORIGIN: config.apiOrigin,
    FILES_ORIGIN: config.filesOrigin,
    LIVE_URL: config.liveUrl,
    ...Object.fromEntries(
      Object.entries(PLATFORM.remotes).map(([name, r]) => [r.manifestVariable, config.remotes[name]]),
    ),
    DISCOVERY_URL: config.discoveryUrl ?? '',
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
 * Starts nginx for one app in the foreground of a child process. The shell's pages come from its
 * page server (serve.mjs, rendering them): `pageUpstream` when one runs elsewhere, else one
 * started here on a free loopback port, stopped with nginx.
 *
 * @param {{ dist: string, port: number, fallback: '@page' | '=404', env?: NodeJS.ProcessEnv, workDir: string,
 *   pageUpstream?: string }} app
 * @returns {Promise<{ url: string, stop(): Promise<void> }>}
 */
export async function startNginx({ workDir, pageUpstream, ...app }) {
  /** @type {import('node:http').Server | null} */
  let pages = null;
  if (app.fallback === SHELL_FALLBACK && !pageUpstream) {
    const port = await freePort();
    pages = await serveApp({ dir: app.dist, port, env: { ...process.env, ...app.env }, log: false });
    pageUpstream = `http://127.0.0.1:${port}`;
  }
  // Made by nginx itself, owned by its workers' user, who started it (shared/node/nginx.mjs).
  mkdirSync(workDir, { recursive: true });
  const pageCacheDir = join(workDir, 'page-cache');
  // What the image's /etc/nginx/nginx.conf gives the template: mime types, sendfile.
  const server = await runNginx({
    workDir,
    port: app.port,
    site: renderTemplate(templateVariables({ ...app, pageUpstream, pageCacheDir })),
    httpDirectives: '  include /etc/nginx/mime.types;\n  default_type application/octet-stream;\n  sendfile on;',
    name: app.dist,
  });
  return {
    url: `http://localhost:${app.port}`,
    async stop() {
      await Promise.all([server.stop(), pages ? stopServer(pages) : undefined]);
    },
  };
}

// `node page-server/nginx.mjs`: one app under nginx in the foreground, for `npm run start:prod`
// and the e2e production project (APP_DIST, APP_LOCAL_PORT, APP_FALLBACK, NGINX_WORK_DIR, and the
// runtime config variables).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { APP_DIST, APP_LOCAL_PORT, APP_FALLBACK, NGINX_WORK_DIR } = process.env;
  if (
    !APP_DIST ||
    !APP_LOCAL_PORT ||
    (APP_FALLBACK !== SHELL_FALLBACK && APP_FALLBACK !== REMOTE_FALLBACK) ||
    !NGINX_WORK_DIR
  ) {
    console.error(
      `nginx.mjs: set APP_DIST, APP_LOCAL_PORT, APP_FALLBACK (${SHELL_FALLBACK} or ${REMOTE_FALLBACK}) and NGINX_WORK_DIR`,
    );
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
