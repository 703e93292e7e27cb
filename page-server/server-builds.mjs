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
 * `serverIntegrity`: each server file's SHA-256 as the release store recorded it when the version
 * was released (releases/store.mjs), keyed `<ssrRemoteEntry.path>/<file>`.
 * @typedef {{ metaData?: { name?: string, ssrRemoteEntry?: { path: string, name: string }, ssrFiles?: string[], serverIntegrity?: Record<string, string> } }} Manifest
 */

/** A file's integrity as the store writes it (and browsers read Subresource Integrity). @param {Buffer} bytes */
export const integrityOfBytes = (bytes) => `sha256-${createHash('sha256').update(bytes).digest('base64')}`;

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
   * @param {Record<string, string> | undefined} integrity
   */
  async function download(folder, manifestUrl, manifest, entry, files, integrity) {
    const partial = `${folder}.partial-${randomBytes(4).toString('hex')}`;
    try {
      await Promise.all(
        files.map(async (file) => {
          const response = await fetchOk(new URL(`${entry.path}/${file}`, manifestUrl).href, timeoutMs);
          const bytes = Buffer.from(await response.arrayBuffer());
          const expected = integrity?.[`${entry.path}/${file}`];
          if (integrity && integrityOfBytes(bytes) !== expected)
            throw new Error(`${entry.path}/${file} of ${manifestUrl} is not the file released (SHA-256 differs)`);
          const target = join(partial, entry.path, file);
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, bytes);
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
     * `released`: the version comes from the release store, so every file must be the one it
     * recorded (`serverIntegrity`); one that is not, or a version with no record, is refused. Any
     * manifest that records them has its files checked.
     * @param {string} manifestUrl @param {unknown} [known] the manifest, when the page holds it already
     * @param {{ released?: boolean }} [options]
     * @returns {Promise<string>}
     */
    async folderOf(manifestUrl, known, { released = false } = {}) {
      const manifest = /** @type {Manifest} */ (known ?? (await (await fetchOk(manifestUrl, timeoutMs)).json()));
      const entry = manifest.metaData?.ssrRemoteEntry;
      const files = manifest.metaData?.ssrFiles;
      if (!entry || !Array.isArray(files) || !files.includes(entry.name))
        throw new Error(`${manifestUrl} lists no server build`);
      if (!SAFE_FILE.test(entry.path) || !files.every((file) => SAFE_FILE.test(file)))
        throw new Error(`${manifestUrl} lists a server file outside its folder`);
      const integrity = manifest.metaData?.serverIntegrity;
      if (released && (typeof integrity !== 'object' || integrity === null))
        throw new Error(`${manifestUrl}: the release store recorded no SHA-256 of its server files`);
      const name = String(manifest.metaData?.name ?? 'remote').replace(/[^\w-]/g, '_');
      const hash = createHash('sha256').update(JSON.stringify(manifest)).digest('hex').slice(0, 16);
      const folder = join(dir, `${name}-${hash}`);
      if (existsSync(folder)) return folder;
      let fetching = underWay.get(folder);
      if (!fetching) {
        // Checked whenever recorded, so a folder kept is one checked whichever way it was first asked for.
        fetching = download(folder, manifestUrl, manifest, entry, files, integrity ?? undefined).finally(() =>
          underWay.delete(folder),
        );
        underWay.set(folder, fetching);
      }
      return fetching;
    },
  };
}
