// Pages rendered on the server (issue "Pages that arrive rendered"): the shell's server build
// (build-preset: `<shell>/dist-server/render.cjs`) renders each page with the remotes' own server
// builds, at the versions the page's composition names, fetched once per version
// (server-builds.mjs) and run with the shell build's one copy of every singleton
// (server-remotes.mjs). A page that cannot be rendered is served as composed, for the browser
// to render: never an error page.
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { compositionBlocks } from './page-composition.mjs';
import { serverBuilds } from './server-builds.mjs';
import { serverRemotes } from './server-remotes.mjs';

const require = createRequire(import.meta.url);

/**
 * Where the host's server build is, from its browser build's folder: beside a `dist/`; none for
 * another build (the single bundle's `dist-single/` renders in the browser only).
 * @param {string} distDir
 */
export const rendererOf = (distDir) =>
  basename(resolve(distDir)) === 'dist' ? join(distDir, '..', 'dist-server', 'render.cjs') : null;

/**
 * @typedef {{ status: number, body: string, problems: string[], personal: boolean }} RenderedDocument
 * @typedef {{
 *   singletons: Record<string, { version: string, lib: () => unknown }>,
 *   renderDocument(request: {
 *     template: string, origin: string, url: string, cookie: string, composition: unknown,
 *     load(request: { remote: string, manifestUrl: string, manifest: unknown, exposed: string }): Promise<unknown>,
 *     sourceOf?(manifestUrl: string): string | undefined,
 *     budgets?: { remoteMs?: number, dataMs?: number, renderMs?: number },
 *   }): Promise<RenderedDocument>,
 * }} HostRenderer
 */

/**
 * The page renderer of a host whose browser build is in `distDir`, or null when it has no server
 * build (the single bundle, a development build) or rendering is switched off
 * (`SERVER_RENDERING=off`: the bench's client-rendered federated page).
 * @param {{ distDir: string, env?: NodeJS.ProcessEnv, cacheDir?: string, maxVersions?: number,
 *   budgets?: { remoteMs?: number, dataMs?: number, renderMs?: number } }} options
 */
export function pageRenderer({ distDir, env = process.env, cacheDir, maxVersions = 16, budgets }) {
  const file = rendererOf(distDir);
  if (env.SERVER_RENDERING === 'off' || !file || !existsSync(file)) return null;
  const host = /** @type {HostRenderer} */ (require(file));
  const remotes = serverRemotes({ shared: host.singletons, maxVersions });
  // Its own folder by default: two page servers in one process (tests) fetch their remotes each.
  const builds = serverBuilds({ dir: cacheDir ?? mkdtempSync(join(tmpdir(), 'page-server-builds-')) });
  /** The folder each version's server build runs from, by its browser manifest's URL. @type {Map<string, string>} */
  const folders = new Map();
  /** @type {Parameters<HostRenderer['renderDocument']>[0]['load']} */
  const load = async ({ manifestUrl, manifest, exposed }) => {
    const folder = await builds.folderOf(manifestUrl, manifest);
    folders.set(manifestUrl, folder);
    return remotes.load(folder, exposed);
  };
  // Where a remote's code runs from, so the shell's render can tell which remote threw (by the
  // error's stack) and the page's beacon counts it against that remote's version (issue 39, item 1).
  /** @param {string} manifestUrl */
  const sourceOf = (manifestUrl) => folders.get(manifestUrl);

  return {
    /**
     * The page for `url`, rendered into `template` (the app's page with its composition filled).
     * @param {{ template: string, url: string, cookie: string, origin: string }} request
     * @returns {Promise<RenderedDocument>}
     */
    async render({ template, url, cookie, origin }) {
      const [block] = compositionBlocks(template);
      const composition = JSON.parse(block ?? 'null');
      if (!composition?.config) throw new Error('the page has no runtime config to render with');
      return host.renderDocument({ template, url, cookie, origin, composition, load, sourceOf, budgets });
    },
  };
}
