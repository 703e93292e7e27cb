// An evaluation whose figures cannot be read is not skipped in silence: the watcher records it
// (`unreadable`, with the reason and how many in a row) and pages the team when the streak reaches
// BLIND_STREAK. A watcher that cannot see is then one the team knows about.
// eslint-disable-next-line import-x/no-relative-packages -- the watcher runs in the API's image, without releases' dependencies
import { messageOf } from '../shared/node/errors.mjs';
import { appendHistory, readHistory } from './history.mjs';
import { withStoreLock } from './lock.mjs';

/** @typedef {import('./history.mjs').HistoryEntry} HistoryEntry */

/**
 * Unreadable evaluations in a row that page the team (`blind`): once when the streak reaches it,
 * not again for the same streak; a readable evaluation ends the streak, and a new one pages anew.
 */
export const BLIND_STREAK = 3;

/** How long the figures may take before the evaluation counts as unreadable. */
export const FIGURES_TIMEOUT_MS = 30_000;

/**
 * The figures, or a failure once `timeoutMs` has passed without them (a reader that hangs must not
 * hang the watcher: it would see nothing, and say nothing).
 * @template T
 * @param {(since: string) => Promise<T>} readFigures @param {string} since @param {number} timeoutMs
 * @returns {Promise<T>}
 */
export async function figuresWithin(readFigures, since, timeoutMs) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  try {
    return await Promise.race([
      readFigures(since),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no figures within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How many evaluations of `version` of `remote` in a row, since `from` (an index of `history`),
 * were unreadable: the streak that a readable one (`watch` or `bake`) ends.
 * @param {HistoryEntry[]} history @param {string} remote @param {string} version @param {number} from
 */
export function unreadableStreak(history, remote, version, from) {
  let streak = 0;
  for (const e of history.slice(from + 1)) {
    if (e.remote !== remote || e.to !== version) continue;
    if (e.action === 'unreadable') streak += 1;
    else if (e.action === 'watch' || e.action === 'bake') streak = 0;
  }
  return streak;
}

/**
 * What was being judged when the figures could not be read: `to` judged against `from`, a canary
 * at `percent` or a version baking (`live`); its evaluations since the history's index `since`.
 * @typedef {{ remote: string, from: string | null, to: string, result: 'canary' | 'live', percent?: number, since: number }} Judged
 */

/**
 * Records an evaluation whose figures could not be read (`error`), under the store's lock and only
 * while `current()` finds the store as the try did (null: another watcher took this evaluation,
 * nothing is recorded); pages the team when it brings the streak to BLIND_STREAK exactly.
 * @param {{ store: string, error: unknown, now: () => number, log: (line: string) => void, pager?: import('./webhook.mjs').Pager, current: () => Judged | null }} options
 * @returns {Promise<HistoryEntry | null>}
 */
export async function recordUnreadable({ store, error, now, log, pager, current }) {
  log(`figures unavailable (${messageOf(error)}): trying again next interval`);
  const entry = await withStoreLock(store, () => {
    const judged = current();
    if (!judged) return null;
    const { since, percent, ...seen } = judged;
    /** @type {HistoryEntry} */
    const line = {
      time: new Date(now()).toISOString(),
      action: 'unreadable',
      ...seen,
      ...(percent === undefined ? {} : { percent }),
      reason: messageOf(error),
      streak: unreadableStreak(readHistory(store), seen.remote, seen.to, since) + 1,
    };
    appendHistory(store, line);
    return line;
  });
  if (entry?.streak === BLIND_STREAK && pager)
    pager.page({
      remote: entry.remote,
      kind: 'blind',
      versions: { from: entry.from, to: entry.to },
      reason: `the watcher could not read ${entry.to}'s figures ${BLIND_STREAK} evaluations in a row: ${entry.reason}`,
    });
  return entry;
}
