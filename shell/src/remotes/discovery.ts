import type { RuntimeConfig } from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';
// Not the shared package itself: main.js runs this before the shared singletons are negotiated.
import {
  chosenPointer,
  cohortIn,
  isOverrideVersion,
  LOCAL_VERSION,
  overrideManifest,
  cohortValue,
  pageComposition,
  PLATFORM_COOKIES,
  REMOTE_NAMES,
  REMOTES,
  storedVersionOf,
  type Composition,
  type RemoteName,
} from '@marketplace/shared/platform';

/** A released version of a remote in the discovery document (releases/store.mjs writes it). */
interface Pointer {
  version: string;
  /** The version's manifest, relative to the discovery document. */
  manifest: string;
}

export interface DiscoveryDocument {
  remotes: Partial<
    Record<
      RemoteName,
      {
        live?: Pointer;
        canary?: Pointer & { percent: number };
        versions?: string[];
        /** Versions taken away by a rollback: a page running one leaves it at its next navigation. */
        rolledBack?: string[];
      }
    >
  >;
  /** The manifests of the live and canary versions, by their path (written with the pointers). */
  manifests?: Record<string, unknown>;
}

/** The remotes' manifest URLs for this page, and the manifests already in hand, by URL. */
export interface ResolvedRemotes {
  remotes: Record<RemoteName, string>;
  manifests: Map<string, unknown>;
}

const OVERRIDES_KEY = 'platform-version-overrides';
/**
 * `?version=header@<version>` asks for a stored version of a remote in this tab,
 * `?version=header@local` for the developer's own development server of it; `?version=clear` stops.
 */
export const OVERRIDE_PARAM = 'version';
/** The version name of a remote served by its development server on this machine. */
export { LOCAL_VERSION, storedVersionOf };

export type Overrides = Partial<Record<RemoteName, string>>;

/**
 * A remote's development server on this machine (`pnpm --filter mf-header dev`): its port is the
 * platform table's, never taken from the address, so a link can only point a tab at loopback.
 */
export const localManifest = (remote: RemoteName): string =>
  `http://localhost:${REMOTES[remote].devPort}/mf-manifest.json`;

/**
 * The versions a tester asked for in this tab: those in the address (`?version=remote@version`,
 * repeatable) are added to the ones kept in the tab's storage; `?version=clear` forgets them.
 * Only names of remotes and version-shaped values are kept: they are checked against the store later.
 */
export function requestedOverrides(
  search: string,
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>,
): Overrides {
  const asked = new URLSearchParams(search).getAll(OVERRIDE_PARAM);
  if (asked.includes('clear')) {
    storage.removeItem(OVERRIDES_KEY);
    return {};
  }
  // Those kept from earlier pages of the tab, then those in the address (a later one wins).
  const pairs = [...Object.entries(readKept(storage)), ...asked.map((value) => value.split('@'))];
  const valid: Overrides = Object.fromEntries(
    pairs.filter(([remote, version]) => REMOTE_NAMES.includes(remote as RemoteName) && isOverrideVersion(version)),
  );
  storage.setItem(OVERRIDES_KEY, JSON.stringify(valid));
  return valid;
}

function readKept(storage: Pick<Storage, 'getItem'>): Overrides {
  try {
    const value: unknown = JSON.parse(storage.getItem(OVERRIDES_KEY) ?? '{}');
    return value && typeof value === 'object' ? (value as Overrides) : {};
  } catch {
    return {};
  }
}

