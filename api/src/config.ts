/**
 * The API's configuration: the environment's variables, declared once with their defaults and
 * docs in config/env.ts; the settings made from them (config/api.ts, config/worker.ts); the
 * secrets kept beside the database, read or made at start (config/keptSecrets.ts).
 */
export { loadConfig, type ApiConfig } from './config/api.js';
export { envSchema, type Env, type EnvName } from './config/env.js';
export type { KeptSecrets } from './config/kept.js';
export { loadConfigWithSecrets, workerConfigWithSecrets } from './config/keptSecrets.js';
export {
  BROKER_AUTH_USER,
  uploadLimit,
  type FilesS3Config,
  type MailConfig,
  type MailSending,
  type PaymentsConfig,
} from './config/shapes.js';
export { workerConfigOf, type WorkerConfig } from './config/worker.js';
