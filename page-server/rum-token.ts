// A page load's beacon token (issue 39, item 4 "Evidence nobody can forge"). The page asks its own
// origin for it (RUM_TOKEN_PATH) once it starts its beacon; the page server draws the load's id,
// resolves the version of each remote this request's page may use, the way the shell does
// (shell/src/remotes/discovery.ts: the release store's live or canary by the cohort cookie, a
// tester's ?version=), and signs them with the browser's id (drawn here at its first token and
// kept in an HttpOnly cookie) for the API to check (shared/node/rum-token.mjs).
//
// Asked for apart from the page, not written into it: nginx keeps a visitor's page 5 s for every
// visitor of that address and cohort (nginx/app.conf.template), so an id in the page would be
// every one of those visitors' id. The token's answer is never kept by anyone.
import { randomUUID } from 'node:crypto';
import {
  chooseVersions,
  cohortIn,
  cookieIn,
  isDiscoveryDocument,
  localManifestAt,
  overridesIn,
  PLATFORM_COOKIES,
  storedVersionOf,
} from '@marketplace/shared/node/choice';
import { PLATFORM, runtimeConfigFromEnv } from '@marketplace/shared/node/platform';
import { BROWSER_ID_PATTERN, checkRumTokenKey, newBrowserId, signRumToken } from '@marketplace/shared/node/rum-token';
import { INCLUDES } from './page-composition.ts';

/** The version a remote reports when it did not come from the release store (UNRELEASED_VERSION in shared). */
export const UNRELEASED = 'unreleased';
/** The browser's cohort cookie, from the platform's cookie table. */
export const COHORT_COOKIE = PLATFORM_COOKIES.cohort;
/** The browser's id for release evidence, from the platform's cookie table. */
export const BROWSER_COOKIE = PLATFORM_COOKIES.browser;
/** As long as the cohort: a browser keeps one id while it stays on one side of canaries. */
const BROWSER_MAX_AGE_S = 365 * 24 * 3600;

/**
 * The browser id a Cookie header carries, or a new one with the Set-Cookie that keeps it
 * (HttpOnly: no script of the page needs it; Secure over HTTPS). A malformed id is replaced.
 */
export function browserIdFor(cookie: string, https: boolean): { browser: string; setCookie?: string } {
  const kept = cookieIn(cookie, BROWSER_COOKIE);
  if (kept !== null && BROWSER_ID_PATTERN.test(kept)) return { browser: kept };
  const browser = newBrowserId();
  const attributes = `Path=/; Max-Age=${BROWSER_MAX_AGE_S}; HttpOnly; SameSite=Lax${https ? '; Secure' : ''}`;
  return { browser, setCookie: `${BROWSER_COOKIE}=${browser}; ${attributes}` };
}
/**
 * The release store version a manifest's URL names (`base` resolving a relative one), or
 * UNRELEASED: the shell reports that version for a remote from anywhere else.
 */
export const versionOfManifest = (url: string, base?: string): string => storedVersionOf(url, base) ?? UNRELEASED;

export interface PageConfig {
  remotes: Record<string, string>;
  discoveryUrl?: string;
  allowVersionOverride?: boolean;
  allowLocalRemotes?: boolean;
}

/** Each remote's development server on loopback: a developer's own build, never a stored version. */
const LOCAL_MANIFESTS = Object.fromEntries(
  Object.entries(PLATFORM.remotes).map(([name, r]) => [name, localManifestAt(r.devPort)]),
);

/**
 * The versions of each remote a page may use, for a request with this cookie and query: per
 * remote, one version, or two (canary and live) when a canary runs and the request has no cohort
 * yet (the browser draws it). Null when that cannot be known here: the release store's document
 * could not be read, and the browser will read it itself.
 *
 * A page that does not compose remotes (`composes` false: the single bundle, a remote alone)
 * builds them in: every one unreleased.
 */
export function pageVersions({
  config,
  discovery,
  composes,
  cookie,
  search,
}: {
  config: PageConfig;
  discovery: unknown;
  composes: boolean;
  cookie: string;
  search: string;
}): Record<string, string[]> | null {
  const names = Object.keys(PLATFORM.remotes);
  if (!composes) return Object.fromEntries(names.map((name) => [name, [UNRELEASED]]));
  if (config.discoveryUrl && !isDiscoveryDocument(discovery)) return null;
  const allowsOverrides = Boolean(config.allowVersionOverride || config.allowLocalRemotes);
  const overrides = allowsOverrides ? overridesIn(search, {}, names) : {};
  // The platform's one choice; a browser with no cohort yet may draw either side of a canary.
  const cohort = cohortIn(cookie);
  const choices = (cohort === null ? [0, 99] : [cohort]).map(
    (c) => chooseVersions({ config, discovery, cohort: c, overrides, localManifests: LOCAL_MANIFESTS }).manifests,
  );
  return Object.fromEntries(
    names.map((name) => [name, [...new Set(choices.map((manifests) => versionOfManifest(manifests[name] ?? '')))]]),
  );
}

/** A request for a page load's token. */
export interface TokenRequest {
  cookie: string;
  search: string;
  composes: boolean;
  /** Whether the page was asked for over HTTPS (its browser id cookie is then Secure). */
  https?: boolean;
  now?: number;
}

/** The answer at RUM_TOKEN_PATH: a status, its JSON body, and the browser id cookie when one was drawn. */
export interface TokenAnswer {
  status: number;
  body: object;
  setCookie?: string;
}

/**
 * The page server's answer at RUM_TOKEN_PATH, or null when it signs none (RUM_TOKEN_KEY unset: its
 * pages then send no beacons). `include` is the page composition's (the discovery document as the
 * page gets it); `composes` whether the app's page composes remotes.
 */
export function rumTokens({
  env,
  include,
}: {
  env: NodeJS.ProcessEnv;
  include: (path: string) => Promise<string | null>;
}): ((request: TokenRequest) => Promise<TokenAnswer>) | null {
  if (!env.RUM_TOKEN_KEY) return null;
  const key = checkRumTokenKey(env.RUM_TOKEN_KEY);
  const config = runtimeConfigFromEnv(env);
  return async ({ cookie, search, composes, https = false, now }) => {
    let discovery: unknown = null;
    if (composes && config.discoveryUrl)
      try {
        discovery = JSON.parse((await include(INCLUDES.discovery)) ?? 'null');
      } catch {
        // Unreadable: as if the store were down (no token).
      }
    const versions = pageVersions({ config, discovery, composes, cookie, search });
    if (!versions) return { status: 503, body: { error: "The release store's document could not be read" } };
    const load = randomUUID();
    const cohort = composes ? cohortIn(cookie) : null;
    const { browser, setCookie } = browserIdFor(cookie, https);
    const token = signRumToken(key, { load, versions, cohort, browser }, { now });
    return { status: 200, body: { load, token, versions }, ...(setCookie && { setCookie }) };
  };
}
