// The release store (issue "Releases", first part): every released build of a remote kept under
// <store>/<remote>/<version>/ and never overwritten, the version derived from the build's content;
// a discovery document naming each remote's live version, switched atomically (write, then
// rename); a history of every release and rollback; one release at a time (a lock directory).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, relative, resolve } from 'node:path';

export const DISCOVERY_FILE = 'discovery.json';
export const HISTORY_FILE = 'history.jsonl';
const LOCK_DIR = '.lock';
/** Held while a lock left by a dead holder is broken, so that two waiters never both break it. */
const BREAK_DIR = '.lock-break';
const OWNER_FILE = 'owner.json';
/**
 * A lock older than this is broken whoever holds it: its holder is on another host (another
 * container), where its process cannot be asked after, and no release holds it this long.
 */
const STALE_LOCK_MS = 10 * 60_000;
/** A lock without its owner file this long was left by a process killed as it took it. */
const UNOWNED_LOCK_MS = 5_000;
/** This process, told apart from an earlier one with the same pid (a container's node is always PID 1). */
const PROCESS_ID = randomBytes(8).toString('hex');

/** Every file under `dir`, as paths relative to it, sorted. @param {string} dir */
function filesOf(dir) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ at) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * The version of a build: the first 12 hex digits of a SHA-256 over its files' names and bytes,
 * so the same build is the same version and any change is a new one. Source maps count too.
 *
 * @param {string} dist
 */
export function contentVersion(dist) {
  const hash = createHash('sha256');
  for (const file of filesOf(dist)) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(dist, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 12);
}

/** The integrity of a file as browsers write it (Subresource Integrity). @param {string} path */
export const integrityOf = (path) => `sha256-${createHash('sha256').update(readFileSync(path)).digest('base64')}`;

/**
 * The store's own record of a version, written when the version is stored and never changed:
 * the SHA-256 of its manifest as stored and of each file of its server build (keyed
 * `<ssrRemoteEntry.path>/<file>`). The page server runs a released version's server code only
 * when the manifest it fetched and every server file are the ones recorded here
 * (page-server/server-builds.mjs), reading the record at `recordPath` from the store it is
 * configured with, never from anything the manifest says: whoever can write a manifest (or make
 * an address reach another one) cannot write its record too. It does not hold against whoever
 * can rewrite the store itself. A file the manifest lists but the build lacks is no release.
 * @typedef {{ remote: string, version: string, manifest: string, server: Record<string, string> }} ReleaseRecord
 */

/** Where a version's record is, relative to the store (and to its discovery document). @param {string} remote @param {string} version */
export const recordPath = (remote, version) => `${remote}/${version}.json`;

/**
 * The record of the version stored in `dir`.
 * @param {string} dir @param {string} remote @param {string} version @returns {ReleaseRecord}
 */
function recordOf(dir, remote, version) {
  const { metaData } = JSON.parse(readFileSync(join(dir, 'mf-manifest.json'), 'utf8'));
  const path = metaData?.ssrRemoteEntry?.path;
  const files = metaData?.ssrFiles;
  /** @type {Record<string, string>} */
  const server =
    typeof path === 'string' && Array.isArray(files)
      ? Object.fromEntries(files.map((file) => [`${path}/${file}`, integrityOf(join(dir, path, String(file)))]))
      : {};
  return { remote, version, manifest: integrityOf(join(dir, 'mf-manifest.json')), server };
}

/**
 * Writes a version's record in one step (readers see none or the whole one).
 * @param {string} store @param {string} remote @param {string} version @param {string} dir
 */
function writeRecord(store, remote, version, dir) {
  const tmp = join(store, remote, `.record-${randomBytes(6).toString('hex')}`);
  writeFileSync(tmp, `${JSON.stringify(recordOf(dir, remote, version), null, 2)}\n`);
  renameSync(tmp, join(store, recordPath(remote, version)));
}

