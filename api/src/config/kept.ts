import type { EnvName } from './env.js';

/**
 * The secrets kept beside the database when the environment leaves them unset, by variable:
 * keptSecrets.ts reads or makes them at start; the configuration takes them as given.
 */
export type KeptSecretName = Extract<
  EnvName,
  'ADMIN_TOKEN' | 'FILE_LINK_KEY' | 'RUM_TOKEN_KEY' | 'TEST_PAYMENTS_WEBHOOK_SECRET'
>;

/** Kept secrets read at start, by the variable each stands in for. */
export type KeptSecrets = Partial<Record<KeptSecretName, string>>;

/** `env` with each kept secret where the variable is unset or empty: the variable wins. */
export function withKept(env: NodeJS.ProcessEnv, kept: KeptSecrets): NodeJS.ProcessEnv {
  const merged = { ...env };
  for (const [name, value] of Object.entries(kept)) if (!merged[name]) merged[name] = value;
  return merged;
}
