// The store's changes of what browsers load: a release (gated), a canary's share, a promotion, a
// rollback. Each runs under the store's lock, switches the discovery document in one step, then
// records itself in the history.
import { readDiscovery, pointerTo, writeDiscovery } from './discovery.mjs';
import { appendHistory, readHistory } from './history.mjs';
import { withStoreLock } from './lock.mjs';
import { storeBuild } from './versions.mjs';

/** @typedef {import('./history.mjs').HistoryEntry} HistoryEntry */

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
 * With `canaryVersion`, only that canary is dropped; with `liveVersion`, only that live version
 * (with no canary) is switched back (the watcher judged it baking): otherwise nothing changes and
 * it fails.
 *
 * @param {{ store: string, remote: string, reason?: string, canaryVersion?: string, liveVersion?: string }} options
 * @returns {Promise<HistoryEntry>}
 */
export function rollback({ store, remote, reason, canaryVersion, liveVersion }) {
  return withStoreLock(store, () => {
    const doc = readDiscovery(store);
    const current = doc.remotes[remote]?.live?.version ?? null;
    const canary = doc.remotes[remote]?.canary;
    if (canaryVersion !== undefined) expectCanary(remote, canary?.version, canaryVersion);
    if (liveVersion !== undefined && (canary || current !== liveVersion))
      throw new Error(
        `${remote} serves ${current ?? 'nothing'}${canary ? ` and a canary` : ''}, not ${liveVersion} alone: nothing changed`,
      );
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
      ...(reason ? { reason } : {}),
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
