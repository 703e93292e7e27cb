// Copies of builds the tests serve: the header team's next build, and copies of a dist with one
// chunk changed (a broken build, a header that throws, one that fails by the load's draw).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../env.js';
import type { AppDir } from './servers.js';

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
