// The platform's one version choice and one cookie table. The browser
// (shell/src/remotes/discovery.ts), the page server (the shell's server build, the beacon tokens
// of page-server/rum-token.ts, nginx's version labels in page-server/nginx.ts) and the page's
// boot script (shell/src/boot, bundled into the page by the build preset) all choose and parse
// with these. nginx's maps cannot run them: page-server/nginx.test.ts holds its cookie maps to
// them, header by header. Plain JavaScript, so that the page server runs it as it is.

/** Every cookie the pages and their servers read, by what it is for. */
export const PLATFORM_COOKIES = {
  /** SPEC.md section 5: 'yes' while logged in (set on the parent domain, so every app sees it). */
  loggedIn: 'loggedIn',
  /** Where to return after logging in: a site path, for a day. */
  loginRedirect: 'loginRedirect',
  /** The browser's canary cohort, 0-99, drawn once and kept a year. */
  cohort: 'platform-cohort',
  /** The API's session (HttpOnly, base64url): only the API and the page server's calls to it read it. */
  session: 'session',
  /** A visitor's cart until they log in (HttpOnly, base64url), the API's. */
  guestCart: 'guestCart',
  /**
   * The browser's random id for release evidence (HttpOnly, kept a year): the page server draws
   * it at the browser's first beacon token, and each token signs it (shared/node/rum-token.mjs).
   */
  browser: 'platform-browser',
};

/** One cookie's value in a Cookie header (or `document.cookie`): the first of that name, or null. */
export function cookieIn(header, name) {
  const match = new RegExp('(?:^|;\\s*)' + name + '=([^;]*)').exec(header || '');
  return match ? match[1] : null;
}

/** A cohort as written (cookie, storage): one or two digits ('05' is 5); anything else is none. */
export function cohortValue(value) {
  return typeof value === 'string' && /^\d{1,2}$/.test(value) ? Number(value) : null;
}

/** The cohort a Cookie header names, or null. */
export function cohortIn(header) {
  return cohortValue(cookieIn(header, PLATFORM_COOKIES.cohort));
}

/** Whether a Cookie header is a logged-in visitor's (its loggedIn cookie is exactly 'yes'). */
export function loggedInIn(header) {
  return cookieIn(header, PLATFORM_COOKIES.loggedIn) === 'yes';
}

/**
 * The version of a remote a browser takes from the release store's discovery document: its
 * canary when the browser's cohort is below the canary's share, else its live version; null when
 * the store has none (the remote's configured URL then). A browser with no cohort yet takes live.
 */
export function chosenPointer(entry, cohort) {
  if (!entry) return null;
  if (entry.canary && cohort !== null && cohort < entry.canary.percent) return entry.canary;
  return entry.live || null;
}

/** A tester's `?version=` asks for a release store version (12 hex digits) or `local` (a developer's own build). */
export const LOCAL_VERSION = 'local';

/** A remote's development server on this machine, at its development port (the platform table's). @param {number} port */
export const localManifestAt = (port) => `http://localhost:${port}/mf-manifest.json`;

/** Whether `version` is one a tester may ask for: a release store version or `local`. */
export function isOverrideVersion(version) {
  return version === LOCAL_VERSION || /^[0-9a-f]{12}$/.test(String(version));
}

/**
 * Where a tester's version of a remote is served from, where the deployment allows it: `local`
 * (the remote's development port on loopback) when it allows developers' builds, a stored
 * version's manifest path (relative to the discovery document) when it allows store versions and
 * the store lists that version; null when refused.
 */
export function overrideManifest(remote, version, doc, allowed) {
  if (version === LOCAL_VERSION) return allowed.local ? LOCAL_VERSION : null;
  const entry = doc && doc.remotes ? doc.remotes[remote] : null;
  const listed = entry && Array.isArray(entry.versions) ? entry.versions : [];
  if (!allowed.storeVersions || !isOverrideVersion(version) || listed.indexOf(version) < 0) return null;
  return remote + '/' + version + '/mf-manifest.json';
}

/** The query parameter a tester names versions with: `?version=header@<version>`, `?version=clear`. */
export const OVERRIDE_PARAM = 'version';

/**
 * The versions a tester asks for: those kept from earlier pages of the tab (`kept`), then those in
 * the address (`search`, `?version=remote@version`, repeatable; a later one wins); none once the
 * address says `?version=clear`. Only names in `remotes` with version-shaped values are kept:
 * whether the store holds them is chooseVersions'.
 *
 * @param {string} search @param {Record<string, unknown>} kept @param {readonly string[]} remotes
 * @returns {Record<string, string>}
 */
