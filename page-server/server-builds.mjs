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
 */

/** @param {string} url @param {number} timeoutMs */
async function fetchOk(url, timeoutMs) {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response;
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
   * @param {string} folder @param {string} manifestUrl @param {Manifest} manifest
   * @param {{ path: string, name: string }} entry @param {string[]} files
   */
  async function download(folder, manifestUrl, manifest, entry, files) {
    const partial = `${folder}.partial-${randomBytes(4).toString('hex')}`;
    try {
      await Promise.all(
        files.map(async (file) => {
          const response = await fetchOk(new URL(`${entry.path}/${file}`, manifestUrl).href, timeoutMs);
          const target = join(partial, entry.path, file);
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, Buffer.from(await response.arrayBuffer()));
        }),
      );
      writeFileSync(join(partial, 'mf-manifest.json'), JSON.stringify(manifest));
      // All or nothing: a folder that exists is complete.
      renameSync(partial, folder);
      return folder;
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  }

  return {
    /**
     * The local folder of the version whose browser manifest is at `manifestUrl` (as
     * server-remotes loads it), fetched first if this server has not got it.
     * @param {string} manifestUrl @param {unknown} [known] the manifest, when the page holds it already
     * @returns {Promise<string>}
     */
    async folderOf(manifestUrl, known) {
      const manifest = /** @type {Manifest} */ (known ?? (await (await fetchOk(manifestUrl, timeoutMs)).json()));
      const entry = manifest.metaData?.ssrRemoteEntry;
      const files = manifest.metaData?.ssrFiles;
      if (!entry || !Array.isArray(files) || !files.includes(entry.name))
        throw new Error(`${manifestUrl} lists no server build`);
      if (!SAFE_FILE.test(entry.path) || !files.every((file) => SAFE_FILE.test(file)))
        throw new Error(`${manifestUrl} lists a server file outside its folder`);
      const name = String(manifest.metaData?.name ?? 'remote').replace(/[^\w-]/g, '_');
      const hash = createHash('sha256').update(JSON.stringify(manifest)).digest('hex').slice(0, 16);
      const folder = join(dir, `${name}-${hash}`);
      if (existsSync(folder)) return folder;
      let fetching = underWay.get(folder);
      if (!fetching) {
        fetching = download(folder, manifestUrl, manifest, entry, files).finally(() => underWay.delete(folder));
        underWay.set(folder, fetching);
      }
      return fetching;
    },
  };
}
