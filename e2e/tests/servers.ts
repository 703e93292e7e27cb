import { execFile, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REMOTE_FALLBACK, SHELL_FALLBACK, startNginx } from 'page-server/nginx';
import { serveApp, stopServer } from 'page-server/serve';
import { LIVE_URL, ROOT, runtimeEnv } from '../env.js';

export type AppDir = 'shell' | 'mf-header' | 'mf-media' | 'mf-event-order' | 'mf-account';

/** Serves a built app (or any dist folder) on a port until stopped. */
export async function startApp(
  dirOrApp: AppDir | string,
  port: number,
  env: Record<string, string> = runtimeEnv(),
): Promise<Server> {
  const dir = dirOrApp.startsWith('/') ? dirOrApp : join(ROOT, dirOrApp, 'dist');
  return serveApp({ dir, port, env: { ...process.env, ...env }, log: false });
}

/**
 * Serves a build as a deploy would: under nginx with the images' template in the production
 * project (where LIVE_URL names the gateway's /mqtt, in front of RabbitMQ), with serve-app otherwise.
 */
export async function deployBuild(
  dir: string,
  port: number,
  env: Record<string, string>,
  role: 'shell' | 'remote',
): Promise<{ stop(): Promise<void> }> {
  if (!LIVE_URL) {
    const server = await serveApp({ dir, port, env: { ...process.env, ...env }, log: false });
    return { stop: () => stop(server) };
  }
  const workDir = mkdtempSync(join(tmpdir(), 'e2e-nginx-'));
  return startNginx({
    dist: dir,
    port,
    env: { ...process.env, ...env },
    fallback: role === 'shell' ? SHELL_FALLBACK : REMOTE_FALLBACK,
    workDir,
  });
}

export function stop(server: Server | undefined): Promise<void> {
  return server ? stopServer(server) : Promise.resolve();
}

/**
 * The header team's next build: a copy of the package beside the real one (so its node_modules
 * links resolve the same way) with the logo text changed, built alone. Returns its dist.
 */
export function buildNextHeader(folder: string, logo: string): string {
  const next = join(ROOT, folder);
  rmSync(next, { recursive: true, force: true });
  cpSync(join(ROOT, 'mf-header'), next, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => !src.includes('/dist'),
  });
  const file = join(next, 'src/header/HeaderBar.tsx');
  writeFileSync(file, readFileSync(file, 'utf8').replace('>EventMedia<', `>${logo}<`));
  execFileSync(join(ROOT, 'build-preset/build-app.mjs'), [], { cwd: next, stdio: 'pipe' });
  return join(next, 'dist');
}

/**
 * A copy of an app's dist (or of `from`, a copy already made) where one chunk's text is replaced:
 * a broken build of that remote. `replace` may be worked out from the chunk's code (a minified
 * name to use). Like a real build, the changed chunk gets a new content hash in its name (and
 * every reference to it).
 */
export function brokenCopy(
  app: AppDir,
  chunkPrefix: string,
  find: string,
  replace: string | ((code: string) => string),
  folder = '',
  from = join(ROOT, app, 'dist'),
): string {
  const copy = mkdtempSync(join(tmpdir(), `${app}-broken-`));
  cpSync(from, copy, { recursive: true });
  const dir = join(copy, folder);
  const chunk = readdirSync(dir).find((f) => f.startsWith(chunkPrefix) && f.endsWith('.js'));
  if (!chunk) throw new Error(`no ${chunkPrefix}*.js in ${app}/dist/${folder}`);
  const code = readFileSync(join(dir, chunk), 'utf8');
  if (!code.includes(find)) throw new Error(`${chunk} does not contain ${find}`);
  writeFileSync(join(dir, chunk), code.replace(find, typeof replace === 'string' ? replace : replace(code)));
  const hash = /\.([0-9a-f]{8})\.js$/.exec(chunk)?.[1];
  if (hash) {
    // Another build: another file name, in the files that name it (the manifests list a server build's files).
    const renamed = chunk.replace(hash, 'badc0de0');
    renameSync(join(dir, chunk), join(dir, renamed));
    for (const file of [
      ...readdirSync(dir).map((f) => join(dir, f)),
      ...(folder ? readdirSync(copy).map((f) => join(copy, f)) : []),
    ].filter((f) => /\.(js|json)$/.test(f))) {
      const text = readFileSync(file, 'utf8');
      if (text.includes(hash)) writeFileSync(file, text.split(hash).join('badc0de0'));
    }
  }
  return copy;
}