/** The record the store keeps of `remote`'s `version`, or null. @param {string} store @param {string} remote @param {string} version @returns {ReleaseRecord | null} */
export function readRecord(store, remote, version) {
  const path = join(store, recordPath(remote, version));
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

/**
 * Copies a build into the store as `<remote>/<version>/` (through a temporary folder renamed into
 * place, so a half-copied version never exists); a version already there is kept as it is. The
 * copy's manifest names its version in `metaData.buildInfo.buildVersion`; the store's record of
 * it (`recordPath`) is written beside it.
 *
 * @param {string} store
 * @param {string} remote
 * @param {string} dist
 * @returns {{ version: string, dir: string, added: boolean }}
 */
export function storeBuild(store, remote, dist) {
  if (!existsSync(join(dist, 'mf-manifest.json')))
    throw new Error(`${dist} has no mf-manifest.json: not a remote's build`);
  const version = contentVersion(dist);
  const dir = join(store, remote, version);
  if (existsSync(dir)) {
    // A version stored before the store kept records gets one from its files as they are.
    if (!existsSync(join(store, recordPath(remote, version)))) writeRecord(store, remote, version, dir);
    return { version, dir, added: false };
  }
  const tmp = join(store, remote, `.incoming-${randomBytes(6).toString('hex')}`);
  mkdirSync(join(store, remote), { recursive: true });
  cpSync(dist, tmp, { recursive: true });
  const manifestPath = join(tmp, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.metaData = {
    ...manifest.metaData,
    buildInfo: { ...manifest.metaData?.buildInfo, buildVersion: version },
  };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  // The record first: a version folder in place always has its record beside it.
  writeRecord(store, remote, version, tmp);
  renameSync(tmp, dir);
  return { version, dir, added: true };
}

/**
 * @typedef {{ version: string, manifest: string, integrity: string }} Pointer
 * `rolledBack` lists the versions taken away by a rollback: a page still running one switches to
 * what it would load now at its next navigation (shell/src/remotes/discovery.ts).
 * @typedef {{ live?: Pointer, canary?: Pointer & { percent: number }, versions?: string[], rolledBack?: string[] }} RemoteEntry
 * @typedef {{ remotes: Record<string, RemoteEntry>, manifests?: Record<string, unknown> }} Discovery
 */

/** @param {string} store @returns {Discovery} */
export function readDiscovery(store) {
  const path = join(store, DISCOVERY_FILE);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : { remotes: {} };
}

/**
 * Replaces the discovery document in one step: readers see the old one or the new one, whole.
 * It carries the manifests of the versions it points at (live and canary), keyed by their path,
 * so that the shell's server composes them into the page with the pointers in the same read: a
 * switch can never pair a pointer with another version's manifest.
 * @param {string} store @param {Discovery} doc
 */
export function writeDiscovery(store, doc) {
  /** @type {Record<string, unknown>} */
  const manifests = {};
  for (const entry of Object.values(doc.remotes)) {
    for (const pointer of [entry.live, entry.canary]) {
      if (pointer) manifests[pointer.manifest] = JSON.parse(readFileSync(join(store, pointer.manifest), 'utf8'));
    }
  }
  const tmp = join(store, `.${DISCOVERY_FILE}.${randomBytes(6).toString('hex')}`);
  // `<` escaped (still the same JSON): the document is composed into the page inside a <script> block.
  writeFileSync(tmp, `${JSON.stringify({ remotes: doc.remotes, manifests }).replaceAll('<', '\\u003c')}\n`);
  renameSync(tmp, join(store, DISCOVERY_FILE));
}

/** A pointer to a stored version, its manifest relative to the discovery document. @param {string} store @param {string} remote @param {string} version @returns {Pointer} */
export function pointerTo(store, remote, version) {
  const manifest = `${remote}/${version}/mf-manifest.json`;
  return { version, manifest, integrity: integrityOf(join(store, manifest)) };
}

/**
 * A line of the history. `watch` is one evaluation of a canary by the watcher (watch.mjs), with
 * its decision (`stepTo`: the share a step goes to) and the figures it was made on; `step` a
 * change of the canary's share; `policy` the watcher's policy given to the canary under way
 * (`pnpm release <remote> --watch`; a canary released with `--watch` carries it in its `canary`
 * line). `figures` are both sides' since the canary started: the judge reads every earlier
 * evaluation's from here, so a watcher started again goes on from the same evidence.
 * @typedef {import('./figures.mjs').Sample} Figures
 * @typedef {{ time: string, remote: string, action: 'release' | 'canary' | 'step' | 'promote' | 'rollback' | 'watch' | 'policy', from: string | null, to: string | null, result: 'live' | 'canary' | 'refused' | 'dropped', reason?: string, percent?: number, smoke?: 'skipped', decision?: string, stepTo?: number, figures?: { canary: Figures, live: Figures }, evidence?: import('./canary.mjs').Evidence, policy?: import('./canary.mjs').Policy }} HistoryEntry
 */

/** @param {string} store @param {HistoryEntry} entry */
export function appendHistory(store, entry) {
  appendFileSync(join(store, HISTORY_FILE), `${JSON.stringify(entry)}\n`);
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
        entries: [
          ...known.entries,
          ...lines.map((line) => Object.freeze(/** @type {HistoryEntry} */ (JSON.parse(line)))),
        ],
      };
    } finally {
      closeSync(fd);
    }
  }
  historyRead.set(path, { ...known, size: stat.size, mtimeMs: stat.mtimeMs });
  return known.entries.slice();
}

