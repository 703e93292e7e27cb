import { loadRemote, preloadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RuntimeConfig } from '@marketplace/shared';
// Not the shared package itself: main.js runs this before the shared singletons are negotiated.
import { pageAt, REMOTE_NAMES, UNRELEASED_VERSION, type RemoteName } from '@marketplace/shared/platform';
import { resolveRemotes } from './discovery.js';

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

function registerPlatformRemotes(config: RuntimeConfig): void {
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
    {
      name: 'platform-slot-errors',
      // A failed remote is its slot's business: log it and let loadRemote reject.
      errorLoadRemote({ id, error }) {
        console.warn(`[shell] remote ${id} failed to load: ${error instanceof Error ? error.message : String(error)}`);
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
  if (fresh && entries[name]) registerRemotes([{ name, entry: entries[name] }], { force: true });
  return loadRemote<unknown>(id);
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
  void registered.then(() => preloadRemote(wanted)).catch(() => undefined);
}

/** A release store version's manifest: `<remote>/<12 hex digits>/mf-manifest.json`. */
const STORED_MANIFEST = /\/([0-9a-f]{12})\/mf-manifest\.json$/;

/** Where a remote's code comes from on this page: its version, and the folder of its files. */
export interface RemoteSource {
  version: string;
  base: string;
}

/**
 * Each registered remote's version (the release store's, read from its manifest's path; a remote
 * not released through the store is UNRELEASED_VERSION) and base URL, for the real-user beacon.
 */
export function remoteSources(): Partial<Record<RemoteName, RemoteSource>> {
  return Object.fromEntries(
    Object.entries(entries).map(([name, url]) => [
      name,
      { version: STORED_MANIFEST.exec(new URL(url).pathname)?.[1] ?? UNRELEASED_VERSION, base: new URL('.', url).href },
    ]),
  );
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
