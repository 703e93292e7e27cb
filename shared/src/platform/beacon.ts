/**
 * The real-user beacon (issue "Releases that watch themselves"): what a page load tells the API
 * about the remotes it rendered, at which versions, how fast the page was and what failed, so a
 * release can be judged per remote and version. The shell sends it (shell/src/telemetry), the API
 * validates and stores it (api/src/routes/rum.ts); both read the shape and the limits here.
 *
 * Nothing personal: a page load is named by a random id drawn in the page, and no user, address,
 * URL or query is sent.
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

/** Who a figure or an error belongs to: a remote, or the shell (the page itself). */
export type Owner = RemoteName | 'shell';

/** The version of a remote that did not come from the release store (a development server, a config URL). */
export const UNRELEASED_VERSION = 'unreleased';

/**
 * How a remote failed in the page: its slot's fallback after a load failure or a timeout, an error
 * it threw while rendering (its slot's error boundary caught it), or an uncaught error or
 * unhandled rejection whose stack is in its files.
 */
export type BeaconErrorKind = 'load' | 'timeout' | 'render' | 'uncaught' | 'rejection';
export const BEACON_ERROR_KINDS: readonly BeaconErrorKind[] = ['load', 'timeout', 'render', 'uncaught', 'rejection'];

export interface BeaconError {
  owner: Owner;
  kind: BeaconErrorKind;
  message: string;
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
 * remote used so far with its version, and the errors since the last beacon. The API merges
 * beacons of the same load.
 */
export interface Beacon {
  /** Random, drawn once per page load (crypto.randomUUID). */
  load: string;
  /**
   * The version of each remote the page used: rendered, or tried to load and fell back (a release
   * store version, or UNRELEASED_VERSION). A failed load counts against the version it tried.
   */
  versions: Partial<Record<RemoteName, string>>;
  vitals: Partial<Record<VitalName, BeaconVital>>;
  errors: BeaconError[];
}
