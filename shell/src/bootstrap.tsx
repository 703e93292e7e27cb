import { BrowserRouter, mountApp, type ServerState } from '@marketplace/shared';
import { App } from './app/App.js';
// The single-bundle build swaps this module for ./remotes/single.ts (build-preset/single.mjs).
import { registeredEntries, startFederation } from './remotes/federation.js';
import { awaitSlots } from './remotes/pageStart.js';
import { PreloadedSlots, type PreloadedSlot } from './remotes/preloaded.js';
import { loadWithin, REMOTE_LOAD_TIMEOUT_MS } from './remotes/registry.js';
import { startTelemetry } from './telemetry/telemetry.js';
import type { ExposedName, RemoteName } from '@marketplace/shared';

const preloaded = new Map<string, PreloadedSlot>();

/**
 * Before hydrating a page its server rendered: loads the remote modules it rendered with, at
 * the versions it used. When this tab takes another version of one (a tester's, kept from an
 * earlier address) or one cannot be had within a slot's load timeout, the page is rendered here
 * instead (HTML that does not match cannot be hydrated), that slot with its fallback at once.
 */
async function loadServerSlots(server: ServerState): Promise<boolean> {
  const entries = await registeredEntries();
  const slots = Object.entries(server.slots).map(([id, manifest]) => {
    const [remote, module] = id.split('/') as [RemoteName, string];
    return { id, remote, module, manifest };
  });
  if (slots.some(({ remote, manifest }) => entries[remote] !== manifest)) return false;
  await Promise.all(
    slots.map(async ({ id, remote, module }) => {
      try {
        const loaded = await loadWithin(remote, module as ExposedName<typeof remote>, REMOTE_LOAD_TIMEOUT_MS);
        preloaded.set(id, { status: 'ready', Component: loaded.default });
      } catch (error) {
        preloaded.set(id, { status: 'failed', error });
      }
    }),
  );
  const hydrating = [...preloaded.values()].every((slot) => slot.status === 'ready');
  if (hydrating) awaitSlots(preloaded.keys());
  return hydrating;
}

void mountApp(
  (config) => {
    // Already started by main.js when the page was composed by its server.
    startFederation(config, window.location.pathname);
    startTelemetry(config);
    return (
      <PreloadedSlots.Provider value={preloaded}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </PreloadedSlots.Provider>
    );
  },
  'root',
  {
    hydrateWith(config, server) {
      startFederation(config, window.location.pathname);
      return loadServerSlots(server);
    },
  },
);
