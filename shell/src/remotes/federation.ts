import {
  loadRemote,
  preloadRemote,
  registerPlugins,
  registerRemotes,
  type ModuleFederationRuntimePlugin,
} from '@module-federation/enhanced/runtime';
import type { RuntimeConfig } from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';
// Not the shared package itself: main.js runs this before the shared singletons are negotiated.
import { pageAt, REMOTE_NAMES, type RemoteName } from '@marketplace/shared/platform';
import { resolveRemotes } from './discovery.js';
import { remoteGenerations } from './generations.js';

/**
 * Registers every remote's manifest URL (from the release store's discovery document when the
 * runtime config names one, else from the config): nothing is fetched until a route or slot asks
 * for one of its modules (share strategy loaded-first, set in the preset). The manifests the
 * server composed into the page are handed to the runtime instead of being fetched, once each:
 * a later, fresh load of a remote (after its module threw) asks its server again.
 */
let entries: Record<string, string> = {};
/** Settles once the remotes are registered; loads wait for it. */
let registered: Promise<void> = Promise.resolve();
const composedManifests = new Map<string, unknown>();

/**
 * A manifest the page already holds, as the runtime's fetch hook must answer (a Response), but
 * read without going through a body stream: reading one waits for a task, and the shell's own
 * chunks would run first, holding the remotes' preload back until they are done.
 */
class ComposedManifest extends Response {
  constructor(private readonly manifest: unknown) {
    super(null, { status: 200 });
  }
  override json(): Promise<unknown> {
    return Promise.resolve(this.manifest);
  }
}

/** Whether `url` is another origin's than the page's: fetched with CORS only then, as webpack's chunk loader does. */
const isCrossOrigin = (url: string): boolean => new URL(url, document.baseURI).origin !== window.location.origin;

/** The attributes the runtime would have set itself (it sets none on an element a hook made). */
function withAttributes<E extends HTMLElement>(element: E, attrs: Record<string, unknown> = {}): E {
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'async' || name === 'defer') element.toggleAttribute(name, Boolean(value));
    else if (!element.hasAttribute(name)) element.setAttribute(name, String(value));
  }
  return element;
}

/**
 * A remote's scripts and their preloads are fetched with CORS (crossorigin="anonymous"; every
 * remote's server answers Access-Control-Allow-Origin: *): an error thrown by a script fetched
 * without it reaches the page as "Script error.", with no stack and no file, which no one can
 * attribute to its remote (issue 39, item 1). This covers the remote's entry and what the runtime
 * preloads; the remote's own chunks get it from webpack (output.crossOriginLoading in the preset),
 * and the page's boot script's hints too (src/boot). A preload must be in the
 * same mode as the script it is for, or the browser fetches the script again.
 */
const crossOriginScripts: ModuleFederationRuntimePlugin = {
  name: 'platform-cross-origin',
  createScript({ url, attrs }) {
    if (!isCrossOrigin(url)) return undefined;
    const script = withAttributes(document.createElement('script'), attrs);
    script.crossOrigin = 'anonymous';
    script.src = url;
    return script;
  },
  createLink({ url, attrs }) {
    if (!isCrossOrigin(url)) return undefined;
    const link = withAttributes(document.createElement('link'), attrs);
    link.crossOrigin = 'anonymous';
    link.href = url;
    return link;
  },
};

/** The config the page started with (checkForRollbacks reads its discovery document again). */
let runtimeConfig: RuntimeConfig | null = null;

function registerPlatformRemotes(config: RuntimeConfig): void {
  runtimeConfig = config;
  registered = resolveRemotes(config).then(({ remotes, manifests }) => {
    entries = { ...remotes };
    for (const [url, manifest] of manifests) composedManifests.set(url, manifest);
    registerRemotes(REMOTE_NAMES.map((name) => ({ name, entry: remotes[name] })));
  });
  registerPlugins([
    {
      name: 'platform-composed-manifests',
      fetch(url) {
        const manifest = composedManifests.get(url);
        if (manifest === undefined) return undefined;
        composedManifests.delete(url);
        return Promise.resolve(new ComposedManifest(manifest));
      },
    },
    crossOriginScripts,
    {
      name: 'platform-slot-errors',
      // A failed remote is its slot's business: log it and let loadRemote reject.
      errorLoadRemote({ id, error }) {
        console.warn(`[shell] remote ${id} failed to load: ${messageOf(error)}`);
        return undefined;
      },
    },
  ]);
}

/**
 * One exposed module, `remote/Module`, fetched through the federation runtime. `fresh` first
 * forgets the remote's loaded entry and modules, so a module that threw while rendering is
 * fetched again from the remote's manifest (a fixed deploy is picked up without a page reload).
 */
export async function loadRemoteModule(id: string, fresh = false): Promise<unknown> {
  await registered;
  const name = id.split('/')[0] ?? '';
  const entry = entries[name];
  if (fresh && entry) reloadRemote(name, entry);
  return loadRemote<unknown>(id);
}

/** The array a remote's webpack runtime loads its chunks through (build-preset: `webpackChunk<name>`). */
const chunkGlobalOf = (name: string) => `webpackChunk${name}`;

/**
 * Forgets a remote's loaded entry and modules and registers `entry` for it: its next load runs
 * that build afresh. Its chunk array is emptied too: a new runtime takes the chunks already in
 * it as its own, so another version would otherwise run the old version's code under the same
 * chunk names.
 */
function reloadRemote(name: string, entry: string): void {
  (globalThis as Record<string, unknown>)[chunkGlobalOf(name)] = [];
  registerRemotes([{ name, entry }], { force: true });
}

/**
 * Starts fetching, in parallel, what the first page needs: the header's and the route's remote
 * manifests, entries and exposed chunks (listed in each manifest), instead of discovering them one
 * after the other as the page renders. Best effort: a remote that is down is the slot's business.
 */
function preloadForLocation(pathname: string): void {
  const route = pageAt(pathname);
  const wanted = [{ nameOrAlias: 'header', exposes: ['Header'] }];
  if (route) wanted.push({ nameOrAlias: route.remote, exposes: [route.module] });
  // A task of its own (see index.ts): registering and preloading are each a few milliseconds of script.
  void registered
    .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
    .then(() => preloadRemote(wanted))
    .catch(() => undefined);
}

/** The remotes' manifest URLs in use on this page, as registered so far (empty before). */
export const entriesInUse = (): Readonly<Record<string, string>> => entries;

/** The config the page started with, once federation has started (the rollback check reads its document). */
export const startedWith = (): RuntimeConfig | null => runtimeConfig;

/** The remotes' manifest URLs in use, once they are registered. */
export async function registeredEntries(): Promise<Readonly<Record<string, string>>> {
  await registered;
  return entries;
}

/** Loads `entry` in place of a remote's version in use: its slots load it at once (remoteGenerations). */
export function switchRemote(name: RemoteName, entry: string): void {
  entries[name] = entry;
  reloadRemote(name, entry);
  remoteGenerations.bump(name);
}

let started = false;

/**
 * Registers the remotes and starts loading the page's first remote code, once per page. main.js
 * calls it with the config its server composed into the page, before the shell's bootstrap
 * chunk even loads, so the remotes' code downloads alongside the shell's; the bootstrap calls it
 * again with the config it loaded (the only call when the page was not composed, in development).
 */
export function startFederation(config: RuntimeConfig, pathname: string): void {
  if (started) return;
  started = true;
  registerPlatformRemotes(config);
  preloadForLocation(pathname);
}
