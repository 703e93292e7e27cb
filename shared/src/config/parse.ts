/**
 * The runtime config's shape and its validation: no state, so the shell's main.js can read the
 * config composed into the page before the shared package loads.
 */
import { REMOTE_NAMES, type RemoteName } from '../platform/remotes.js';

export interface RuntimeConfig {
  apiOrigin: string;
  filesOrigin: string;
  /**
   * Where browsers send uploads when the API keeps files in an object store (its presigned PUT
   * URLs point there): the page's Content-Security-Policy allows connections to it. Unset when
   * uploads go to the files host.
   */
  uploadOrigin?: string;
  liveUrl: string;
  /** URL of each remote's mf-manifest.json. */
  remotes: Record<RemoteName, string>;
  /**
   * The release store's discovery document (releases/store.mjs): when set, each released
   * remote's manifest comes from it (its live version, or its canary for the canary's share).
   */
  discoveryUrl?: string;
  /** Testers may load a stored version of a remote in their tab (`?version=remote@version`). Off unless set. */
  allowVersionOverride?: boolean;
  /**
   * A developer may load a remote from their own development server on loopback in their tab
   * (`?version=header@local`; the port is the platform table's, never the link's). Off unless set.
   */
  allowLocalRemotes?: boolean;
  /** The share of page loads, 0 to 1, that send real-user beacons to the API; 0 sends none. */
  rumSample?: number;
}

const isUrl = (v: unknown): v is string => {
  if (typeof v !== 'string') return false;
  try {
    const { protocol } = new URL(v);
    return ['http:', 'https:', 'ws:', 'wss:'].includes(protocol);
  } catch {
    return false;
  }
};

/** Validates untrusted JSON into a RuntimeConfig, naming the first bad field. */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  const v = value as Partial<RuntimeConfig> | null;
  for (const key of ['apiOrigin', 'filesOrigin', 'liveUrl'] as const) {
    if (!isUrl(v?.[key])) throw new Error(`runtime config: ${key} must be a URL`);
  }
  for (const name of REMOTE_NAMES) {
    if (!isUrl(v?.remotes?.[name])) throw new Error(`runtime config: remotes.${name} must be a URL`);
  }
  for (const key of ['allowVersionOverride', 'allowLocalRemotes'] as const)
    if (v?.[key] !== undefined && typeof v[key] !== 'boolean')
      throw new Error(`runtime config: ${key} must be true or false`);
  if (v?.rumSample !== undefined && !(typeof v.rumSample === 'number' && v.rumSample >= 0 && v.rumSample <= 1))
    throw new Error('runtime config: rumSample must be a number from 0 to 1');
  // Servers write "" when no store is deployed: that is no discovery document.
  if (v?.discoveryUrl === '') {
    const { discoveryUrl: _none, ...rest } = v;
    return rest as RuntimeConfig;
  }
  if (v?.uploadOrigin !== undefined && !isUrl(v.uploadOrigin))
    throw new Error('runtime config: uploadOrigin must be a URL');
  if (v?.discoveryUrl !== undefined && !isUrl(v.discoveryUrl))
    throw new Error('runtime config: discoveryUrl must be a URL');
  return v as RuntimeConfig;
}
