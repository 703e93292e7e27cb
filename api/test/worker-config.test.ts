/**
 * A media worker decodes hostile files: its process is given what its jobs need (the database,
 * the file store, the queue, the file link key) and none of the API's serving secrets, so a
 * decoder taken over by a file finds no operator token, broker password, live-login key or
 * beacon key to steal.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, workerConfigOf, workerConfigWithSecrets } from '../src/config.js';
import { startWorker } from '../src/media/worker.js';

const dir = mkdtempSync(join(tmpdir(), 'worker-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRETS = {
  ADMIN_TOKEN: 'admin-token-of-the-operators-0123456789',
  LIVE_LOGIN_KEY: 'live-login-key-0123456789abcdef0123456789',
  MQTT_PASSWORD: 'broker-password-0123456789',
  BROKER_AUTH_SECRET: 'broker-auth-secret-0123456789abcdef',
  RUM_TOKEN_KEY: 'beacon-key-0123456789abcdef0123456789',
};

describe("a media worker's settings", () => {
  const env = {
    DATABASE_PATH: join(dir, 'platform.sqlite'),
    FILE_LINK_KEY: 'f'.repeat(32),
  };

  it('start from an environment without the serving secrets, and the worker runs on them', async () => {
    const config = workerConfigWithSecrets(env);
    expect(config.fileLinkKey).toBe('f'.repeat(32));
    // Nothing made beside the database for a secret it does not hold (the API makes the admin token there).
    const worker = await startWorker(config);
    await worker.stop();
    expect(readdirSync(dir).filter((name) => !name.startsWith('platform.sqlite'))).toEqual([]);
  });

  it('carry none of them, even when the environment has them', () => {
    const config = workerConfigOf({ ...env, ...SECRETS, MQTT_BROKER_URL: 'mqtt://broker:1883' });
    const text = JSON.stringify(config);
    for (const [name, value] of Object.entries(SECRETS)) expect(text, name).not.toContain(value);
    for (const key of ['adminToken', 'liveLoginKey', 'broker', 'brokerAuthSecret', 'rumTokenKey', 'payments'])
      expect(config, key).not.toHaveProperty(key);
  });

  it("are the API's own for what they share", () => {
    const full = {
      ...env,
      ...SECRETS,
      MEDIA_RETRY_LIMIT: '5',
      UPLOAD_MAX_BYTES: '1234',
      FILES_PUBLIC_ORIGIN: 'http://files',
    };
    const api = loadConfig(full);
    const worker = workerConfigOf(full);
    for (const [key, value] of Object.entries(worker)) expect(api[key as keyof typeof worker], key).toEqual(value);
  });
});
