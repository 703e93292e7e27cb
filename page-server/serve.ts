#!/usr/bin/env node
// Serves one built app (its dist/) on its own origin, as production would:
// - CORS for everyone: the shell fetches remotes' mf-manifest.json with fetch();
// - its files cached and compressed as production's (static-files.mjs); unknown extension-less
//   paths fall back to index.html (client routes);
// - its page composed on every request and rendered when the app has a server build, with a
//   Content-Security-Policy listing exactly the origins in use (page-sender.mjs, csp.mjs);
// - /runtime-config.json written from environment variables;
// - a page load's beacon token at RUM_TOKEN_PATH (rum-token.ts), with RUM_TOKEN_KEY, and nginx's
//   session check (session-check.mjs).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, relative, resolve, sep } from 'node:path';
import { messageOf } from '@marketplace/shared/errors';
import { appFor, runtimeConfigFromEnv, SINGLE_BUNDLE_PORT } from '@marketplace/shared/node/platform';
import { RUM_TOKEN_PATH } from '@marketplace/shared/node/rum-token';
import { contentSecurityPolicy, inlineScriptSources } from './csp.mjs';
import { INCLUDES, platformIncludes } from './page-composition.ts';
import { pageSender } from './page-sender.mjs';
import { reachInternally } from './internal-origins.ts';
import { pageRenderer } from './render-page.ts';
import { rumTokens } from './rum-token.ts';
import { SESSION_CHECK_PATH, sessionStatus } from './session-check.mjs';
import { staticFiles, TYPES } from './static-files.mjs';

/** Stops a server from serveApp now: open keep-alive connections are closed, not waited for. */
export function stopServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve(undefined)));
}

/** An address only this machine reaches. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1)$/;

/**
 * The origin a rendered page names as its own (canonical address, og:url): PUBLIC_ORIGIN, never
 * the request's Host, which anyone can forge and nginx keeps the page for every visitor. Required
 * where others are served (NODE_ENV=production, or listening beyond loopback, as the image's page
 * server does); else null: the server's own localhost address (`npm start`, tests).
 */
export function publicOrigin(env: NodeJS.ProcessEnv, host: string): string | null {
  const value = env.PUBLIC_ORIGIN;
  if (!value) {
    if (env.NODE_ENV === 'production' || !LOOPBACK.test(host))
      throw new Error('PUBLIC_ORIGIN is not set: the origin pages are served at (https://shop.example.com)');
    return null;
  }
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || !/^https?:$/.test(url.protocol) || url.origin !== value.replace(/\/$/, ''))
    throw new Error(`PUBLIC_ORIGIN must be an origin such as https://shop.example.com, not '${value}'`);
  return url.origin;
}

/** The Host of `req` when it is a loopback name other than `name` (its port, as `:3000` or ''), else null. */
function otherLoopbackHost(req: IncomingMessage, name: string) {
  const match = /^(\[[^\]]*\]|[^:]*)(:\d+)?$/.exec(req.headers.host ?? '');
  const hostname = match?.[1]?.replace(/^\[|\]$/g, '') ?? '';
  return hostname !== name && LOOPBACK.test(hostname) ? { port: match?.[2] ?? '' } : null;
}

/**
 * Serves an app's build. `loopbackName`: the name this machine's pages are opened at, which the
 * platform's origins use (`localhost`: the API allows pages from http://localhost:3000 only, and
 * its session cookie is that site's); a page opened at another loopback name (127.0.0.1, [::1])
 * is sent there (308), since from it every API call would be cross-site and fail (issue 38,
 * item 9). Navigations only: what a page or a test fetches is served at any name.
 */
