// Runs one built app with Debian's nginx and the images' template (nginx/app.conf.template),
// filled as the official nginx image fills it: envsubst with the names of the defined variables
// only, so nginx's own $uri and friends stay. One nginx per app, as one container per app.
// Used by the nginx test, the e2e suite's production project and `npm run start:prod`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORM, runtimeConfigFromEnv } from '@marketplace/shared/node/platform';
import { builtPage, contentSecurityPolicy } from './csp.mjs';
import { runNginx } from '@marketplace/shared/node/nginx';
import { freePort, stopOnSignal } from '@marketplace/shared/node/ports';
import { COHORT_COOKIE, pageVersions, type PageConfig } from './rum-token.ts';
import { serveApp, stopServer } from './serve.ts';

export const NGINX_TEMPLATE = join(dirname(fileURLToPath(import.meta.url)), 'nginx', 'app.conf.template');

/** What a path without a file gets: the shell's page server renders it, a remote has none. */
export const SHELL_FALLBACK = '@page';
export const REMOTE_FALLBACK = '=404';

/** One app under nginx: where it listens and what it serves. */
export interface NginxApp {
  dist: string;
  port: number;
  /** What a path without a file gets: the shell's page server renders it, a remote answers 404. */
  fallback: typeof SHELL_FALLBACK | typeof REMOTE_FALLBACK;
  env?: NodeJS.ProcessEnv;
  /** The shell's page server, when one runs elsewhere (else startNginx starts one). */
  pageUpstream?: string;
  pageCacheDir?: string;
}

/** A page server for nobody: a remote's nginx has no pages, yet its template names an upstream. */
const NO_PAGES = 'http://127.0.0.1:9';

/**
 * The template's variables for an app: where it listens and what it serves, its fallback, its
 * page server (the shell's), and the runtime config with its policy (from `env`, with the same
 * defaults serve.ts uses).
 */
export function templateVariables({
  dist,
  port,
  fallback,
  env = process.env,
  pageUpstream,
  pageCacheDir,
}: NginxApp): Record<string, string> {
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
    CONTENT_SECURITY_POLICY: env.CONTENT_SECURITY_POLICY || contentSecurityPolicy(config, builtPage(dist)),
  };
}