/** The header's logo as built: what the header's broken copies below replace. */
const HEADER_LOGO = 'children:"EventMedia"';

/**
 * A copy of the header's dist whose logo throws `message` while rendering: in its browser build,
 * or in its server build only (the browser's is sound); with `chance` below 1, on that share of
 * renders only.
 */
export function headerThatThrows(
  message: string,
  { build = 'browser', chance = 1 }: { build?: 'browser' | 'server'; chance?: number } = {},
): string {
  const thrower = `throw new Error(${JSON.stringify(message)})`;
  const replace =
    chance < 1
      ? `children:(()=>{if(Math.random()<${chance})${thrower};return"EventMedia"})()`
      : `children:(()=>{${thrower}})()`;
  return build === 'server'
    ? brokenCopy('mf-header', '__federation_expose_Header', HEADER_LOGO, replace, 'server')
    : brokenCopy('mf-header', 'src_header_HeaderBar_tsx', HEADER_LOGO, replace);
}

/**
 * A copy of the header's dist that fails in the page loads whose address draws below `share`
 * (`?draw=0.125`, from 0 to 1; an address without one draws 1). The draw is the load's: whether a
 * load fails is decided once for it, the same on the server and in the browser, so a test that
 * chooses its draws knows how many loads fail, without chance's spread (at 200 loads a fair coin
 * for each would miss 30 % by more than 5 points one run in eight). Such a load fails where its
 * page is rendered, once:
 * - on a page its server renders, its server build throws in every render (the browser's is sound
 *   there: only the page server saw it fail);
 * - on a page rendered in the browser, its browser build throws on the header's first render,
 *   which React renders again, and the page is whole; below half the share, in every render, and
 *   its slot falls back.
 */
export function headerFailingByDraw(share: number): string {
  const draw = (code: string) => {
    // The header bar's own `search` (from useLocation), by its minified name, in the same function as the logo.
    const names = [...code.slice(0, code.indexOf(HEADER_LOGO)).matchAll(/\{pathname:(\w+),search:(\w+)\}=/g)].at(-1);
    if (!names) throw new Error("no useLocation() search before the header's logo");
    return `Number(new URLSearchParams(${names[2]}).get("draw")??1)`;
  };
  const browser = brokenCopy(
    'mf-header',
    'src_header_HeaderBar_tsx',
    HEADER_LOGO,
    (code) =>
      `children:(()=>{var d=${draw(code)},g=globalThis;if(d>=${share}||document.getElementById("platform-server-state"))return"EventMedia";` +
      `g.__headerRenders=(g.__headerRenders||0)+1;if(d<${share / 2}||g.__headerRenders===1)throw new Error("flaky header");return"EventMedia"})()`,
  );
  const both = brokenCopy(
    'mf-header',
    '__federation_expose_Header',
    HEADER_LOGO,
    (code) =>
      `children:(()=>{if(${draw(code)}<${share})throw new Error("flaky header on the server");return"EventMedia"})()`,
    'server',
    browser,
  );
  rmSync(browser, { recursive: true, force: true });
  return both;
}

/** A remote's fault, switchable while the page is open. */
export type Fault = 'down' | 'manifest 500' | 'entry delayed past the load timeout' | 'throwing on render';

/** Longer than the shell's slot timeout (shell/src/remotes/registry.ts, 8 s). */
const ENTRY_DELAY_MS = 9_500;

const portOf = (server: Server) => (server.address() as AddressInfo).port;

/**
 * A remote's origin with a fault in front of its real build: not listening, its manifest
 * answering 500, its entry answered after the slot's timeout, or serving a copy whose module
 * throws while rendering. `heal()` makes it a healthy remote again without the page reloading.
 */
