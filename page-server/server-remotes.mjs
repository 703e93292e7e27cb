// Remotes' server builds (build-preset/server.mjs) loaded into the page's server, at the version
// a page names: the first step of rendering pages on the server (issue "Pages that arrive
// rendered"). Each version is loaded from its own folder (a remote's dist/, or the release store's
// <remote>/<version>/) into a federation instance of its own; the page's server provides the one
// copy of every shared singleton. Versions never change, so a loaded one is never reloaded; the
// least recently used are dropped past a bound.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { createInstance } from '@module-federation/runtime';

const require = createRequire(import.meta.url);

/**
 * @typedef {{ version: string, lib: () => unknown }} SharedModule a module the page's server provides, and its version
 * @typedef {ReturnType<typeof createInstance>} Federation
 */

/**
 * The runtime's own Node loader cannot read an entry from disk (Node's fetch has no file: URLs)
 * and keeps a remote's container in a global by the remote's name, which a second version of the
 * same remote would then be given. This plugin evaluates the entry file as Node's CommonJS
 * wrapper would, with its own __dirname (so its chunks come from its own folder), and hands its
 * container to this version's instance only.
 *
 * @returns {import('@module-federation/runtime').ModuleFederationRuntimePlugin}
 */
const entryFromFile = () => ({
  name: 'entry-from-file',
  loadEntry({ remoteInfo }) {
    const { entry, entryGlobalName, name } = remoteInfo;
    const module = { exports: /** @type {Record<string, unknown>} */ ({}) };
    /** @type {(exports: object, module: object, require: NodeJS.Require, dirname: string, filename: string) => void} */
    const wrapper = new vm.Script(
      `(function (exports, module, require, __dirname, __filename) {${readFileSync(entry, 'utf8')}\n})`,
      { filename: entry, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER },
    ).runInThisContext();
    wrapper(module.exports, module, require, dirname(entry), entry);
    return /** @type {never} */ (module.exports[entryGlobalName] ?? module.exports[name] ?? module.exports);
  },
});

/** The server entry a version's browser manifest lists (metaData.ssrRemoteEntry). @param {string} versionDir */
export function serverEntryOf(versionDir) {
  const { metaData } = JSON.parse(readFileSync(join(versionDir, 'mf-manifest.json'), 'utf8'));
  const entry = metaData?.ssrRemoteEntry;
  if (!entry) throw new Error(`${versionDir} has no server build (no metaData.ssrRemoteEntry in its manifest)`);
  return { name: /** @type {string} */ (metaData.name), entry: join(versionDir, entry.path, entry.name) };
}

/**
 * @param {{ shared: Record<string, SharedModule>, maxVersions?: number }} options
 *   `shared`: every singleton of build-preset/shared-deps.mjs, as the page's server has it;
 *   `maxVersions`: how many versions stay loaded (all remotes together)
 */
export function serverRemotes({ shared, maxVersions = 16 }) {
  const sharedOptions = Object.fromEntries(
    Object.entries(shared).map(([name, { version, lib }]) => [
      name,
      // Any version a remote asks for gets the one copy: a second React on the server breaks hooks.
      { version, lib, shareConfig: { singleton: true, requiredVersion: /** @type {false} */ (false) } },
    ]),
  );
  /** Loaded versions by folder, least recently used first (a Map keeps insertion order). @type {Map<string, Federation>} */
  const loaded = new Map();
  let serial = 0;

  /** @param {string} versionDir */
  const drop = (versionDir) => {
    const federation = loaded.get(versionDir);
    if (!federation) return;
    loaded.delete(versionDir);
    // What the runtime keeps of an instance (its remotes and share scope, and its entry in the
    // global list); the code itself goes with the last render that uses it.
    // removeRemote is private in the runtime's types, yet it is how the runtime itself forgets a
    // remote (registerRemotes with force); there is no public way.
    const handler = /** @type {{ removeRemote(remote: unknown): void }} */ (
      /** @type {unknown} */ (federation.remoteHandler)
    );
    for (const remote of [...federation.options.remotes]) handler.removeRemote(remote);
    const global =
      /** @type {{ __FEDERATION__?: { __INSTANCES__: unknown[], __SHARE__: Record<string, unknown> } }} */ (
        /** @type {unknown} */ (globalThis)
      ).__FEDERATION__;
    if (global) {
      // Not splice(indexOf(...)) alone: an instance missing from the list would take the last one with it.
      const index = global.__INSTANCES__.indexOf(federation);
      if (index >= 0) global.__INSTANCES__.splice(index, 1);
      delete global.__SHARE__[federation.options.name];
    }
  };

  return {
    /**
     * One exposed module (`'Header'`) of the remote version built in `versionDir`.
     * @param {string} versionDir @param {string} exposed
     * @returns {Promise<unknown>}
     */
    async load(versionDir, exposed) {
      let federation = loaded.get(versionDir);
      if (federation) loaded.delete(versionDir);
      else {
        const { name, entry } = serverEntryOf(versionDir);
        federation = createInstance({
          name: `page_server_${++serial}`,
          remotes: [{ name, entry }],
          shared: sharedOptions,
          shareStrategy: 'loaded-first',
          plugins: [entryFromFile()],
        });
      }
      loaded.set(versionDir, federation);
      while (loaded.size > maxVersions) drop(/** @type {string} */ (loaded.keys().next().value));
      return federation.loadRemote(`${federation.options.remotes[0]?.name}/${exposed}`);
    },
    /** The version folders loaded now, least recently used first. */
    held: () => [...loaded.keys()],
    drop,
  };
}
