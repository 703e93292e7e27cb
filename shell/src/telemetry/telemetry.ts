import { serverStateInPage, type RuntimeConfig } from '@marketplace/shared';
import {
  BEACON_PATH,
  BEACON_TOKEN_PATH,
  UNRELEASED_VERSION,
  listenForPageErrors,
  receivePageErrors,
  resetPageErrors,
  type BeaconErrorKind,
  type Owner,
  type PageErrorReport,
  type PageToken,
  type RemoteName,
} from '@marketplace/shared/platform';
import { storedVersionOf } from '../remotes/discovery.js';
// The single-bundle build swaps this module for ../remotes/single.ts (build-preset/single.mjs).
import { entriesInUse } from '../remotes/federation.js';
import { SlotBoundary } from '../remotes/SlotBoundary.js';
import { beaconErrorOf, frameOfError, describeError, ownerOfNode, type RemoteBases } from './attribution.js';
import { Collector } from './collector.js';

/** This page load's collector, when it is sampled in; every report below is a no-op otherwise. */
let page: Collector | null = null;
/** Removes the collector's listeners (resetTelemetry). */
let listening: AbortController | null = null;

/** Where each remote's files are on this page: the folder of the manifest it was loaded from. */
const bases = (): RemoteBases =>
  Object.fromEntries(Object.entries(entriesInUse()).map(([name, url]) => [name, new URL('.', url).href]));

/**
 * The version of a remote in use: the release store's, read from its manifest's path; unreleased
 * otherwise, and in the single bundle (no manifests: every remote is built in). A slot reports
 * once its load settled, after the remotes were registered.
 */
function versionInUse(remote: RemoteName): string {
  const url = entriesInUse()[remote];
  return (url && storedVersionOf(url)) ?? UNRELEASED_VERSION;
}

const isPageToken = (value: unknown): value is PageToken => {
  if (typeof value !== 'object' || value === null) return false;
  const { load, token, versions } = value as Partial<Record<keyof PageToken, unknown>>;
  return (
    typeof load === 'string' &&
    typeof token === 'string' &&
    typeof versions === 'object' &&
    versions !== null &&
    Object.values(versions).every((list) => Array.isArray(list) && list.every((v) => typeof v === 'string'))
  );
};

/**
 * This page load's id and token from its page server (page-server/rum-token.ts), for the
 * versions it resolved for this page's address and cohort; null where the page has no page
 * server that signs (a development server): the page then sends no beacons, which the API would
 * refuse. Asked for apart from the page, as a page may be a copy nginx kept for other visitors.
 */
