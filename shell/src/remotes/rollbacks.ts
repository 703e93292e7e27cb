import { messageOf } from '@marketplace/shared/errors';
import { REMOTE_NAMES, type RemoteName } from '@marketplace/shared/platform';
import { chooseRemotes, type DiscoveryDocument, type Overrides } from './choice.js';
import { browserCohort } from './cohort.js';
import { readDiscoveryDocument, storedVersionOf } from './discovery.js';
import { appliedOverrides } from './overrides.js';
// The single-bundle build swaps this module for ./single.ts (build-preset/single.mjs): it has no
// config to start with, so nothing here runs there.
import { registeredEntries, startedWith, switchRemote } from './federation.js';

// Rollbacks reaching open pages (issue 27, item 6). Not in main.js: nothing here is needed
// before the first navigation.

/**
 * The remotes this page must switch, with the manifest to load instead: those whose version in
 * use the document says was rolled back, each to what the page would be given now (its live
 * version, or the canary for its cohort). A version a tester asked for stays: they asked for it.
 */
export function rolledBackSwitches(
  doc: DiscoveryDocument,
  docUrl: string,
  inUse: Partial<Record<RemoteName, string>>,
  fallback: Record<RemoteName, string>,
  cohort: number,
  pinned: Overrides,
): Partial<Record<RemoteName, string>> {
  const now = chooseRemotes({ remotes: fallback, discoveryUrl: docUrl }, doc, cohort, {}).remotes;
  const switches: Partial<Record<RemoteName, string>> = {};
  for (const name of REMOTE_NAMES) {
    const current = inUse[name];
    const version = current ? storedVersionOf(current) : null;
    if (!current || !version || pinned[name] || now[name] === current) continue;
    if (doc.remotes?.[name]?.rolledBack?.includes(version)) switches[name] = now[name];
  }
  return switches;
}

/** An open page reads the discovery document again at most this often, however fast it navigates. */
const RECHECK_MS = 5_000;
let lastCheck = 0;
let checking: Promise<void> | null = null;

/**
 * Reads the discovery document again (a revalidation, a 304 when nothing changed) and switches
 * each remote whose version in use was rolled back to what the page would be given now; its
 * slots load it at once (remoteGenerations), a slot showing its fallback included. Asked on every
 * client navigation and when the page gets focus, at most every RECHECK_MS; and at once (`force`)
 * when the live channel announces a rollback or the user presses a slot's Retry. A version merely
 * superseded by a release is kept: the store keeps serving it, and the page started with it.
 */
export function checkForRollbacks({
  force = false,
  now = Date.now(),
}: { force?: boolean; now?: number } = {}): Promise<void> {
  const config = startedWith();
  const url = config?.discoveryUrl;
  // A rollback announced while a check is under way may be newer than the document it read.
  if (checking && force) return checking.then(() => checkForRollbacks({ force }));
  if (!config || !url || checking || (!force && now - lastCheck < RECHECK_MS)) return checking ?? Promise.resolve();
  lastCheck = now;
  checking = (async () => {
    const entries = await registeredEntries();
    const doc = await readDiscoveryDocument(url, 'no-cache');
    const switches = rolledBackSwitches(doc, url, entries, config.remotes, browserCohort(), appliedOverrides.get());
    for (const [name, entry] of Object.entries(switches) as [RemoteName, string][]) {
      console.info(`[shell] ${name} ${storedVersionOf(entries[name] ?? '') ?? ''} was rolled back: loading ${entry}`);
      switchRemote(name, entry);
    }
  })()
    .catch((error: unknown) => {
      // The store unreachable for a moment: the page keeps what it runs, the next navigation checks again.
      console.warn(`[shell] discovery document not re-read: ${messageOf(error)}`);
    })
    .finally(() => {
      checking = null;
    });
  return checking;
}