/**
 * The stores whose lock the current task holds (its async context): a store function called
 * inside `withStoreLock`'s work (the watcher's rollback after its evaluation) runs in that lock
 * instead of waiting for itself. `held` turns false when the work ends, for anything it left running.
 * @type {AsyncLocalStorage<{ store: string, held: boolean }>}
 */
const lockHeld = new AsyncLocalStorage();

/** @typedef {{ host: string, pid: number, id: string }} LockOwner */

/** @param {string} file @returns {LockOwner | null} */
function readOwner(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Whether the process `owner` names has ended: only answerable on the same host (a container has
 * its own host name and process numbers). The same pid with another id is an earlier process.
 * @param {LockOwner} owner
 */
export function ownerGone(owner) {
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return owner.id !== PROCESS_ID;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'ESRCH';
  }
}

/** Who this process is, as a lock's owner file or the watcher's heartbeat names it. @returns {LockOwner} */
export const thisProcess = () => ({ host: hostname(), pid: process.pid, id: PROCESS_ID });

/** Whether the lock folder was left by a holder that cannot release it any more. @param {string} lock */
function abandoned(lock) {
  let age;
  try {
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return false; // released meanwhile
  }
  if (age > STALE_LOCK_MS) return true;
  const owner = readOwner(join(lock, OWNER_FILE));
  return owner ? ownerGone(owner) : age > UNOWNED_LOCK_MS;
}

/**
 * Breaks the lock when its holder died (killed holding it: the watcher service is restarted at
 * once and must not wait out STALE_LOCK_MS), holding a second lock so that two waiters never both
 * break it: one could otherwise remove the lock the other has just taken.
 * @param {string} store
 */
function breakAbandoned(store) {
  const lock = join(store, LOCK_DIR);
  const breaking = join(store, BREAK_DIR);
  if (!abandoned(lock)) return;
  try {
    mkdirSync(breaking);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    // Another waiter breaks it; one that died breaking it leaves its folder, gone after a while.
    try {
      if (Date.now() - statSync(breaking).mtimeMs > UNOWNED_LOCK_MS) rmSync(breaking, { recursive: true, force: true });
    } catch {
      // Removed meanwhile.
    }
    return;
  }
  try {
    // Looked at again: while we held no lock the holder may have released it and another taken it.
    if (abandoned(lock)) rmSync(lock, { recursive: true, force: true });
  } finally {
    rmSync(breaking, { recursive: true, force: true });
  }
}

/**
 * Runs `work` holding the store's lock, so two releases (or two watchers' evaluations) never
 * interleave: the second waits. The lock folder is created atomically and names its holder; one
 * whose holder died is broken (at once on the same host, else when stale). Called again inside
 * `work`, it runs at once (the lock is already this task's).
 *
 * @template T
 * @param {string} store
 * @param {() => Promise<T> | T} work
 * @returns {Promise<T>}
 */
