#!/usr/bin/env node
// The canary watcher as a service (issue 39, item 5): `pnpm --filter releases watcher`, run by
// `npm start`, `npm run start:prod` and docker-compose (release-watcher). Every tick it takes one
// step (watch.mjs) for every remote whose canary has a watcher's policy: an evaluation when one
// is due, or the rollback, promotion or step that a watcher killed after deciding left undone.
// It keeps nothing in memory: the release store is its database (the policy, every evaluation
// and its figures in history.jsonl, the share in discovery.json), read again at every step, so
// after a crash it is started again and goes on at the same step; several may run on one store
// (each evaluation is appended once, under the store's lock). A canary held inconclusive at its
// deadline is left alone until a releaser acts (promote, rollback, or --watch with a later
// deadline).
//
// RELEASES_DIR is the store (default releases/store/); the figures come from the API's operator
// routes (figures.mjs: API_INTERNAL_URL, comma-separated instances tried in turn, or
// PLATFORM_API_URL; ADMIN_TOKEN); WATCHER_TICK_MS (default 5000) is how often it looks for new
// canaries and due evaluations. SIGTERM or SIGINT: it stops after the step under way. Each
// remote's webhook (webhook.mjs, `pnpm release <remote> --webhook <url>`) is called when its figures
// are unreadable three evaluations in a row, and on every rollback and promotion.
import { resolve, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
// eslint-disable-next-line import-x/no-relative-packages -- the watcher runs in the API's image, without releases' dependencies
import { messageOf } from '../shared/node/errors.mjs';
import { apiAccess, fetchFigures } from './figures.mjs';
import { announceRollback } from './announce.mjs';
import { readDiscovery } from './store.mjs';
import { createPager } from './webhook.mjs';
import { clearHeartbeat, describe, watchStep, writeHeartbeat } from './watch.mjs';

/**
 * Runs the watcher on `store` until `signal` aborts; its webhooks' calls under way are awaited
 * (each within its timeout) before it returns.
 *
 * @param {{ store: string, readFigures: (since: string) => Promise<import('./figures.mjs').VersionFigures[]>, tickMs?: number, signal?: AbortSignal, log?: (line: string) => void, now?: () => number, announce?: import('./watch.mjs').Announce, webhookTimeoutMs?: number }} options
 */
export async function runWatcherService({
  store,
  readFigures,
  tickMs = 5000,
  signal,
  log = console.log,
  now = Date.now,
  announce,
  webhookTimeoutMs,
}) {
  const pager = createPager({ store, log, ...(webhookTimeoutMs === undefined ? {} : { timeoutMs: webhookTimeoutMs }) });
  // A heartbeat older than this means the service is gone: a few ticks, plus the figures' reads
  // of a tick (up to 10 s each when the API does not answer) between two heartbeats.
  const staleAfterMs = 3 * tickMs + 30_000;
  while (!signal?.aborted) {
    let next = now() + tickMs;
    try {
      writeHeartbeat(store, staleAfterMs);
      for (const remote of Object.keys(readDiscovery(store).remotes)) {
        if (signal?.aborted) break;
        try {
          const step = await watchStep({ store, remote, readFigures, now, log, announce, pager });
          if (step.state === 'evaluated' && step.entry) log(describe(step.entry));
          if (step.state === 'completed' && step.entry)
            log(`${remote}: carried out the ${step.entry.decision} decided before a restart (${step.entry.time})`);
          // Straight on when another watcher won the race or a step was completed: the next
          // evaluation may be due already (not after a failure, which would only fail again).
          if (step.state === 'raced' || (step.state === 'completed' && !step.failed)) next = now();
          if (step.state === 'waiting' && step.due !== undefined) next = Math.min(next, step.due);
        } catch (error) {
          // One remote's trouble (a store being written by hand, a full disk) is not every remote's.
          log(`${remote}: ${messageOf(error)}`);
        }
        writeHeartbeat(store, staleAfterMs);
      }
    } catch (error) {
      // The store unreadable for a moment (a volume remounted): the service goes on, and tries again.
      log(messageOf(error));
    }
    try {
      await delay(Math.max(0, next - now()), undefined, { signal });
    } catch {
      // Aborted: the loop ends.
    }
  }
  await pager.settled();
  clearHeartbeat(store);
}

/** The figures from the API, each instance of API_INTERNAL_URL in turn; the token read each time (the API writes it at its first start). */
async function apiFigures(/** @type {string} */ root, /** @type {string} */ since) {
  const api = apiAccess(process.env, root);
  return (await fetchFigures(api, since)).figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(import.meta.dirname, '..');
  const store = resolve(process.env.RELEASES_DIR ?? join(import.meta.dirname, 'store'));
  const tickMs = Number(process.env.WATCHER_TICK_MS ?? 5000);
  if (!(tickMs >= 1)) {
    console.error(`WATCHER_TICK_MS takes a number of milliseconds, not '${process.env.WATCHER_TICK_MS}'`);
    process.exit(2);
  }
  const controller = new AbortController();
  // Node as PID 1 (the container) ignores a signal it has no handler for.
  process.on('SIGTERM', () => controller.abort());
  process.on('SIGINT', () => controller.abort());
  const log = (/** @type {string} */ line) => console.log(`[release watcher] ${line}`);
  log(`judging the watched canaries of ${store} on the figures at ${apiAccess(process.env, root).urls.join(', ')}`);
  await runWatcherService({
    store,
    readFigures: (since) => apiFigures(root, since),
    announce: (rollback) => announceRollback(apiAccess(process.env, root), rollback),
    tickMs,
    signal: controller.signal,
    log,
  });
  log('stopped');
}
