// The platform's apps for the webpack configs, the static server and the runtime config, read
// from the platform table (`shared/src/platform`, as plain data in `shared/platform.json`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localManifestAt } from './choice.mjs';

/**
 * @typedef {{ package: string, devPort: number, manifestVariable: string }} RemoteEntry
 * @typedef {{ key: string, path: string, remote: string, module: string, header: string, footer: string }} PageEntry
 * @type {{ shell: { name: string, package: string, devPort: number }, singleBundlePort: number, remotes: Record<string, RemoteEntry>, pages: PageEntry[] }}
 */
export const PLATFORM = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'platform.json'), 'utf8'));

/** Each app by package name: its federation name and development port. */
/** @type {Record<string, { federationName: string, port: number }>} */
export const APPS = {
  [PLATFORM.shell.package]: { federationName: PLATFORM.shell.name, port: PLATFORM.shell.devPort },
  ...Object.fromEntries(
    Object.entries(PLATFORM.remotes).map(([name, r]) => [r.package, { federationName: name, port: r.devPort }]),
  ),
};

export const API_DEFAULT_ORIGIN = 'http://localhost:4000';

/**
 * The runtime config's variables naming each remote's manifest on this machine: `ports` gives
 * each remote's port (the development ports, or the ones a test suite or the bench serves on).
 * @param {Record<string, number>} ports
 * @returns {Record<string, string>}
 */
export function manifestEnv(ports) {
  return Object.fromEntries(
    Object.entries(PLATFORM.remotes).map(([name, r]) => [
      r.manifestVariable,
      localManifestAt(/** @type {number} */ (ports[name])),
    ]),
  );
}

const DEV_MANIFESTS = manifestEnv(
  Object.fromEntries(Object.entries(PLATFORM.remotes).map(([name, r]) => [name, r.devPort])),
);

/**
 * Looks an app up by its package name (the folder's package.json).
 * @param {string} packageName
 */
export function appFor(packageName) {
  const app = APPS[packageName];
  if (!app)
    throw new Error(`unknown app '${packageName}'; add it to the platform table (shared/src/platform/remotes.ts)`);
  return app;
}

/** RUM_SAMPLE as a share from 0 to 1 (default 1: every page load). @param {string | undefined} value */
function rumSampleOf(value) {
  if (value === undefined || value === '') return 1;
  const share = Number(value);
  if (!(share >= 0 && share <= 1)) throw new Error(`RUM_SAMPLE must be a number from 0 to 1, got '${value}'`);
  return share;
}

/**
 * The shell's runtime config, written from environment variables when an app is served, so
 * no URL is baked into a build. Defaults run everything on localhost.
 */
export function runtimeConfigFromEnv(env = process.env) {
  const apiOrigin = env.API_ORIGIN || API_DEFAULT_ORIGIN;
  return {
    apiOrigin,
    filesOrigin: env.FILES_ORIGIN || apiOrigin,
    // The object store browsers upload to, when the API keeps files in one (its FILES_S3_PUBLIC_ENDPOINT).
    ...(env.UPLOAD_ORIGIN ? { uploadOrigin: env.UPLOAD_ORIGIN } : {}),
    liveUrl: env.LIVE_URL || `${apiOrigin.replace(/^http/, 'ws')}/mqtt`,
    remotes: Object.fromEntries(
      Object.entries(PLATFORM.remotes).map(([name, r]) => [
        name,
        env[r.manifestVariable] || DEV_MANIFESTS[r.manifestVariable],
      ]),
    ),
    // The release store's discovery document, when remotes are released through it (pnpm release).
    ...(env.DISCOVERY_URL ? { discoveryUrl: env.DISCOVERY_URL } : {}),
    // Testers' version overrides: off unless the deployment turns them on.
    allowVersionOverride: env.ALLOW_VERSION_OVERRIDE === 'true',
    // A developer's own build of a remote on loopback (?version=header@local): off unless turned on.
    allowLocalRemotes: env.ALLOW_LOCAL_REMOTES === 'true',
    // Real-user beacons from every page load unless sampled down (RUM_SAMPLE=0.1) or off (0).
    rumSample: rumSampleOf(env.RUM_SAMPLE),
  };
}

/**
 * The id of the data block the shell's server composes into its page (page-composition.ts). The
 * browser reads it as `COMPOSITION_ELEMENT_ID` (shared/src/platform/composition.ts);
 * shell/src/boot/boot.test.ts runs the boot script against that id, so the two stay equal.
 */
export const COMPOSITION_ID = 'platform-composition';

/** The single-bundle build (the shell and every remote in one application) is served here. */
export const SINGLE_BUNDLE_PORT = PLATFORM.singleBundlePort;
