// The release store: every released build of a remote kept under <store>/<remote>/<version>/ and
// never overwritten, the version derived from the build's content; a discovery document naming
// each remote's live version, switched atomically (write, then rename); a history of every release
// and rollback; one release at a time (a lock directory).
//
// This file is the store's public surface (`releases/store`); each part is a file of its own, so
// that whoever imports the store needs one name and whoever reads it finds one job per file.
export { contentVersion, integrityOf, readRecord, recordPath, storeBuild } from './versions.mjs';
export { DISCOVERY_FILE, pointerTo, readDiscovery, writeDiscovery } from './discovery.mjs';
export { appendHistory, HISTORY_FILE, readHistory } from './history.mjs';
export { ownerGone, thisProcess } from './process-identity.mjs';
export { withStoreLock } from './lock.mjs';
export { promote, release, rollback, setCanaryShare } from './changes.mjs';

/**
 * @typedef {import('./versions.mjs').ReleaseRecord} ReleaseRecord
 * @typedef {import('./discovery.mjs').Pointer} Pointer
 * @typedef {import('./discovery.mjs').RemoteEntry} RemoteEntry
 * @typedef {import('./discovery.mjs').Discovery} Discovery
 * @typedef {import('./history.mjs').Figures} Figures
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./process-identity.mjs').LockOwner} LockOwner
 */
