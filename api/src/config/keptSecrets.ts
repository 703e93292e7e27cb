import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RUM_TOKEN_KEY_FILE } from '@marketplace/shared/node/rum-token';
import { loadConfig, type ApiConfig } from './api.js';
import { envSchema } from './env.js';
import { parseConfig } from './fields.js';
import type { KeptSecretName, KeptSecrets } from './kept.js';
import { paymentsProviderOf } from './rules.js';
import { workerConfigOf, type WorkerConfig } from './worker.js';

/**
 * The secrets a process keeps beside the database when its environment leaves them unset, read
 * or made at start (main.ts, the CLI, the tests' harness) and handed to the configuration, which
 * reads no file itself. Every process on one folder (instances, the notify command, a media
 * worker) so shares one of each; `npm start` on a fresh machine gets them made.
 */
const KEPT: Record<KeptSecretName, { file: string; make: () => string }> = {
  // The notify command and `pnpm releases` read this file to reach /internal.
  ADMIN_TOKEN: { file: 'admin-token', make: () => randomBytes(24).toString('hex') },
  FILE_LINK_KEY: { file: 'file-link-key', make: () => randomBytes(32).toString('base64url') },
  // scripts/start.mjs hands the same file's key to the shell's page server.
  RUM_TOKEN_KEY: { file: RUM_TOKEN_KEY_FILE, make: () => randomBytes(32).toString('base64url') },
  TEST_PAYMENTS_WEBHOOK_SECRET: {
    file: 'test-payments-webhook-secret',
    make: () => `whsec_${randomBytes(32).toString('base64url')}`,
  },
};

/**
 * The kept secrets the API started on `env` needs: the operator token and the beacon key always
 * (as they ever were); the file link key and the test payments' secret outside production only,
 * where a deployment must name them (the same on every instance, not in a folder nobody shares).
 */
export function apiKeptSecretNames(env: NodeJS.ProcessEnv): KeptSecretName[] {
  const read = parseConfig(envSchema, env);
  const development = read.NODE_ENV !== 'production';
  return [
    'ADMIN_TOKEN',
    'RUM_TOKEN_KEY',
    ...(development ? (['FILE_LINK_KEY'] as const) : []),
    ...(development && paymentsProviderOf(read) === 'test' ? (['TEST_PAYMENTS_WEBHOOK_SECRET'] as const) : []),
  ];
}

/** Reads (or makes) each of `names` the environment leaves unset, in the database's folder. */
export function readKeptSecrets(env: NodeJS.ProcessEnv, names: readonly KeptSecretName[]): KeptSecrets {
  const dataDir = dirname(resolve(parseConfig(envSchema.pick({ DATABASE_PATH: true }), env).DATABASE_PATH));
  const kept: KeptSecrets = {};
  for (const name of names) if (!env[name]) kept[name] = readOrCreateSecret(dataDir, KEPT[name].file, KEPT[name].make);
  return kept;
}

/** The API's configuration with its kept secrets: what a process serving (or the CLI) starts on. */
export function loadConfigWithSecrets(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return loadConfig(env, readKeptSecrets(env, apiKeptSecretNames(env)));
}

/**
 * A media worker's configuration: of the kept secrets, the file link key only (outside
 * production), which signs the links its jobs write as the API's do; none of the serving ones.
 */
export function workerConfigWithSecrets(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const development = parseConfig(envSchema.pick({ NODE_ENV: true }), env).NODE_ENV !== 'production';
  return workerConfigOf(env, development ? readKeptSecrets(env, ['FILE_LINK_KEY']) : {});
}

/**
 * A secret kept in `dataDir/name`, made by `make` at the first start. Written whole under a
 * temporary name and linked into place, so processes starting together on one folder read the
 * same one: the second link fails, and that process reads the first's.
 */
function readOrCreateSecret(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, name);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, make(), { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  return readFileSync(file, 'utf8').trim();
}
