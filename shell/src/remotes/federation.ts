import { loadRemote, preloadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { pageAt, REMOTE_NAMES, type RuntimeConfig } from '@marketplace/shared';
import { resolveRemotes } from './discovery.js';

/**
 * Registers every remote's manifest URL (from the release store's discovery document when the
 * runtime config names one, else from the config): nothing is fetched until a route or slot asks
 * for one of its modules (share strategy loaded-first, set in the preset).
 */
let entries: Record<string, string> = {};
/** Settles once the remotes are registered; loads wait for it. */
let registered: Promise<void> = Promise.resolve();

export function registerPlatformRemotes(config: RuntimeConfig): void {
  registered = resolveRemotes(config).then((remotes) => {
    entries = { ...remotes };
    registerRemotes(REMOTE_NAMES.map((name) => ({ name, entry: remotes[name] })));
  });
  registerPlugins([
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
export function preloadForLocation(pathname: string): void {
  const route = pageAt(pathname);
  const wanted = [{ nameOrAlias: 'header', exposes: ['Header'] }];
  if (route) wanted.push({ nameOrAlias: route.remote, exposes: [route.module] });
  void registered.then(() => preloadRemote(wanted)).catch(() => undefined);
}
