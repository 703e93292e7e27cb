// The platform served on loopback for the gate's smoke load when no LIVE_SHELL_URL names the live
// shell: the live shell's build reading this store, the store itself, and each remote's build in
// the workspace for remotes the store does not release. So a release is always loaded in a real
// browser before it goes live, with nothing to set up.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { freePort } from '@marketplace/shared/node/ports';
import { serveApp, stopServer } from 'page-server/serve';

/**
 * @param {{ store: string, shellDist: string, root: string }} options the store, the live shell's
 * build, and the workspace whose remotes' builds stand in for remotes the store does not release
 * @returns {Promise<{ shellUrl: string, stop(): Promise<void> }>}
 */
export async function serveLocalPlatform({ store, shellDist, root }) {
  /** @type {import('node:http').Server[]} */
  const servers = [];
  const serve = async (/** @type {string} */ dir, /** @type {NodeJS.ProcessEnv} */ env = process.env) => {
    const port = await freePort();
    servers.push(await serveApp({ dir, port, host: '127.0.0.1', env, log: false }));
    return port;
  };
  try {
    const storePort = await serve(store);
    /** @type {Record<string, string>} each built remote's manifest variable */
    const manifests = {};
    for (const remote of Object.values(PLATFORM.remotes)) {
      const dist = join(root, remote.package, 'dist');
      if (existsSync(join(dist, 'mf-manifest.json')))
        manifests[remote.manifestVariable] = `http://localhost:${await serve(dist)}/mf-manifest.json`;
    }
    const shellPort = await serve(shellDist, {
      ...process.env,
      ...manifests,
      DISCOVERY_URL: `http://localhost:${storePort}/discovery.json`,
    });
    return { shellUrl: `http://localhost:${shellPort}`, stop: () => stopAll(servers) };
  } catch (error) {
    await stopAll(servers);
    throw error;
  }
}

/** @param {import('node:http').Server[]} servers */
async function stopAll(servers) {
  await Promise.all(servers.map(stopServer));
}
