// The browser's side of the version choice: the discovery document the page was composed with
// (or read fresh), this browser's cohort and its tester's versions, through chooseRemotes.
import type { RuntimeConfig } from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';
// Not the shared package itself: main.js runs this before the shared singletons are negotiated.
import {
  LOCAL_VERSION,
  pageComposition,
  storedVersionOf,
  type Composition,
  type RemoteName,
} from '@marketplace/shared/platform';
import { allowsOverrides, chooseRemotes, isDocument, knownManifests, type DiscoveryDocument } from './choice.js';
import { browserCohort } from './cohort.js';
import { requestedOverrides, setAppliedOverrides } from './overrides.js';

/** The version name of a remote served by its development server on this machine. */
export { LOCAL_VERSION, storedVersionOf };

/** The remotes' manifest URLs for this page, and the manifests already in hand, by URL. */
export interface ResolvedRemotes {
  remotes: Record<RemoteName, string>;
  manifests: Map<string, unknown>;
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

/** The document the server composed into the page, else a fresh read of it; null when unreadable. */
async function discoveryDocument(url: string, composed: Composition | null): Promise<DiscoveryDocument | null> {
  if (isDocument(composed?.discovery)) return composed.discovery;
  try {
    return await readDiscoveryDocument(url, 'no-store');
  } catch (error) {
    console.warn(`[shell] discovery document ${url} unreadable, using the configured remotes: ${messageOf(error)}`);
    return null;
  }
}

/**
 * The remotes' manifest URLs for this page: from the discovery document when the runtime config
 * names one, else the config's own. The document and the manifests are those the server composed
 * into the page (read on every load, so a release or a rollback shows on the next reload); a part
 * it could not compose is fetched fresh. A document that cannot be read leaves the config's URLs.
 * A tester's versions apply only where the deployment allows them.
 */
export async function resolveRemotes(
  config: RuntimeConfig,
  composed: Composition | null = pageComposition(),
): Promise<ResolvedRemotes> {
  const doc = config.discoveryUrl ? await discoveryDocument(config.discoveryUrl, composed) : null;
  const overrides = allowsOverrides(config) ? requestedOverrides(window.location.search, window.sessionStorage) : {};
  // A cohort is drawn only where a document can put this browser on one side of a canary.
  const choice = chooseRemotes(config, doc, doc ? browserCohort() : null, overrides);
  for (const [remote, version] of Object.entries(choice.refused))
    console.warn(
      version === LOCAL_VERSION
        ? `[shell] ${remote}@local: this deployment does not load local builds`
        : `[shell] ${remote}@${version} is not in the release store: not loaded`,
    );
  if (allowsOverrides(config)) setAppliedOverrides(choice.used);
  return { remotes: choice.remotes, manifests: knownManifests(config, composed, doc) };
}
