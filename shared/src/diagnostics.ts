/**
 * Counters the e2e suite reads to prove there is one of each in the page (one session store,
 * one live client). They live on globalThis so a second copy of this package would show up as
 * a count above one rather than hide in its own module scope.
 */
interface Diagnostics {
  sessionStores: number;
  liveClients: number;
}

const key = '__MARKETPLACE_DIAGNOSTICS__';
const host = globalThis as typeof globalThis & { [key]?: Diagnostics };
host[key] ??= { sessionStores: 0, liveClients: 0 };

export const diagnostics: Diagnostics = host[key];