/** The overrides in effect on this page (shown by the shell's marker). */
let applied: Overrides = {};
const listeners = new Set<() => void>();
export const appliedOverrides = {
  get: (): Overrides => applied,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
function setApplied(next: Overrides): void {
  applied = next;
  for (const listener of listeners) listener();
}

/** Where a browser's cohort is kept: a first-party cookie, which the page's server reads too. */
export const COHORT_COOKIE = PLATFORM_COOKIES.cohort;
/** Kept a year, as long as a browser should stay on one side of a canary's share. */
const COHORT_MAX_AGE_S = 365 * 24 * 3600;

/** The page's cookies, as browserCohort reads and writes them. */
export interface CookieJar {
  cookie: string;
}

/**
 * This browser's cohort, 0-99, drawn once and kept in a cookie: a canary at N % serves the
 * browsers whose cohort is below N, so each stays on its version across reloads, and a page's
 * server can tell which version this browser gets. A cohort kept in localStorage by earlier
 * versions of the shell is moved into the cookie, so no browser changes sides.
 */
export function browserCohort(
  jar: CookieJar = document,
  storage: Pick<Storage, 'getItem'> = window.localStorage,
): number {
  const fromCookie = cohortIn(jar.cookie);
  if (fromCookie !== null) return fromCookie;
  const cohort = cohortValue(storage.getItem(COHORT_COOKIE)) ?? Math.floor(Math.random() * 100);
  jar.cookie = `${COHORT_COOKIE}=${cohort}; Path=/; Max-Age=${COHORT_MAX_AGE_S}; SameSite=Lax`;
  return cohort;
}

/**
 * Each remote's manifest URL: its canary for the browsers in the canary's share, else its live
 * version, else (not released through the store) the runtime config's URL.
 */
export function manifestsFrom(
  doc: DiscoveryDocument,
  docUrl: string,
  fallback: Record<RemoteName, string>,
  cohort: number | null,
): Record<RemoteName, string> {
  const manifests = { ...fallback };
  for (const name of REMOTE_NAMES) {
    const chosen = chosenPointer(doc.remotes?.[name], cohort);
    if (chosen && typeof chosen.manifest === 'string') manifests[name] = new URL(chosen.manifest, docUrl).href;
  }
  return manifests;
}

/** Which kinds of override the deployment allows (runtime config). */
export interface OverrideSwitches {
  /** Stored versions of the release store (allowVersionOverride). */
  storeVersions: boolean;
  /** The developer's own development server on loopback (allowLocalRemotes). */
  local: boolean;
}

/**
 * A tester's versions, where the store holds them: the manifest of `<remote>/<version>/` next to
 * the document, never a URL from the address (that would let a link load any script); and a
 * developer's `local` build, from the remote's development port on loopback. Each only where the
 * deployment allows it. Returns the overrides that apply.
 */
export function applyOverrides(
  doc: DiscoveryDocument | null,
  docUrl: string | null,
  manifests: Record<RemoteName, string>,
  requested: Overrides,
  allowed: OverrideSwitches,
): Overrides {
  const used: Overrides = {};
  for (const [remote, version] of Object.entries(requested) as [RemoteName, string][]) {
    const where = overrideManifest(remote, version, docUrl ? doc : null, allowed);
    if (where === null) {
      console.warn(
        version === LOCAL_VERSION
          ? `[shell] ${remote}@local: this deployment does not load local builds`
          : `[shell] ${remote}@${version} is not in the release store: not loaded`,
      );
      continue;
    }
    manifests[remote] = where === LOCAL_VERSION ? localManifest(remote) : new URL(where, docUrl ?? undefined).href;
    used[remote] = version;
  }
  return used;
}

const isDocument = (value: unknown): value is DiscoveryDocument =>
  typeof value === 'object' && value !== null && typeof (value as DiscoveryDocument).remotes === 'object';

/** The overrides the deployment allows (runtime config). */
const overrideSwitches = (config: RuntimeConfig): OverrideSwitches => ({
  storeVersions: Boolean(config.allowVersionOverride),
  local: Boolean(config.allowLocalRemotes),
});

/**
 * The manifests the page already holds, by manifest URL: each configured remote's as composed,
 * and those the discovery document carries for the versions it points at.
 */
function knownManifests(config: RuntimeConfig, composed: Composition | null, doc: DiscoveryDocument | null) {
  const manifests = new Map<string, unknown>();
  for (const name of REMOTE_NAMES)
    if (composed?.manifests[name]) manifests.set(config.remotes[name], composed.manifests[name]);
  if (doc && config.discoveryUrl)
    for (const [path, manifest] of Object.entries(doc.manifests ?? {}))
      manifests.set(new URL(path, config.discoveryUrl).href, manifest);
  return manifests;
}

/**
 * Reads the discovery document: `no-store` on a page's first load, `no-cache` when an open page
 * checks it again (the browser revalidates its copy, and an unchanged document is a 304).
 */
export async function readDiscoveryDocument(url: string, cache: RequestCache): Promise<DiscoveryDocument> {
  const response = await fetch(url, { cache });
  if (!response.ok) throw new Error(`answered ${response.status}`);
  const doc: unknown = await response.json();
  if (!isDocument(doc)) throw new Error('not a discovery document');
  return doc;
}

/** The document the server composed into the page, else a fresh read of it. */
async function discoveryDocument(url: string, composed: Composition | null): Promise<DiscoveryDocument> {
  if (isDocument(composed?.discovery)) return composed.discovery;
  return readDiscoveryDocument(url, 'no-store');
}

/**
 * The remotes' manifest URLs for this page: from the discovery document when the runtime config
 * names one, else the config's own. The document and the manifests are those the server composed
 * into the page (read on every load, so a release or a rollback shows on the next reload); a part
 * it could not compose is fetched fresh. A document that cannot be read leaves the config's URLs.
 */
export async function resolveRemotes(
  config: RuntimeConfig,
  composed: Composition | null = pageComposition(),
): Promise<ResolvedRemotes> {
  const allowed = overrideSwitches(config);
  // Testers' and developers' versions, only where the deployment allows them.
  const override = (doc: DiscoveryDocument | null, remotes: Record<RemoteName, string>) => {
    if (allowed.storeVersions || allowed.local)
      setApplied(
        applyOverrides(
          doc,
          config.discoveryUrl ?? null,
          remotes,
          requestedOverrides(window.location.search, window.sessionStorage),
          allowed,
        ),
      );
    return remotes;
  };
  if (!config.discoveryUrl)
    return { remotes: override(null, { ...config.remotes }), manifests: knownManifests(config, composed, null) };
  try {
    const doc = await discoveryDocument(config.discoveryUrl, composed);
    const remotes = override(doc, manifestsFrom(doc, config.discoveryUrl, config.remotes, browserCohort()));
    return { remotes, manifests: knownManifests(config, composed, doc) };
  } catch (error) {
    console.warn(
      `[shell] discovery document ${config.discoveryUrl} unreadable, using the configured remotes: ${messageOf(error)}`,
    );
    return { remotes: override(null, { ...config.remotes }), manifests: knownManifests(config, composed, null) };
  }
}

/** What a page's server renders a request with (versionsForRequest). */
export interface RequestVersions extends ResolvedRemotes {
  /**
   * Remotes whose version the browser decides: a canary is running and the request carries no
   * cohort yet (a cohort kept by an older shell in localStorage must stay), so the server leaves
   * their slots loading rather than render a version the browser may not take.
   */
  undecided: Set<RemoteName>;
}

/**
 * The versions a page's server renders a request with: exactly those the browser will take
 * (resolveRemotes) from the same composed document, the request's cohort cookie and the tester's
 * versions in its address. Versions a tab kept from an earlier address are the browser's: where
 * they differ, it renders the page itself instead of hydrating.
 */
export function versionsForRequest(
  config: RuntimeConfig,
  composed: Composition,
  cookie: string,
  search: string,
): RequestVersions {
  const undecided = new Set<RemoteName>();
  const doc = config.discoveryUrl && isDocument(composed.discovery) ? composed.discovery : null;
  let remotes = { ...config.remotes };
  if (doc && config.discoveryUrl) {
    const cohort = cohortIn(cookie);
    if (cohort === null) for (const name of REMOTE_NAMES) if (doc.remotes[name]?.canary) undecided.add(name);
    remotes = manifestsFrom(doc, config.discoveryUrl, config.remotes, cohort);
  } else if (config.discoveryUrl) {
    // The document could not be composed: the browser reads it, and may take other versions.
    for (const name of REMOTE_NAMES) undecided.add(name);
  }
  const allowed = overrideSwitches(config);
  if (allowed.storeVersions || allowed.local) {
    const asked = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };
    const used = applyOverrides(doc, config.discoveryUrl ?? null, remotes, requestedOverrides(search, asked), allowed);
    // A developer's own build listens on the developer's loopback, not the server's: the server
    // would render whatever listens on its own port there (on a shared staging host, anyone's).
    for (const [remote, version] of Object.entries(used))
      if (version === LOCAL_VERSION) undecided.add(remote as RemoteName);
  }
  return { remotes, manifests: knownManifests(config, composed, doc), undecided };
}
