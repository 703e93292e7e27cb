// The gate a release runs before its version goes live: the checks of gate.mjs against the live
// shell's manifest and shared-API lists, then the smoke load (smoke.mjs) in a browser and on the
// server, in the live shell at LIVE_SHELL_URL or, without one, in its build served here on
// loopback (local-platform.mjs).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { exposeProblems, sharedExportProblems, singletonProblems } from './gate.mjs';
import { serveLocalPlatform } from './local-platform.mjs';
import { smokeLoad, smokeRender } from './smoke.mjs';

/** A JSON file (a manifest, a build's shared-api lists) from a URL or a path. @param {string} where */
async function readJson(where) {
  if (/^https?:\/\//.test(where)) {
    const res = await fetch(where, { cache: 'no-store' });
    if (!res.ok) throw new Error(`${where} answered ${res.status}`);
    return res.json();
  }
  return JSON.parse(readFileSync(where, 'utf8'));
}

/** The file beside a manifest (a URL or a path), or null when it cannot be read. @param {string} manifest @param {string} file */
async function besideManifest(manifest, file) {
  try {
    return await readJson(/^https?:\/\//.test(manifest) ? new URL(file, manifest).href : join(dirname(manifest), file));
  } catch {
    return null;
  }
}

/**
 * The gate of a release of `remote`: null when the candidate passes, else its problems. Without
 * `skipSmoke`, the smoke load runs once the checks pass.
 * @param {{ store: string, root: string, remote: string, shellManifest: string, shellDist: string | null, skipSmoke: boolean }} options
 * @returns {(candidate: { dir: string, version: string }) => Promise<string | null>}
 */
export function releaseGate({ store, root, remote, shellManifest, shellDist, skipSmoke }) {
  return async ({ dir, version }) => {
    const candidate = await readJson(join(dir, 'mf-manifest.json'));
    const problems = [
      ...singletonProblems(candidate, await readJson(shellManifest)),
      ...sharedExportProblems(
        await besideManifest(join(dir, 'mf-manifest.json'), 'shared-imports.json'),
        await besideManifest(shellManifest, 'shared-exports.json'),
      ),
      ...exposeProblems(candidate, remote),
    ];
    if (problems.length === 0 && !skipSmoke) {
      const local = process.env.LIVE_SHELL_URL
        ? null
        : await serveLocalPlatform({ store, shellDist: shellDist ?? '', root });
      try {
        const shellUrl = process.env.LIVE_SHELL_URL ?? local?.shellUrl ?? '';
        problems.push(...(await smokeLoad({ shellUrl, remote, version })).map((p) => `smoke load: ${p}`));
        // The page server renders it too: the shell's server build renders the candidate's pages.
        if (shellDist)
          problems.push(
            ...(await smokeRender({ shellUrl, shellDist, remote, version })).map((p) => `smoke load: ${p}`),
          );
      } finally {
        await local?.stop();
      }
    }
    return problems.length ? problems.join('; ') : null;
  };
}
