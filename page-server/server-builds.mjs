// Remotes' server builds fetched from wherever their version is served (a remote's own server,
// the release store, another machine) into a folder of this page server's, once per version:
// page-server/server-remotes.mjs then runs them from there. A version is recognised by its
// manifest's content, so a remote rebuilt in place (a development server) is fetched again,
// and a released version, whose manifest never changes, once.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A file name a server build may list: relative, no way out of its folder. */
const SAFE_FILE = /^(?!.*\.\.)[\w.-]+(?:\/[\w.-]+)*$/;

/**
 * @typedef {{ metaData?: { name?: string, ssrRemoteEntry?: { path: string, name: string }, ssrFiles?: string[] } }} Manifest
 * The release store's record of a version (releases/store.mjs): the SHA-256 of its manifest as
 * stored and of each server file, keyed `<ssrRemoteEntry.path>/<file>`.
 * @typedef {{ manifest: string, server: Record<string, string> }} ReleaseRecord
 */

/** A file's integrity as the store records it (and browsers read Subresource Integrity). @param {Buffer} bytes */
export const integrityOfBytes = (bytes) => `sha256-${createHash('sha256').update(bytes).digest('base64')}`;

/** @param {string} url @param {number} timeoutMs */
async function fetchOk(url, timeoutMs) {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response;
}

/**
 * The record at `recordUrl`, or an error saying there is none.
 * @param {string} recordUrl @param {string} manifestUrl @param {number} timeoutMs @returns {Promise<ReleaseRecord>}
 */
async function recordAt(recordUrl, manifestUrl, timeoutMs) {
  const response = await fetch(recordUrl, { signal: AbortSignal.timeout(timeoutMs) });
  if (response.status === 404) throw new Error(`${manifestUrl}: the release store has no record of this version`);
  if (!response.ok) throw new Error(`${recordUrl} answered ${response.status}`);
  const record = /** @type {Partial<ReleaseRecord> | null} */ (await response.json());
  if (typeof record?.manifest !== 'string' || typeof record.server !== 'object' || record.server === null)
    throw new Error(`${manifestUrl}: the release store's record of this version is not one`);
  return /** @type {ReleaseRecord} */ (record);
}

/**
 * The server build a manifest lists, or an error.
 * @param {Manifest} manifest @param {string} manifestUrl
 */
function serverBuildOf(manifest, manifestUrl) {
  const entry = manifest?.metaData?.ssrRemoteEntry;
  const files = manifest?.metaData?.ssrFiles;
  if (!entry || !Array.isArray(files) || !files.includes(entry.name))
    throw new Error(`${manifestUrl} lists no server build`);
  if (!SAFE_FILE.test(entry.path) || !files.every((file) => SAFE_FILE.test(file)))
    throw new Error(`${manifestUrl} lists a server file outside its folder`);
  return { entry, files };
}

/**
 * @param {{ dir: string, timeoutMs?: number }} options `dir`: where fetched versions are kept;
 *   `timeoutMs`: per file (a render does not wait that long: it has its own budget)
 */
