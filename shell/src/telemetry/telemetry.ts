import type { RuntimeConfig } from '@marketplace/shared';
import {
  BEACON_PATH,
  UNRELEASED_VERSION,
  type BeaconErrorKind,
  type Owner,
  type RemoteName,
} from '@marketplace/shared/platform';
import { storedVersionOf } from '../remotes/discovery.js';
// The single-bundle build swaps this module for ../remotes/single.ts (build-preset/single.mjs).
import { entriesInUse } from '../remotes/federation.js';
import { ownerOfNode, ownerOfStack } from './attribution.js';
import { Collector } from './collector.js';

/** This page load's collector, when it is sampled in; every report below is a no-op otherwise. */
let page: Collector | null = null;
/** Removes the collector's listeners (resetTelemetry). */
let listening: AbortController | null = null;

const messageOf = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);
const stackOf = (error: unknown): string | undefined => (error instanceof Error ? error.stack : undefined);
/** Where each remote's files are on this page: the folder of the manifest it was loaded from. */
const bases = (): Partial<Record<RemoteName, string>> =>
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

/**
 * Starts the real-user beacon for this page load (issue "Releases that watch themselves"), once,
 * for the runtime config's share of loads: the remotes the slots use at their versions, Web Vitals
 * from the web-vitals library's attribution build with each element named by the slot that holds
 * it, uncaught errors and unhandled rejections attributed by their stack to a remote's files, and
 * the slots' own failures. A beacon goes to the API with navigator.sendBeacon each time the page
 * is hidden (the last moment a page is sure to have; no third party sees it).
 */
export function startTelemetry(config: RuntimeConfig, random: () => number = Math.random): void {
  if (page || !config.rumSample || random() >= config.rumSample || typeof navigator.sendBeacon !== 'function') return;
  const collector = new Collector(crypto.randomUUID());
  page = collector;
  listening = new AbortController();
  const { signal } = listening;
  const url = `${config.apiOrigin}${BEACON_PATH}`;
  const send = () => {
    const beacon = collector.take();
    // text/plain: a beacon of another type would need a CORS preflight, which beacons cannot make.
    if (beacon) navigator.sendBeacon(url, JSON.stringify(beacon));
  };
  window.addEventListener(
    'error',
    (event) => {
      const error: unknown = event.error;
      collector.error(
        ownerOfStack(stackOf(error) ?? event.filename, bases()),
        'uncaught',
        messageOf(error ?? event.message),
      );
    },
    { signal },
  );
  window.addEventListener(
    'unhandledrejection',
    (event) => {
      const reason: unknown = event.reason;
      collector.error(ownerOfStack(stackOf(reason), bases()), 'rejection', messageOf(reason));
    },
    { signal },
  );
  // On the document: web-vitals listens on the window in the capture phase, so it has reported
  // the final values by the time this runs. pagehide too: leaving a page may not hide it first.
  document.addEventListener(
    'visibilitychange',
    () => {
      if (document.visibilityState === 'hidden') send();
    },
    { signal },
  );
  window.addEventListener('pagehide', send, { signal });
  // Its own chunk, loaded once the page is idle, off the first render's path: its observers read
  // the entries buffered since the start, so only an interaction before then goes unseen.
  whenIdle(
    () =>
      void import('web-vitals/attribution').then(({ onCLS, onINP, onLCP, onTTFB }) => {
        const options = { generateTarget: (node: Node | null) => ownerOfNode(node) };
        const owner = (target: string | undefined): Owner => (target as Owner | undefined) ?? 'shell';
        onLCP((metric) => collector.vital('LCP', metric.value, owner(metric.attribution.target)), options);
        onINP((metric) => collector.vital('INP', metric.value, owner(metric.attribution.interactionTarget)), options);
        onCLS((metric) => collector.vital('CLS', metric.value, owner(metric.attribution.largestShiftTarget)), options);
        onTTFB((metric) => collector.vital('TTFB', metric.value, 'shell'));
      }),
  );
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

/** A slot fell back: its remote failed to load, timed out, or threw while rendering. */
export function reportSlotFailure(
  remote: RemoteName,
  kind: Extract<BeaconErrorKind, 'load' | 'timeout' | 'render'>,
  error: unknown,
): void {
  reportRemoteUse(remote);
  page?.error(remote, kind, messageOf(error));
}

/** Forgets this page's collector (tests start each with a fresh page). */
export function resetTelemetry(): void {
  listening?.abort();
  listening = null;
  page = null;
}