export function overridesIn(search, kept, remotes) {
  const asked = new URLSearchParams(search).getAll(OVERRIDE_PARAM);
  if (asked.includes('clear')) return {};
  const pairs = [...Object.entries(kept), ...asked.map((value) => value.split('@'))];
  /** @type {Record<string, string>} */
  const valid = {};
  for (const [remote = '', version] of pairs)
    if (remotes.includes(remote) && typeof version === 'string' && isOverrideVersion(version)) valid[remote] = version;
  return valid;
}

/** Whether `value` has the shape of the release store's discovery document. @param {unknown} value */
export const isDiscoveryDocument = (value) =>
  typeof value === 'object' &&
  value !== null &&
  typeof (/** @type {{ remotes?: unknown }} */ (value).remotes) === 'object' &&
  /** @type {{ remotes?: unknown }} */ (value).remotes !== null;

/**
 * The platform's one version choice: the manifest each remote's code loads from on a page, for a
 * browser in `cohort` (null: not drawn yet) asking for a tester's `overrides`. From the discovery
 * document when the config names one (a canary for the cohorts below its share, else live), else
 * the config's URL; a tester's version where the deployment allows it (`local`: the remote's
 * development server, `localManifests`). `undecided`: remotes whose version this page cannot know
 * yet (a canary and no cohort drawn, a document that could not be read, a developer's loopback
 * build, which is the browser's machine's), which a page server leaves for the browser to load.
 *
 * @param {{
 *   config: { remotes: Record<string, string>, discoveryUrl?: string, allowVersionOverride?: boolean, allowLocalRemotes?: boolean },
 *   discovery: unknown, cohort: number | null, overrides: Record<string, string>, localManifests: Record<string, string>,
 * }} input
 */
export function chooseVersions({ config, discovery, cohort, overrides, localManifests }) {
  const docUrl = config.discoveryUrl;
  const doc = docUrl && isDiscoveryDocument(discovery) ? /** @type {DiscoveryLike} */ (discovery) : null;
  const manifests = { ...config.remotes };
  /** @type {string[]} */
  const undecided = [];
  for (const name of Object.keys(config.remotes)) {
    const entry = doc ? doc.remotes[name] : undefined;
    if ((docUrl && !doc) || (cohort === null && entry && entry.canary)) undecided.push(name);
    const chosen = chosenPointer(entry, cohort);
    if (docUrl && chosen && typeof chosen.manifest === 'string')
      manifests[name] = new URL(chosen.manifest, docUrl).href;
  }
  const allowed = { storeVersions: Boolean(config.allowVersionOverride), local: Boolean(config.allowLocalRemotes) };
  /** @type {Record<string, string>} */
  const used = {};
  /** @type {Record<string, string>} */
  const refused = {};
  for (const [remote, version] of Object.entries(overrides)) {
    if (!(remote in config.remotes)) continue;
    const where = overrideManifest(remote, version, doc, allowed);
    const local = localManifests[remote];
    if (where === null || (where === LOCAL_VERSION && !local)) {
      refused[remote] = version;
      continue;
    }
    manifests[remote] = where === LOCAL_VERSION ? /** @type {string} */ (local) : new URL(where, docUrl).href;
    used[remote] = version;
    if (where === LOCAL_VERSION && !undecided.includes(remote)) undecided.push(remote);
  }
  return { manifests, used, refused, undecided };
}

/**
 * @typedef {{ remotes: Record<string, { live?: { manifest?: unknown }, canary?: { manifest?: unknown, percent: number }, versions?: unknown } | undefined> }} DiscoveryLike
 */

/**
 * The release store version a manifest's URL names (`<remote>/<12 hex digits>/mf-manifest.json`,
 * resolved against `base`), or null: a development server, a configured URL, no URL at all. The
 * shell's beacon and rollbacks (shell/src/remotes/discovery.ts) and the page server's beacon
 * tokens (page-server/rum-token.ts) read versions with it. Not embedded in the boot script.
 */
export function storedVersionOf(url, base) {
  try {
    const match = /\/([0-9a-f]{12})\/mf-manifest\.json$/.exec(new URL(url, base).pathname);
    return match ? match[1] : null;
  } catch {
    return null;
  }
}