export function serveApp({
  dir,
  port,
  host = '127.0.0.1',
  env = process.env,
  log = true,
  loopbackName = null,
}: {
  dir: string;
  port: number;
  host?: string;
  env?: NodeJS.ProcessEnv;
  log?: boolean;
  /** The loopback name pages are opened at; a navigation at another one is sent there (308). */
  loopbackName?: string | null;
}): Promise<Server> {
  const root = resolve(dir);
  // A deployment may set the policy itself; else it is the config's origins and the hashes of the
  // page's inline scripts, as built (a redeploy may change them: worked out again when they change).
  const config = runtimeConfigFromEnv(env);
  let policy = { page: '', csp: contentSecurityPolicy(config, '') };
  let warned = false;
  const csp = (page: string) => {
    if (env.CONTENT_SECURITY_POLICY) {
      // A policy pinned by the deployment names the inline script of one build: another build's is refused.
      const missing = inlineScriptSources(page).filter((source) => !env.CONTENT_SECURITY_POLICY?.includes(source));
      if (missing.length > 0 && !warned && log)
        console.warn(`[serve] CONTENT_SECURITY_POLICY does not allow this build's inline script ${missing.join(' ')}`);
      warned ||= missing.length > 0;
      return env.CONTENT_SECURITY_POLICY;
    }
    if (policy.page !== page) policy = { page, csp: contentSecurityPolicy(config, page) };
    return policy.csp;
  };
  const include = platformIncludes(env);
  // The host's pages are rendered here when it has a server build (render-page.ts).
  const renderer = pageRenderer({ distDir: root, env });
  const configuredOrigin = renderer ? publicOrigin(env, host) : null;
  /** Whether the app's page composes remotes (the shell's; not the single bundle's), read as served: a redeploy may change it. */
  const composesRemotes = () =>
    existsSync(join(root, 'index.html')) &&
    readFileSync(join(root, 'index.html'), 'utf8').includes(`virtual="${INCLUDES.discovery}"`);
  // Beacon tokens for the app's pages; none without a key, and then its pages send no beacons.
  const tokens = existsSync(join(root, 'index.html')) ? rumTokens({ env, include }) : null;
  if (!tokens && log && composesRemotes())
    console.warn(`[serve] ${dir}: RUM_TOKEN_KEY is not set: its pages send no real-user beacons`);

  /** This page load's beacon token, never kept (each load its own id). */
  async function sendToken(req: IncomingMessage, res: ServerResponse, sign: NonNullable<typeof tokens>) {
    const composes = composesRemotes();
    const { status, body, setCookie } = await sign({
      cookie: req.headers.cookie ?? '',
      search: new URL(req.url ?? '/', 'http://x').search,
      composes,
      https: req.headers['x-forwarded-proto'] === 'https',
    });
    res.writeHead(status, {
      'Content-Type': TYPES['.json'],
      'Cache-Control': 'no-store',
      ...(setCookie && { 'Set-Cookie': setCookie }),
    });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
  }

  const sendPage = pageSender({
    csp,
    include,
    renderer,
    origin: () => configuredOrigin ?? `http://localhost:${(server.address() as AddressInfo).port}`,
  });
  const sendFile = staticFiles();

  const server = createServer((req, res) => {
    const elsewhere =
      loopbackName && req.headers['sec-fetch-mode'] === 'navigate' && otherLoopbackHost(req, loopbackName);
    if (elsewhere) {
      res.writeHead(308, {
        Location: `http://${loopbackName}${elsewhere.port}${req.url ?? '/'}`,
        'Cache-Control': 'no-store',
      });
      res.end();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'Access-Control-Allow-Methods': 'GET, HEAD', 'Access-Control-Allow-Headers': '*' }).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end('Bad path');
      return;
    }
    if (pathname === RUM_TOKEN_PATH) {
      // Never the page (a client route's answer): a page that gets no token sends no beacons.
      if (!tokens) {
        res.writeHead(404, { 'Content-Type': TYPES['.json'], 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ error: 'This server signs no beacon tokens (RUM_TOKEN_KEY is not set)' }));
        return;
      }
      sendToken(req, res, tokens).catch((error) => {
        console.error(`[serve] ${pathname}: ${messageOf(error)}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    if (pathname === SESSION_CHECK_PATH) {
      // nginx's check of a loggedIn=yes claim before it bypasses its page cache (session-check.mjs).
      const apiOrigin = runtimeConfigFromEnv(env).apiOrigin;
      sessionStatus({ cookie: req.headers.cookie ?? '', apiOrigin }).then((status) =>
        res.writeHead(status, { 'Cache-Control': 'no-store' }).end(),
      );
      return;
    }
    if (pathname === '/runtime-config.json') {
      res.writeHead(200, { 'Content-Type': TYPES['.json'], 'Cache-Control': 'no-store' });
      res.end(JSON.stringify(runtimeConfigFromEnv(env)));
      return;
    }
    let file = resolve(root, `.${normalize(pathname)}`);
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(400).end('Bad path');
      return;
    }
    // Hidden files are never served: a folder served whole may hold them (a release store's lock,
    // its watcher's state and the teams' webhook addresses).
    if (
      relative(root, file)
        .split(sep)
        .some((segment) => segment.startsWith('.'))
    ) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    if (!existsSync(file) || statSync(file).isDirectory()) {
      // Client-side routes (no extension) get the app's page; a missing asset is a 404.
      if (extname(pathname) || !existsSync(join(root, 'index.html'))) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
        return;
      }
      file = join(root, 'index.html');
    }
    if (extname(file) === '.html') {
      sendPage(req, res, file).catch((error) => {
        console.error(`[serve] ${pathname}: ${messageOf(error)}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    sendFile(req, res, file, pathname);
  });

  return new Promise<Server>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      if (log) console.log(`[serve] ${dir} on http://localhost:${bound}`);
      resolvePromise(server);
    });
  });
}

// As the `serve-app` command: serves ./dist of the app whose folder it runs in (with --single,
// the shell's single-bundle build in ./dist-single on its own port).
if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/serve-app')) {
  const cwd = process.cwd();
  const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
  const single = process.argv.includes('--single');
  const dist = join(cwd, single ? 'dist-single' : 'dist');
  if (!existsSync(join(dist, 'index.html')) && !existsSync(join(dist, 'mf-manifest.json'))) {
    console.error(`[serve] ${dist} has no build: run the app's build first`);
    process.exit(1);
  }
  const port = Number(process.env.PORT || (single ? SINGLE_BUNDLE_PORT : appFor(pkg.name).port));
  reachInternally(process.env.INTERNAL_ORIGINS);
  // Opened on this machine (no PUBLIC_ORIGIN: `npm start`, the e2e suite), at localhost.
  const loopbackName = process.env.PUBLIC_ORIGIN ? null : 'localhost';
  const server = await serveApp({ dir: dist, port, host: process.env.HOST || '127.0.0.1', loopbackName });
  // In its image this process is PID 1, for which a signal without a handler does nothing: docker
  // stop would wait out its grace and kill it. Stop accepting, let pages being rendered finish
  // (10 s at most), then exit.
  const drain = () => {
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  };
  process.once('SIGTERM', drain);
  process.once('SIGINT', drain);
}
