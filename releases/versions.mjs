// The versions of the store: each released build of a remote kept under <store>/<remote>/<version>/
// and never overwritten, its version derived from the build's content, with the store's own record
// of it beside the folder.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

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