export function serverBuilds({ dir, timeoutMs = 10_000 }) {
  mkdirSync(dir, { recursive: true });
  /** Fetches under way, by folder. @type {Map<string, Promise<string>>} */
  const underWay = new Map();
  /**
   * Released versions checked against their record (or being checked), by manifest and record
   * URL: a released version never changes, so it is fetched and checked once, not per render.
   * @type {Map<string, Promise<string>>}
   */
  const released = new Map();

  /**
   * @param {string} folder @param {string} manifestUrl @param {Buffer} manifestBytes
   * @param {{ path: string, name: string }} entry @param {string[]} files
   * @param {ReleaseRecord | undefined} record
   */
  async function download(folder, manifestUrl, manifestBytes, entry, files, record) {
    const partial = `${folder}.partial-${randomBytes(4).toString('hex')}`;
    try {
      await Promise.all(
        files.map(async (file) => {
          const response = await fetchOk(new URL(`${entry.path}/${file}`, manifestUrl).href, timeoutMs);
          const bytes = Buffer.from(await response.arrayBuffer());
          if (record && integrityOfBytes(bytes) !== record.server[`${entry.path}/${file}`])
            throw new Error(
              `${entry.path}/${file} of ${manifestUrl} is not the file released (SHA-256 differs from the store's record)`,
            );
          const target = join(partial, entry.path, file);
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, bytes);
        }),
      );
      writeFileSync(join(partial, 'mf-manifest.json'), manifestBytes);
      // All or nothing: a folder that exists is complete.
      renameSync(partial, folder);
      return folder;
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  }

  /**
   * The folder of a manifest's version, fetched into it once (by its content).
   * @param {string} manifestUrl @param {Buffer} bytes @param {ReleaseRecord} [record]
   */
  function folderFor(manifestUrl, bytes, record) {
    const manifest = /** @type {Manifest} */ (JSON.parse(bytes.toString('utf8')));
    const { entry, files } = serverBuildOf(manifest, manifestUrl);
    const name = String(manifest?.metaData?.name ?? 'remote').replace(/[^\w-]/g, '_');
    // A released version's folder is named apart: one fetched unchecked (a deployment's own
    // remote) is never taken for one checked against the store's record.
    const hash = createHash('sha256')
      .update(record ? 'released\0' : '')
      .update(bytes)
      .digest('hex')
      .slice(0, 16);
    const folder = join(dir, `${name}-${hash}`);
    if (existsSync(folder)) return Promise.resolve(folder);
    let fetching = underWay.get(folder);
    if (!fetching) {
      fetching = download(folder, manifestUrl, bytes, entry, files, record).finally(() => underWay.delete(folder));
      underWay.set(folder, fetching);
    }
    return fetching;
  }

  /**
   * A released version: its manifest's bytes and then every server file checked against the
   * store's record, whatever manifest the page holds.
   * @param {string} manifestUrl @param {string} recordUrl
   */
  async function releasedFolder(manifestUrl, recordUrl) {
    const [record, bytes] = await Promise.all([
      recordAt(recordUrl, manifestUrl, timeoutMs),
      fetchOk(manifestUrl, timeoutMs).then(async (response) => Buffer.from(await response.arrayBuffer())),
    ]);
    if (integrityOfBytes(bytes) !== record.manifest)
      throw new Error(`${manifestUrl} is not the manifest released (SHA-256 differs from the store's record)`);
    return folderFor(manifestUrl, bytes, record);
  }

  return {
    /**
     * The local folder of the version whose browser manifest is at `manifestUrl` (as
     * server-remotes loads it), fetched first if this server has not got it.
     * `record`: the URL of the release store's record of the version (a released version: see
     * serverCodeTrust in render-page.ts); the manifest is then fetched and must be, byte for
     * byte, the one recorded, and so must every server file; one that is not, or a version the
     * store has no record of, is refused. Without it (a deployment's own remote, run as
     * deployed) the manifest the page holds is used as it is.
     * @param {string} manifestUrl @param {unknown} [known] the manifest, when the page holds it already
     * @param {{ record?: string }} [options]
     * @returns {Promise<string>}
     */
    async folderOf(manifestUrl, known, { record } = {}) {
      if (record) {
        const key = `${manifestUrl}\n${record}`;
        let checked = released.get(key);
        if (!checked) {
          checked = releasedFolder(manifestUrl, record);
          released.set(key, checked);
          // A refusal or a failed fetch is asked again next time (the store may have been slow).
          checked.catch(() => released.delete(key));
        }
        return checked;
      }
      const bytes = known
        ? Buffer.from(JSON.stringify(known))
        : Buffer.from(await (await fetchOk(manifestUrl, timeoutMs)).arrayBuffer());
      return folderFor(manifestUrl, bytes);
    },
  };
}