export async function requestPageToken(search: string = window.location.search): Promise<PageToken | null> {
  try {
    const response = await fetch(`${BEACON_TOKEN_PATH}${search}`, {
      cache: 'no-store',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    // Read to its end either way: an answer whose body is left unread stays open in the browser
    // (a page that never goes network-idle: the gate's smoke load waited for it and timed out).
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) return null;
    return isPageToken(body) ? body : null;
  } catch {
    return null;
  }
}

/**
 * Starts the real-user beacon for this page load (issue "Releases that watch themselves"), once,
 * for the runtime config's share of loads: the remotes the slots use at their versions, Web Vitals
 * from the web-vitals library's attribution build with each element named by the slot that holds
 * it, the slots' own failures, and every other error of the page (uncaught, unhandled
 * rejections, React roots' errors, what its server saw while rendering it; issue 39, item 1),
 * attributed to a remote by the original error's stack or its component stack. A beacon goes to the API with navigator.sendBeacon each time the page
 * is hidden (the last moment a page is sure to have; no third party sees it), and a final one when
 * the page goes away, which closes the load (issue 39, item 4). Nothing is sent until the page
 * server's token for the load is in, and nothing at all without one (`token`).
 */
export function startTelemetry(
  config: RuntimeConfig,
  random: () => number = Math.random,
  token: () => Promise<PageToken | null> = requestPageToken,
): void {
  if (page || !config.rumSample || random() >= config.rumSample || typeof navigator.sendBeacon !== 'function') return;
  const collector = new Collector(null, serverStateInPage()?.render);
  page = collector;
  const controller = new AbortController();
  listening = controller;
  const { signal } = controller;
  const url = `${config.apiOrigin}${BEACON_PATH}`;
  const send = (final = false) => {
    const beacon = collector.take(final);
    // text/plain: a beacon of another type would need a CORS preflight, which beacons cannot make.
    if (beacon) navigator.sendBeacon(url, JSON.stringify(beacon));
  };
  // Every error of the page comes through its one queue (shared/src/platform/pageErrors.ts): the
  // window's since main.js started (listening already; here for a page without it), every React
  // root's, and what its server saw; those that came before now are in it, waiting.
  listenForPageErrors();
  const letGo = receivePageErrors((report) => recordPageError(collector, report));
  signal.addEventListener('abort', letGo);
  // On the document: web-vitals listens on the window in the capture phase, so it has reported
  // the final values by the time this runs. A page that goes away fires pagehide first and then
  // its last visibilitychange (the HTML standard's unload order, which Chromium follows), and
  // web-vitals finalizes LCP and CLS only at that visibilitychange: sent at pagehide, the final
  // beacon of every page left by a navigation went without them. So pagehide only marks the next
  // beacon final; a page already hidden (no visibilitychange to come) sends it there. Not final
  // when the page is kept for the back/forward cache: it may come back.
  let leaving = false;
  document.addEventListener(
    'visibilitychange',
    () => {
      if (document.visibilityState === 'hidden') send(leaving);
    },
    { signal },
  );
  window.addEventListener(
    'pagehide',
    (event) => {
      if (document.visibilityState === 'hidden') send(!event.persisted);
      else leaving = !event.persisted;
    },
    { signal },
  );
  void token().then((signed) => {
    if (page !== collector) return;
    // No token, no beacons: the listeners go.
    if (!signed) return controller.abort();
    collector.sign(signed);
    // Its own chunk, loaded once the page is idle, off the first render's path: its observers
    // read the entries buffered since the start, so only an interaction before then goes unseen.
    whenIdle(
      () =>
        void import('web-vitals/attribution').then(({ onCLS, onINP, onLCP, onTTFB }) => {
          const options = { generateTarget: (node: Node | null) => ownerOfNode(node) };
          const owner = (target: string | undefined): Owner => (target as Owner | undefined) ?? 'shell';
          onLCP((metric) => collector.vital('LCP', metric.value, owner(metric.attribution.target)), options);
          onINP((metric) => collector.vital('INP', metric.value, owner(metric.attribution.interactionTarget)), options);
          onCLS(
            (metric) => collector.vital('CLS', metric.value, owner(metric.attribution.largestShiftTarget)),
            options,
          );
          onTTFB((metric) => collector.vital('TTFB', metric.value, 'shell'));
        }),
    );
  });
}

/**
 * One page error into the beacon, against the remote it belongs to (attribution.ts), which the
 * load then counts as used at its version; once: an error a slot's boundary caught is the slot's
 * to report (reportSlotFailure), with its kind.
 */
function recordPageError(collector: Collector, report: PageErrorReport): void {
  if (report.kind === 'caught' && report.boundary instanceof SlotBoundary) return;
  const error = beaconErrorOf(report, bases());
  if (!error) return;
  if (error.owner !== 'shell') collector.used(error.owner, versionInUse(error.owner));
  collector.error(error);
}

/** Runs `work` when the browser is idle (at most a few seconds from now), or soon where it cannot say. */
function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 3000 });
  else setTimeout(work, 0);
}

/** A slot uses its remote: the load counts for the version the page has registered for it. */
export function reportRemoteUse(remote: RemoteName): void {
  if (!page) return;
  page.used(remote, versionInUse(remote));
}

/**
 * A slot fell back: its remote failed to load, timed out, or threw while rendering (where in its
 * files is said then; a load's or a timeout's stack is the shell's, the remote's code never ran).
 */
export function reportSlotFailure(
  remote: RemoteName,
  kind: Extract<BeaconErrorKind, 'load' | 'timeout' | 'render'>,
  error: unknown,
): void {
  reportRemoteUse(remote);
  const frame = kind === 'render' ? frameOfError(error, remote, bases()) : undefined;
  page?.error({ owner: remote, kind, message: describeError(error), ...(frame && { frame }) });
}

/** Forgets this page's collector and errors (tests start each with a fresh page). */
export function resetTelemetry(): void {
  listening?.abort();
  listening = null;
  page = null;
  resetPageErrors();
}
