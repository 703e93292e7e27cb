/**
 * The runtime config the shell's server writes from environment variables
 * (`/runtime-config.json`): the same build runs against any environment.
 */
import { composedRuntimeConfig } from '../platform/composition.js';
import { parseRuntimeConfig, type RuntimeConfig } from './parse.js';

export { parseRuntimeConfig, type RuntimeConfig } from './parse.js';

export const RUNTIME_CONFIG_PATH = '/runtime-config.json';

let current: RuntimeConfig | null = null;

export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

export function getRuntimeConfig(): RuntimeConfig {
  if (!current) throw new Error('runtime config not loaded: call loadRuntimeConfig() before rendering');
  return current;
}

/**
 * Validates and installs the runtime config; every app's bootstrap calls it first. The config the
 * server composed into the page is used when it is valid (no request); else it is fetched.
 */
export async function loadRuntimeConfig(url = RUNTIME_CONFIG_PATH): Promise<RuntimeConfig> {
  const composed = composedRuntimeConfig();
  if (composed) {
    setRuntimeConfig(composed);
    return composed;
  }
  const response = await fetch(url, { cache: 'no-store' });
  if (!response.ok) throw new Error(`runtime config: ${url} answered ${response.status}`);
  const config = parseRuntimeConfig(await response.json());
  setRuntimeConfig(config);
  return config;
}
