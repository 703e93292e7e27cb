/**
 * The real-user beacon (issue "Releases that watch themselves"): what a page load tells the API
 * about the remotes it rendered, at which versions, how fast the page was and what failed, so a
 * release can be judged per remote and version. The shell sends it (shell/src/telemetry), the API
 * validates and stores it (api/src/routes/rum.ts); both read the shape and the limits here.
 *
 * Nothing personal: a page load is named by a random id its page server drew, and no user,
 * address, URL or query is sent.
 *
 * Nothing forged (issue 39, item 4): the page asks its page server for its load's token
 * (BEACON_TOKEN_PATH), which signs that id and the version of each remote the page may use
 * (shared/node/rum-token.mjs); the API counts a beacon only under a valid token, for those
 * versions, and not after its load was closed. A page that gets no token sends nothing.
 */
import type { RemoteName } from './remotes.js';

/** Where on the API the beacon goes (POST, any content type: sendBeacon sends text/plain). */
export const BEACON_PATH = '/rum';
/** A beacon larger than this is refused (413): a page load has little to say. */
export const BEACON_MAX_BYTES = 16 * 1024;
/** At most this many errors per beacon; the page counts the rest without their messages. */
export const BEACON_MAX_ERRORS = 20;
/** Error messages are cut to this length. */
export const BEACON_MESSAGE_CHARS = 300;
/** An error's frame (BeaconError['frame']) is cut to this length, its end kept (the file, line and column). */
export const BEACON_FRAME_CHARS = 200;
/**
 * A page load sends at most this many beacons (a tab hidden and shown all day is not a flood); the
 * API closes a load at its last one, or at a final beacon, and refuses any later one (409).
 */
export const BEACON_MAX_PER_LOAD = 10;
/**
 * Where a page asks its own origin for its load's token (the page server answers it, never cached;
 * shared/node/rum-token.mjs's RUM_TOKEN_PATH, kept equal by its test).
 */
export const BEACON_TOKEN_PATH = '/platform/rum-token';

/** The page server's answer at BEACON_TOKEN_PATH: this page load's id, its signed token, and what it signs. */
export interface PageToken {
  load: string;
  token: string;
  /**
   * Per remote, the versions the token lets the page report (two, live and canary, when the
   * page's request had no cohort yet). A remote the page used at another version (a tester's
   * version kept by the tab) is left out of its beacons, which the API would otherwise refuse.
   */
  versions: Partial<Record<RemoteName, string[]>>;
}

/** Who a figure or an error belongs to: a remote, or the shell (the page itself). */
export type Owner = RemoteName | 'shell';

/** The version of a remote that did not come from the release store (a development server, a config URL). */
export const UNRELEASED_VERSION = 'unreleased';

/**
 * How a remote failed in the page: its slot's fallback after a load failure or a timeout, an error
 * it threw while rendering (its slot's error boundary caught it, another boundary or none did,
 * React recovered by rendering again, or the page's server saw it throw), or an uncaught error or
 * unhandled rejection whose stack is in its files.
 */
export type BeaconErrorKind = 'load' | 'timeout' | 'render' | 'uncaught' | 'rejection';
export const BEACON_ERROR_KINDS: readonly BeaconErrorKind[] = ['load', 'timeout', 'render', 'uncaught', 'rejection'];

export interface BeaconError {
  owner: Owner;
  kind: BeaconErrorKind;
  message: string;
  /**
   * Where in its owner's code it was thrown: the top frame of its stack that lies in the owner
   * remote's files, as `path:line:column` (a URL's path, its origin and query left out; or a
   * file's path), so that a rollback can say where its top error comes from. Absent for errors
   * without a stack (`load`, `timeout`, a muted "Script error.", the page server's), and for the
   * shell's (its files have no folder of their own to tell them from the page's address).
   */
  frame?: string;
}

/** The Web Vitals the page reports, each with the part of the page that owns it. */
export type VitalName = 'LCP' | 'INP' | 'CLS' | 'TTFB';
export const VITAL_NAMES: readonly VitalName[] = ['LCP', 'INP', 'CLS', 'TTFB'];

export interface BeaconVital {
  /** Milliseconds, or the layout shift score for CLS. */
  value: number;
  /** The remote whose element it was (the LCP element, the slow interaction's target, the largest shift). */
  owner: Owner;
}

/**
 * One page load's beacon. A page sends one each time it is hidden: the vitals as they stand, every
 * remote used so far with its version, and the errors since the last beacon; and a final one when
 * it goes away. The API merges beacons of the same load.
 */
export interface Beacon {
  /** The page load's id, as its token signs it (drawn by the page server, crypto.randomUUID). */
  load: string;
  /** The page load's token (PageToken); a beacon without one is refused (403). */
  token?: string;
  /**
   * The page is gone (pagehide, not kept in the back/forward cache): the API closes the load and
   * refuses later beacons of it. Hiding a page that stays open sends beacons without it.
   */
  final?: boolean;
  /**
   * The version of each remote the page used: rendered, or tried to load and fell back (a release
   * store version, or UNRELEASED_VERSION). A failed load counts against the version it tried.
   */
  versions: Partial<Record<RemoteName, string>>;
  /**
   * The page server's render this page came from (ServerState['render'], a random UUID), absent
   * for a page rendered in the browser. nginx keeps a visitor's page a few seconds and serves it
   * to every visitor of that address: their loads share the render, its failures and all. A
   * canary is judged on one load per render, its first (api/src/repositories/rum.ts), so one
   * failed render of a hot page is one failure, not a burst of them.
   */
  render?: string;
  vitals: Partial<Record<VitalName, BeaconVital>>;
  errors: BeaconError[];
}