/** The template filled like the image's entrypoint: `envsubst "${A} ${B} ..."` over the defined names. */
export function renderTemplate(variables: Record<string, string>): string {
  const env = { ...process.env, ...variables };
  const names = Object.keys(env)
    .filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    .map((name) => `\${${name}}`)
    .join(' ');
  const result = spawnSync('envsubst', [names], { input: readFileSync(NGINX_TEMPLATE, 'utf8'), env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`envsubst failed: ${result.stderr || result.error?.message}`);
  return result.stdout;
}

/** Where the template looks for the table of versions (`include <PAGE_CACHE_DIR>-versions/*.map`). */
export const versionsTableDir = (pageCacheDir: string): string => `${pageCacheDir}-versions`;
/** How often the runner reads the release store's discovery document for its table. */
export const VERSIONS_POLL_MS = 1000;

/**
 * The page cache's table of versions (the template's `$page_versions`): for each cohort the page
 * server knows (0-99, and none), a label of the versions it renders a visitor's page with
 * (pageVersions, the shell's choice as the page server makes it: the live or canary version per
 * remote, both where a canary runs and the browser has no cohort yet). Cohorts on the same
 * versions get the same label, so they share a kept page: with no canary, every cohort and none.
 * The label is the versions' own digest, so it only ever names one set of versions. Null when
 * the document says nothing usable.
 */
export function versionsTable(config: PageConfig, discovery: unknown): string | null {
  const cohorts = [...Array.from({ length: 100 }, (_, cohort) => String(cohort)), 'none'];
  const lines: string[] = [];
  for (const cohort of cohorts) {
    const cookie = cohort === 'none' ? '' : `${COHORT_COOKIE}=${cohort}`;
    const versions = pageVersions({ config, discovery, composes: true, cookie, search: '' });
    if (!versions) return null;
    const label = `v${createHash('sha256').update(JSON.stringify(versions)).digest('hex').slice(0, 16)}`;
    lines.push(`"yes:${cohort}" ${label};`);
  }
  return `# Written by page-server/nginx.ts from ${config.discoveryUrl}\n${lines.join('\n')}\n`;
}

/**
 * Keeps the table of versions in `dir` for the document at the config's discoveryUrl: `refresh`
 * reads it and writes the table when it changed; once `start`ed, every VERSIONS_POLL_MS, nginx
 * reloaded (`reload`) after each change. A document that cannot be read leaves the table as it
 * is; none at start leaves nginx without one (each cohort its own page) until it can be read.
 */
function versionsKeeper({
  config,
  dir,
  reload,
}: {
  config: PageConfig & { discoveryUrl: string };
  dir: string;
  reload(): void;
}) {
  const file = join(dir, 'versions.map');
  // A table from an earlier run may name versions that are no longer served.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let written = '';
  let reading = false;
  let started = false;
  /** Reads the document now; true when the table changed (and nginx was told). */
  async function refresh(): Promise<boolean> {
    if (reading) return false;
    reading = true;
    try {
      const response = await fetch(config.discoveryUrl, { cache: 'no-store', signal: AbortSignal.timeout(2000) });
      if (!response.ok) return false;
      const table = versionsTable(config, await response.json());
      if (!table || table === written) return false;
      writeFileSync(`${file}.new`, table);
      renameSync(`${file}.new`, file);
      // Before nginx runs, it reads the table as it starts.
      if (started) reload();
      written = table;
      return true;
    } catch {
      return false;
    } finally {
      reading = false;
    }
  }
  let timer: NodeJS.Timeout | undefined;
  return {
    refresh,
    start() {
      started = true;
      timer = setInterval(() => void refresh(), VERSIONS_POLL_MS);
      timer.unref();
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * Starts nginx for one app in the foreground of a child process. The shell's pages come from its
 * page server (serve.ts, rendering them): `pageUpstream` when one runs elsewhere, else one
 * started here on a free loopback port, stopped with nginx.
 *
 * The shell's nginx keeps its table of versions (versionsKeeper) while it runs, when the runtime
 * config names a release store; `refreshVersions` reads the store's document now (tests).
 */
export async function startNginx({ workDir, pageUpstream, ...app }: NginxApp & { workDir: string }): Promise<{
  url: string;
  /** Reads the release store's document now; true when the table of versions changed and nginx was reloaded. */
  refreshVersions(): Promise<boolean>;
  stop(): Promise<void>;
}> {
  const env = { ...process.env, ...app.env };
  let pages: Server | null = null;
  if (app.fallback === SHELL_FALLBACK && !pageUpstream) {
    const port = await freePort();
    // Its pages' origin is nginx's address on this machine unless configured; in production it
    // must be configured (serve.ts refuses to render pages without it).
    const pageEnv = { ...env };
    if (!pageEnv.PUBLIC_ORIGIN && env.NODE_ENV !== 'production') pageEnv.PUBLIC_ORIGIN = `http://localhost:${app.port}`;
    pages = await serveApp({ dir: app.dist, port, env: pageEnv, log: false });
    pageUpstream = `http://127.0.0.1:${port}`;
  }
  // Made by nginx itself, owned by its workers' user, who started it (shared/node/nginx.mjs).
  mkdirSync(workDir, { recursive: true });
  const pageCacheDir = join(workDir, 'page-cache');
  // The shell's pages are kept per set of versions: its table, before nginx reads its config.
  const { discoveryUrl, ...config } = runtimeConfigFromEnv(env);
  const versions =
    app.fallback === SHELL_FALLBACK && discoveryUrl
      ? versionsKeeper({
          config: { ...config, discoveryUrl },
          dir: versionsTableDir(pageCacheDir),
          // nginx's master rereads its configuration on SIGHUP, its workers finishing what they serve.
          reload: () => process.kill(Number(readFileSync(join(workDir, 'nginx.pid'), 'utf8')), 'SIGHUP'),
        })
      : null;
  await versions?.refresh();
  // What the image's /etc/nginx/nginx.conf gives the template: mime types, sendfile.
  const server = await runNginx({
    workDir,
    port: app.port,
    site: renderTemplate(templateVariables({ ...app, pageUpstream, pageCacheDir })),
    httpDirectives: '  include /etc/nginx/mime.types;\n  default_type application/octet-stream;\n  sendfile on;',
    name: app.dist,
  });
  versions?.start();
  return {
    url: `http://localhost:${app.port}`,
    refreshVersions: async () => (await versions?.refresh()) ?? false,
    async stop() {
      versions?.stop();
      await Promise.all([server.stop(), pages ? stopServer(pages) : undefined]);
    },
  };
}

// `node page-server/nginx.ts`: one app under nginx in the foreground, for `npm run start:prod`
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
      `nginx.ts: set APP_DIST, APP_LOCAL_PORT, APP_FALLBACK (${SHELL_FALLBACK} or ${REMOTE_FALLBACK}) and NGINX_WORK_DIR`,
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
