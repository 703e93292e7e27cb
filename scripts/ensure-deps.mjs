// Installs what the workspace needs on a machine that has only Node and npm: pnpm, then the
// dependencies; and, for the browser tests, Debian's Chromium. Used by `npm start` and `npm test`.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_VERSION, onPlatformNode, platformNodeEnv } from './with-node.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM_VERSION = '12.21.0';
export const CHROMIUM = '/usr/bin/chromium';

function pnpmVersion() {
  try {
    return execFileSync('pnpm', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/**
 * Native addons (better-sqlite3) build with node-gyp, which would download Node's headers;
 * this network reaches only package registries, so point it at the headers this Node ships with
 * (not a `nodedir` from npm's configuration, which may be another Node's).
 */
function nodeHeadersDir() {
  const prefix = resolve(process.execPath, '..', '..');
  return existsSync(join(prefix, 'include', 'node', 'node.h')) ? prefix : undefined;
}

export function ensureDeps() {
  if (!onPlatformNode())
    throw new Error(
      `Node ${process.versions.node}: the platform runs on Node ${NODE_VERSION}; start the scripts with npm start / npm test / pnpm bench, which fetch it`,
    );
  if (pnpmVersion() !== PNPM_VERSION) {
    console.log(`[setup] installing pnpm ${PNPM_VERSION}`);
    execSync(`npm install -g pnpm@${PNPM_VERSION}`, { stdio: 'inherit' });
  }
  const headers = nodeHeadersDir();
  const env = headers ? platformNodeEnv(resolve(process.execPath, '..', '..')) : { ...process.env };
  // About a second when nothing changed; the first time better-sqlite3 builds from source (~90 s).
  execSync('pnpm install --frozen-lockfile', { cwd: root, stdio: 'inherit', env });
  // An install made on another Node keeps that Node's addon, which this one refuses to load.
  if (!sqliteLoads()) {
    console.log(`[setup] rebuilding better-sqlite3 for Node ${process.versions.node}`);
    execSync('pnpm --filter api rebuild better-sqlite3', { cwd: root, stdio: 'inherit', env });
  }
}

/** True when the API's better-sqlite3 addon loads in this Node. */
function sqliteLoads() {
  try {
    execFileSync(process.execPath, ['-e', "require('better-sqlite3')"], { cwd: join(root, 'api'), stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Installs a Debian package when `path` is missing (Playwright cannot download browsers here). */
export function ensureDebianPackage(pkg, path) {
  return ensureDebianPackages({ [pkg]: path });
}

/**
 * Installs, in one apt-get run, each Debian package whose file is missing; true when every file
 * is there after.
 *
 * @param {Record<string, string>} packages package name -> a file it installs
 */
export function ensureDebianPackages(packages) {
  const missing = Object.keys(packages).filter((pkg) => !existsSync(packages[pkg]));
  if (missing.length === 0) return true;
  console.log(`[setup] installing Debian's ${missing.join(', ')}`);
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  try {
    execSync(
      `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing.join(' ')}`,
      {
        stdio: 'inherit',
      },
    );
  } catch {
    console.error(`[setup] could not install ${missing.join(', ')}`);
  }
  return Object.values(packages).every((path) => existsSync(path));
}

/**
 * The production topology's servers: nginx, RabbitMQ (its server with the MQTT, web MQTT,
 * management and HTTP auth plugins, which Debian's package ships; api/rabbitmq runs it from its
 * own folder, not as the package's service), envsubst, PostgreSQL 15 (initdb, pg_ctl).
 */
export const PRODUCTION_PACKAGES = {
  nginx: '/usr/sbin/nginx',
  'rabbitmq-server': '/usr/lib/rabbitmq/bin/rabbitmq-server',
  'gettext-base': '/usr/bin/envsubst',
  'postgresql-15': '/usr/lib/postgresql/15/bin/initdb',
};

/**
 * What the media pipeline runs (api/src/media/videos.ts): Debian's ffmpeg and ffprobe, for every
 * start (the API processes videos itself by default) and the tests.
 */
export const MEDIA_PACKAGES = { ffmpeg: '/usr/bin/ffmpeg' };

/** Production builds of the shell and every remote, two at a time (the machine has 2 cores). */
export function buildApps() {
  execSync('pnpm -r --workspace-concurrency=2 --filter shell --filter "mf-*" build', { cwd: root, stdio: 'inherit' });
}

/** The single-bundle build: the shell and every remote as one application (shell/dist-single). */
export function buildSingle() {
  execSync('pnpm --filter shell build:single', { cwd: root, stdio: 'inherit' });
}

if (import.meta.url === `file://${process.argv[1]}`) ensureDeps();
