// The page server's side of the version choice: the versions a request's page is rendered with.
import type { RuntimeConfig } from '@marketplace/shared';
import { cohortIn, overridesIn, REMOTE_NAMES, type Composition, type RemoteName } from '@marketplace/shared/platform';
import { allowsOverrides, chooseRemotes, isDocument, knownManifests } from './choice.js';
import type { ResolvedRemotes } from './discovery.js';

/** What a page's server renders a request with (versionsForRequest). */
export interface RequestVersions extends ResolvedRemotes {
  /**
   * Remotes whose version the browser decides: a canary is running and the request carries no
   * cohort yet (a cohort kept by an older shell in localStorage must stay), the document could not
   * be composed, or a developer's own build, which listens on the developer's loopback, not the
   * server's (the server would render whatever listens on its own port there). The server leaves
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
  const overrides = allowsOverrides(config) ? overridesIn(search, {}, REMOTE_NAMES) : {};
  const choice = chooseRemotes(config, composed.discovery, cohortIn(cookie), overrides);
  const doc = config.discoveryUrl && isDocument(composed.discovery) ? composed.discovery : null;
  return { remotes: choice.remotes, manifests: knownManifests(config, composed, doc), undecided: choice.undecided };
}
