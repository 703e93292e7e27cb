import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Ports of the suite's servers, away from the development defaults (3000-3004, 4000). */
export const PORTS = { shell: 13000, header: 13001, media: 13002, eventOrder: 13003, account: 13004, api: 14000 } as const;
export const SHELL = `http://localhost:${PORTS.shell}`;
export const API = `http://localhost:${PORTS.api}`;
export const ADMIN_TOKEN = 'e2e-admin-token';
export const DEMO_PASSWORD = 'demo-pass-2026';
export const ROOT = resolve(import.meta.dirname, '..');

/** Extra shells the fault and deploy tests start, with their own remotes' URLs. */
export const EXTRA_SHELL_PORTS = [13100, 13200, 13300, 13400, 13500, 13600, 13700, 13800, 13900, 13950] as const;
/** Where the single-bundle build (shell/dist-single) is served by its test. */
export const SINGLE_PORT = 13010;

export const manifest = (port: number) => `http://localhost:${port}/mf-manifest.json`;

/** The runtime config environment of a shell whose remotes are on the given ports. */
export function runtimeEnv(remotePorts: { header: number; media: number; eventOrder: number; account: number } = PORTS): Record<string, string> {
  return {
    API_ORIGIN: API,
    HEADER_MANIFEST_URL: manifest(remotePorts.header),
    MEDIA_MANIFEST_URL: manifest(remotePorts.media),
    EVENT_ORDER_MANIFEST_URL: manifest(remotePorts.eventOrder),
    ACCOUNT_MANIFEST_URL: manifest(remotePorts.account),
  };
}

/** One fresh database per run of the suite. */
export const DATA_DIR = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'e2e-api-'));