export async function withStoreLock(store, work) {
  const context = lockHeld.getStore();
  if (context?.held && context.store === resolve(store)) return work();
  mkdirSync(store, { recursive: true });
  const lock = join(store, LOCK_DIR);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      breakAbandoned(store);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const held = { store: resolve(store), held: true };
  let named = false;
  try {
    writeFileSync(join(lock, OWNER_FILE), JSON.stringify(thisProcess()));
    named = true;
    return await lockHeld.run(held, work);
  } finally {
    held.held = false;
    // Not a lock broken as stale meanwhile and taken by another process: that one is theirs.
    const owner = named ? readOwner(join(lock, OWNER_FILE)) : null;
    if (!named || (owner?.id === PROCESS_ID && owner.pid === process.pid))
      rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Releases a build of `remote`: stores it, runs the gate against what is live, and only if the
 * gate passes points the discovery document's live version at it. Every attempt is in the history.
 *
 * With `canary`, the version goes live for that percentage of browsers only (each browser keeps
 * its cohort), the rest staying on the live version, until `promote` or `rollback`. With `policy`
 * too, the canary is the watcher's to judge (watch.mjs): the policy is kept in its `canary` line,
 * in the same step as the canary starts, so no watcher can see the canary without it.
 *
 * @param {{ store: string, remote: string, dist: string, canary?: number, policy?: import('./canary.mjs').Policy, smoke?: 'skipped', gate?: (candidate: { remote: string, version: string, dir: string }) => Promise<string | null> | string | null }} options
 * @returns {Promise<HistoryEntry & { version: string }>}
 */
export function release({ store, remote, dist, canary, policy, smoke, gate = () => null }) {
  if (canary !== undefined && !(Number.isInteger(canary) && canary > 0 && canary < 100))
    return Promise.reject(new Error('a canary is 1 to 99 percent of browsers'));
  return withStoreLock(store, async () => {
    const { version, dir } = storeBuild(store, remote, dist);
    const doc = readDiscovery(store);
    const from = doc.remotes[remote]?.live?.version ?? null;
    if (canary !== undefined && !from)
      throw new Error(`${remote} has no live version yet: release it first, then canary the next one`);
    // Every stored version is listed before the gate runs (its smoke load pins the candidate by
    // version; testers may load any listed one where the deployment allows it).
    const known = doc.remotes[remote]?.versions ?? [];
    const versions = known.includes(version) ? known : [...known, version];
    const listed = { ...doc, remotes: { ...doc.remotes, [remote]: { ...doc.remotes[remote], versions } } };
    writeDiscovery(store, listed);
    const refused = await gate({ remote, version, dir });
    const time = new Date().toISOString();
    /** @type {HistoryEntry} */
    const entry = refused
      ? {
          time,
          remote,
          action: canary === undefined ? 'release' : 'canary',
          from,
          to: version,
          result: 'refused',
          reason: refused,
        }
      : canary === undefined
        ? { time, remote, action: 'release', from, to: version, result: 'live' }
        : {
            time,
            remote,
            action: 'canary',
            from,
            to: version,
            result: 'canary',
            percent: canary,
            ...(policy ? { policy } : {}),
          };
    if (!refused) {
      const pointer = pointerTo(store, remote, version);
      // A new live version ends a canary under way; a new canary replaces the previous one.
      const { canary: _ended, rolledBack, ...rest } = listed.remotes[remote] ?? {};
      // Released again, a version rolled back earlier is no longer one pages must leave.
      const stillBack = (rolledBack ?? []).filter((v) => v !== version);
      const kept = stillBack.length ? { ...rest, rolledBack: stillBack } : rest;
      const next =
        canary === undefined ? { ...kept, live: pointer } : { ...kept, canary: { ...pointer, percent: canary } };
      writeDiscovery(store, { ...listed, remotes: { ...listed.remotes, [remote]: next } });
    }
    // A release whose smoke load was skipped says so in the history, for good.
    if (smoke) entry.smoke = smoke;
    appendHistory(store, entry);
    return { ...entry, version };
  });
}

/**
 * Changes the share of browsers a remote's canary serves (the watcher steps it up).
 *
 * `canaryVersion`: act only if the canary is still that version (the watcher judged it; a canary
 * released meanwhile is not the one it judged).
 * @param {{ store: string, remote: string, percent: number, reason?: string, canaryVersion?: string }} options
 * @returns {Promise<HistoryEntry>}
 */
export function setCanaryShare({ store, remote, percent, reason, canaryVersion }) {
  if (!(Number.isInteger(percent) && percent > 0 && percent < 100))
    return Promise.reject(new Error('a canary is 1 to 99 percent of browsers'));
  return withStoreLock(store, () => {
    const doc = readDiscovery(store);
    const entry = doc.remotes[remote];
    if (!entry?.canary) throw new Error(`${remote} has no canary`);
    expectCanary(remote, entry.canary.version, canaryVersion);
    writeDiscovery(store, {
      ...doc,
      remotes: { ...doc.remotes, [remote]: { ...entry, canary: { ...entry.canary, percent } } },
    });
    /** @type {HistoryEntry} */
    const step = {
      time: new Date().toISOString(),
      remote,
      action: 'step',
      from: entry.live?.version ?? null,
      to: entry.canary.version,
      result: 'canary',
      percent,
      ...(reason ? { reason } : {}),
    };
    appendHistory(store, step);
    return step;
  });
}

/**
 * Makes a remote's canary its live version for every browser (only if it is still
 * `canaryVersion`, when given).
 *
 * @param {{ store: string, remote: string, reason?: string, canaryVersion?: string }} options
 * @returns {Promise<HistoryEntry>}
 */
export function promote({ store, remote, reason, canaryVersion }) {
  return withStoreLock(store, () => {
    const doc = readDiscovery(store);
    const { canary, live } = doc.remotes[remote] ?? {};
    if (!canary) throw new Error(`${remote} has no canary to promote`);
    expectCanary(remote, canary.version, canaryVersion);
    const { percent: _share, ...pointer } = canary;
    const { canary: _promoted, ...kept } = doc.remotes[remote] ?? {};
    writeDiscovery(store, { ...doc, remotes: { ...doc.remotes, [remote]: { ...kept, live: pointer } } });
    /** @type {HistoryEntry} */
    const entry = {
      time: new Date().toISOString(),
      remote,
      action: 'promote',
      from: live?.version ?? null,
      to: canary.version,
      result: 'live',
      ...(reason ? { reason } : {}),
    };
    appendHistory(store, entry);
    return entry;
  });
}

/**
 * Drops `remote`'s canary when it has one (every browser back on the live version); otherwise
 * switches it back to the version that was live before the current one (the last release that
 * went live with another version); fails when there is none.
 *
 * With `canaryVersion`, only that canary is dropped: otherwise nothing changes and it fails.
 *
 * @param {{ store: string, remote: string, reason?: string, canaryVersion?: string }} options
 * @returns {Promise<HistoryEntry>}
 */
export function rollback({ store, remote, reason, canaryVersion }) {
  return withStoreLock(store, () => {
    const doc = readDiscovery(store);
    const current = doc.remotes[remote]?.live?.version ?? null;
    const canary = doc.remotes[remote]?.canary;
    if (canaryVersion !== undefined) expectCanary(remote, canary?.version, canaryVersion);
    if (canary) {
      const { canary: _dropped, ...kept } = doc.remotes[remote] ?? {};
      writeDiscovery(store, {
        ...doc,
        remotes: { ...doc.remotes, [remote]: { ...kept, rolledBack: withVersion(kept.rolledBack, canary.version) } },
      });
      /** @type {HistoryEntry} */
      const entry = {
        time: new Date().toISOString(),
        remote,
        action: 'rollback',
        from: canary.version,
        to: current,
        result: 'dropped',
        ...(reason ? { reason } : {}),
      };
      appendHistory(store, entry);
      return entry;
    }
    if (!current) throw new Error(`${remote} has no live version to roll back`);
    const earlier = liveVersions(readHistory(store), remote).filter((v) => v !== current);
    const previous = earlier.at(-1);
    if (!previous) throw new Error(`${remote} has no earlier good version than ${current}`);
    const was = doc.remotes[remote] ?? {};
    writeDiscovery(store, {
      ...doc,
      remotes: {
        ...doc.remotes,
        [remote]: {
          ...was,
          live: pointerTo(store, remote, previous),
          rolledBack: withVersion(was.rolledBack, current).filter((v) => v !== previous),
        },
      },
    });
    /** @type {HistoryEntry} */
    const entry = {
      time: new Date().toISOString(),
      remote,
      action: 'rollback',
      from: current,
      to: previous,
      result: 'live',
    };
    appendHistory(store, entry);
    return entry;
  });
}

/**
 * Fails unless the canary under way is the one expected (when one is expected).
 * @param {string} remote @param {string | undefined} current @param {string | undefined} expected
 */
function expectCanary(remote, current, expected) {
  if (expected !== undefined && current !== expected)
    throw new Error(`${remote}'s canary is ${current ?? 'gone'}, not ${expected}: nothing changed`);
}

/** @param {string[] | undefined} list @param {string} version */
const withVersion = (list, version) => [...(list ?? []).filter((v) => v !== version), version];

/**
 * The versions that went live for a remote, oldest first, with each rolled-back-from version
 * dropped (a version rolled back is not "good" to return to).
 *
 * @param {HistoryEntry[]} history
 * @param {string} remote
 */
function liveVersions(history, remote) {
  /** @type {string[]} */
  const stack = [];
  for (const entry of history) {
    if (entry.remote !== remote || entry.result !== 'live' || !entry.to) continue;
    if (entry.action === 'rollback') {
      while (stack.length && stack.at(-1) !== entry.to) stack.pop();
    } else {
      stack.push(entry.to);
    }
  }
  return stack;
}
