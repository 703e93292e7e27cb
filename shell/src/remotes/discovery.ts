import { REMOTE_NAMES, type RemoteName, type RuntimeConfig } from '@marketplace/shared';

/** A released version of a remote in the discovery document (build-preset/releases.mjs writes it). */
interface Pointer {
  version: string;
  /** The version's manifest, relative to the discovery document. */
  manifest: string;
}

export interface DiscoveryDocument {
  remotes: Partial<Record<RemoteName, { live?: Pointer; canary?: Pointer & { percent: number } }>>;
}

const COHORT_KEY = 'platform-cohort';

/**
 * This browser's cohort, 0-99, drawn once and kept: a canary at N % serves the browsers whose
 * cohort is below N, so each stays on its version across reloads.
 */
export function browserCohort(storage: Pick<Storage, 'getItem' | 'setItem'> = window.localStorage): number {
  const kept = Number(storage.getItem(COHORT_KEY));
  if (storage.getItem(COHORT_KEY) !== null && Number.isInteger(kept) && kept >= 0 && kept < 100) return kept;
  const drawn = Math.floor(Math.random() * 100);
  storage.setItem(COHORT_KEY, String(drawn));
  return drawn;
}

/**
 * Each remote's manifest URL: its canary for the browsers in the canary's share, else its live
 * version, else (not released through the store) the runtime config's URL.
 */
export function manifestsFrom(doc: DiscoveryDocument, docUrl: string, fallback: Record<RemoteName, string>, cohort: number): Record<RemoteName, string> {
  const manifests = { ...fallback };
  for (const name of REMOTE_NAMES) {
    const entry = doc.remotes?.[name];
    const chosen = entry?.canary && cohort < entry.canary.percent ? entry.canary : entry?.live;
    if (chosen && typeof chosen.manifest === 'string') manifests[name] = new URL(chosen.manifest, docUrl).href;
  }
  return manifests;
}

/**
 * The remotes' manifest URLs for this page: from the discovery document when the runtime config
 * names one (read fresh on every load, so a release or a rollback shows on the next reload),
 * else the config's own. A document that cannot be read leaves the config's URLs.
 */
export async function resolveRemotes(config: RuntimeConfig): Promise<Record<RemoteName, string>> {
  if (!config.discoveryUrl) return config.remotes;
  try {
    const response = await fetch(config.discoveryUrl, { cache: 'no-store' });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    return manifestsFrom((await response.json()) as DiscoveryDocument, config.discoveryUrl, config.remotes, browserCohort());
  } catch (error) {
    console.warn(`[shell] discovery document ${config.discoveryUrl} unreadable, using the configured remotes: ${error instanceof Error ? error.message : String(error)}`);
    return config.remotes;
  }
}
