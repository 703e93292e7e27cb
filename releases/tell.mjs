// Who hears of a rollback or promotion the watcher carried out: open pages (the API's live
// channel, announce.mjs) and the team (the remote's webhook, webhook.mjs).
import { readDiscovery } from './discovery.mjs';

/**
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {(rollback: { remote: string, version: string, to: string | null }) => Promise<string | null>} Announce
 */

/**
 * Who hears of a rollback or promotion the watcher carried out: open pages (`announce`, for a
 * rollback) and the team (`pager`: the remote's webhook). Neither is awaited longer than its own
 * timeout, and the pager not at all.
 * @typedef {{ store: string, log: (line: string) => void, announce?: Announce, pager?: import('./webhook.mjs').Pager }} Listeners
 * @param {Listeners} listeners @param {HistoryEntry} entry an evaluation (`watch` or `bake`) carried out
 */
export async function tell({ store, log, announce, pager }, entry) {
  const reason = `watcher: ${entry.reason}`;
  if (entry.decision === 'promote')
    pager?.page({ remote: entry.remote, kind: 'promoted', versions: { from: entry.from, to: entry.to }, reason });
  if (entry.decision !== 'rollback' || !entry.to) return;
  const live = readDiscovery(store).remotes[entry.remote]?.live?.version ?? null;
  pager?.page({ remote: entry.remote, kind: 'rolled-back', versions: { from: entry.to, to: live }, reason });
  if (!announce) return;
  const unheard = await announce({ remote: entry.remote, version: entry.to, to: live });
  if (unheard)
    log(
      `${entry.remote}: open pages were not told of the rollback (${unheard}): they switch on focus, Retry or navigation`,
    );
}
