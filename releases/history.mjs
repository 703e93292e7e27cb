// The store's history: one JSON line per release, step, promotion, rollback and evaluation,
// appended and never rewritten.
import { closeSync, fstatSync, fsyncSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const HISTORY_FILE = 'history.jsonl';

/**
 * A line of the history. `watch` is one evaluation of a canary by the watcher (watch.mjs), with
 * its decision (`stepTo`: the share a step goes to) and the figures it was made on; `step` a
 * change of the canary's share; `policy` with no version (`set`) the remote's policy for its next
 * canaries (remote-policy.mjs), with one the watcher's policy given to the canary under way
 * (`pnpm release <remote> --watch`; a canary released with `--watch` carries it in its `canary`
 * line; a later one changes its pace, shares, deadline and bake, never the rule it was first
 * given: givenPolicy). `watch` and `bake` lines record the policy they were decided under.
 * `figures` are both sides' since the canary started: the judge reads every earlier
 * evaluation's from here, so a watcher started again goes on from the same evidence.
 * `bake` is one evaluation of a promoted version against its predecessor (bake.mjs), `baked` its
 * last decision when no harm was found; `unreadable` an evaluation whose figures could not be
 * read (`streak`: how many in a row), `webhook` a call of the remote's webhook (`kind`), `sent` or
 * `failed` (webhook.mjs). These last two change nothing browsers load: notes (NOTE_ACTIONS).
 * @typedef {import('./figures.mjs').Sample} Figures
 * @typedef {{ time: string, remote: string, action: 'release' | 'canary' | 'step' | 'promote' | 'rollback' | 'watch' | 'policy' | 'bake' | 'unreadable' | 'webhook', from: string | null, to: string | null, result: 'live' | 'canary' | 'refused' | 'dropped' | 'sent' | 'failed' | 'set', reason?: string, percent?: number, smoke?: 'skipped', decision?: string, stepTo?: number, figures?: { canary: Figures, live: Figures }, evidence?: import('./canary.mjs').Evidence, policy?: import('./canary.mjs').Policy, streak?: number, kind?: import('./webhook.mjs').WebhookKind }} HistoryEntry
 */

/** Lines that record what was seen or said, never a change of what browsers load or of the policy's evaluations. */
export const NOTE_ACTIONS = new Set(['unreadable', 'webhook']);

/** Evidence as the history keeps it: 3 digits, and finite (JSON has no Infinity). @param {import('./canary.mjs').Evidence} evidence */
export const keptEvidence = (evidence) =>
  /** @type {import('./canary.mjs').Evidence} */ (
    Object.fromEntries(Object.entries(evidence).map(([k, v]) => [k, Number(Math.min(v, 1e300).toPrecision(3))]))
  );

/**
 * Appends one line, on the disk before it returns (a decision recorded is not lost to a power cut).
 * Appends happen under the store's lock, so a file that does not end its last line was torn by a
 * writer killed mid-line: that fragment is ended first and becomes a line of its own, which
 * readHistory skips, rather than the front of this one.
 * @param {string} store @param {HistoryEntry} entry
 */
export function appendHistory(store, entry) {
  const fd = openSync(join(store, HISTORY_FILE), 'a+');
  try {
    const { size } = fstatSync(fd);
    const last = Buffer.alloc(1);
    const torn = size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
    writeSync(fd, `${torn ? '\n' : ''}${JSON.stringify(entry)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A whole line as its entry, or null for one that is not (a fragment a killed writer left, ended
 * by the next append): said once, and skipped, so one torn line does not hide every other.
 * @param {string} line @param {string} path
 */
function entryOf(line, path) {
  try {
    const entry = JSON.parse(line);
    if (entry && typeof entry === 'object' && typeof entry.action === 'string')
      return Object.freeze(/** @type {HistoryEntry} */ (entry));
  } catch {
    // Reported below.
  }
  console.warn(`[releases] ${path}: skipped a line that is no history entry (torn by a writer killed mid-line?)`);
  return null;
}

/**
 * The history read so far, per file: it only grows, so the watcher service (every tick, for every
 * remote) and `--watch` (every half second) parse only the lines appended since, not months of
 * evaluations each time.
 * @type {Map<string, { ino: number, size: number, mtimeMs: number, consumed: number, entries: HistoryEntry[] }>}
 */
const historyRead = new Map();

/**
 * The history's lines. What follows the last newline is left for the next read: a line being
 * appended as it is read (the watcher and `--watch` read the history while others append to it).
 * @param {string} store @returns {HistoryEntry[]}
 */
export function readHistory(store) {
  const path = resolve(store, HISTORY_FILE);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    historyRead.delete(path);
    return [];
  }
  let known = historyRead.get(path);
  // Another file, or one that did not only grow: read from the start.
  if (
    !known ||
    known.ino !== stat.ino ||
    stat.size < known.size ||
    (stat.size === known.size && stat.mtimeMs !== known.mtimeMs)
  )
    known = { ino: stat.ino, size: 0, mtimeMs: 0, consumed: 0, entries: [] };
  if (stat.size > known.consumed) {
    const fd = openSync(path, 'r');
    try {
      const added = Buffer.alloc(stat.size - known.consumed);
      const length = readSync(fd, added, 0, added.length, known.consumed);
      const end = added.subarray(0, length).lastIndexOf(0x0a) + 1;
      const lines = added.subarray(0, end).toString('utf8').split('\n').filter(Boolean);
      known = {
        ...known,
        consumed: known.consumed + end,
        // Frozen: every caller gets these same objects, and one changing a line would change it for all.
        entries: [...known.entries, ...lines.map((line) => entryOf(line, path)).filter((entry) => entry !== null)],
      };
    } finally {
      closeSync(fd);
    }
  }
  historyRead.set(path, { ...known, size: stat.size, mtimeMs: stat.mtimeMs });
  return known.entries.slice();
}
