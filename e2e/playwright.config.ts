import { defineConfig, devices } from '@playwright/test';
import { REMOTE_NAMES, REMOTES, SHELL as SHELL_APP } from '@marketplace/shared/platform';
import {
  ADMIN_TOKEN,
  API,
  DATA_DIR,
  EXTRA_SHELL_PORTS,
  PORTS,
  ROOT,
  RUM_TOKEN_KEY,
  SHELL,
  SINGLE_PORT,
  runtimeEnv,
} from './env.js';

process.env.E2E_DATA_DIR = DATA_DIR;

/** The API on a fresh database, allowing the suite's shells; `extra` adds environment (an external broker). */
export const apiServer = (extra: Record<string, string> = {}) => ({
  command: `${ROOT}/api/node_modules/.bin/tsx ${ROOT}/api/src/main.ts`,
  url: `${API}/health`,
  env: {
    API_PORT: String(PORTS.api),
    API_HOST: '127.0.0.1',
    API_PUBLIC_ORIGIN: API,
    API_ALLOWED_ORIGINS: [PORTS.shell, SINGLE_PORT, ...EXTRA_SHELL_PORTS].map((p) => `http://localhost:${p}`).join(','),
    DATABASE_PATH: `${DATA_DIR}/db.sqlite`,
    ADMIN_TOKEN,
    // The suite logs in as the demo accounts.
    SEED_DEMO: '1',
    // Every browser of the suite sends its beacons from 127.0.0.1: one client, as far as the limits know.
    RUM_BEACONS_PER_MINUTE: '100000',
    RUM_LOADS_PER_HOUR: '100000',
    RUM_BROWSERS_PER_VERSION_PER_DAY: '100000',
    RUM_LOADS_PER_BROWSER_PER_HOUR: '100000',
    // The beacons count under the tokens the suite's page servers sign (runtimeEnv).
    RUM_TOKEN_KEY,
    ...extra,
  },
  reuseExistingServer: false,
  timeout: 60_000,
});

const serve = (dir: string, port: number) => ({
  command: `node ${ROOT}/page-server/serve.ts`,
  cwd: `${ROOT}/${dir}`,
  url: `http://127.0.0.1:${port}/runtime-config.json`,
  env: { PORT: String(port), ...runtimeEnv() },
  reuseExistingServer: false,
  timeout: 30_000,
});

/**
 * The production builds of every app, each on its own origin, with the real API and its
 * broker on a fresh database. Run `pnpm build` first (the root test command does).
 */
export default defineConfig({
  testDir: './tests',
  // Runs in the production project only (playwright.prod.config.ts).
  testIgnore: ['production.spec.ts', 'topology.spec.ts', 'broker-failover.spec.ts'],
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: 'list',
  use: {
    baseURL: SHELL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    apiServer(),
    serve(SHELL_APP.package, PORTS.shell),
    ...REMOTE_NAMES.map((name) => serve(REMOTES[name].package, PORTS[name])),
  ],
});