export async function startFaultyRemote(
  app: AppDir,
  port: number,
  fault: Fault,
  broken: { chunkPrefix: string; find: string; replace: string },
) {
  const good = await startApp(app, 0);
  const bad = await startApp(brokenCopy(app, broken.chunkPrefix, broken.find, broken.replace), 0);
  let healed = false;
  let front: Server | undefined;
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (!healed && fault === 'manifest 500' && url.startsWith('/mf-manifest.json')) {
      res
        .writeHead(500, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' })
        .end('down for maintenance');
      return;
    }
    if (!healed && fault === 'entry delayed past the load timeout' && url.startsWith('/remoteEntry.js'))
      await new Promise((r) => setTimeout(r, ENTRY_DELAY_MS));
    const target = !healed && fault === 'throwing on render' ? bad : good;
    const upstream = await fetch(`http://127.0.0.1:${portOf(target)}${url}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    const headers = Object.fromEntries(
      [...upstream.headers].filter(
        ([k]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k),
      ),
    );
    res.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      front = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
      front.listen(port, '127.0.0.1', () => resolve());
    });
  if (fault !== 'down') await listen();
  return {
    async heal() {
      healed = true;
      if (!front) await listen();
    },
    close: () => Promise.all([stop(front), stop(good), stop(bad)]).then(() => undefined),
  };
}

/** What the fault proxy answers for a call instead of the API: a status, or no answer at all (status 0). */
export type ApiFault = { status: number } | 'connection dropped';

/**
 * A proxy in front of the real API that answers chosen calls with a failure (with the CORS
 * headers a real failure carries, so the page sees the status) and forwards everything else.
 */
export async function startApiFaultProxy(port: number, target: string) {
  const faults = new Map<string, { fault: ApiFault; passes: number }>();
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', target);
      const rule = faults.get(`${req.method} ${url.pathname}`);
      // A rule may let its first calls through (the second upload fails, not the first).
      const fault = rule && rule.passes-- <= 0 ? rule.fault : undefined;
      const origin = req.headers.origin;
      const cors: Record<string, string> = origin
        ? { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' }
        : {};
      if (fault === 'connection dropped') {
        req.socket.destroy();
        return;
      }
      if (fault) {
        res
          .writeHead(fault.status, { ...cors, 'Content-Type': 'application/json' })
          .end(JSON.stringify({ error: `injected ${fault.status}` }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      const upstream = await fetch(url, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
        redirect: 'manual',
      });
      const out: Record<string, string | string[]> = Object.fromEntries(
        [...upstream.headers].filter(
          ([k]) =>
            ![
              'content-encoding',
              'content-length',
              'transfer-encoding',
              'connection',
              'keep-alive',
              'set-cookie',
            ].includes(k),
        ),
      );
      const cookies = upstream.headers.getSetCookie();
      if (cookies.length) out['set-cookie'] = cookies;
      res.writeHead(upstream.status, out).end(Buffer.from(await upstream.arrayBuffer()));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    /** From now on (after `passFirst` more calls), `method path` (e.g. 'POST /v2/logout') fails this way. */
    fail(call: string, fault: ApiFault, passFirst = 0) {
      faults.set(call, { fault, passes: passFirst });
    },
    heal(call: string) {
      faults.delete(call);
    },
    close: () => stop(server),
  };
}

/**
 * Runs the release commands (`node releases/cli.mjs ...`) with `vars` over the suite's
 * environment (without a LIVE_SHELL_URL unless `vars` names one); resolves with the exit code and
 * everything it printed.
 */
export async function releasesCli(
  vars: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'releases', 'cli.mjs'), ...args],
      {
        env: releasesEnv(vars),
      },
    );
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

function releasesEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const { LIVE_SHELL_URL: _none, ...inherited } = process.env;
  return { ...inherited, ...vars };
}

/** A release command left running (the canary watcher): its output so far, and its exit code once it ends. */
export function startReleasesCli(
  vars: Record<string, string>,
  ...args: string[]
): { output: () => string; exited: Promise<number>; stop(): void } {
  const child = spawn(process.execPath, [join(ROOT, 'releases', 'cli.mjs'), ...args], { env: releasesEnv(vars) });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  return { output: () => output, exited, stop: () => child.kill('SIGTERM') };
}
