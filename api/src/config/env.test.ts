import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './api.js';
import { envSchema, type EnvName } from './env.js';

const names = Object.keys(envSchema.shape) as EnvName[];

describe('the environment schema', () => {
  it('gives every variable a one-line doc and a default (null: none, or derived from another)', () => {
    const defaults = envSchema.parse({});
    for (const name of names) {
      expect(envSchema.shape[name].description, name).toMatch(/^[^\n]{10,}$/);
      expect(defaults[name], name).not.toBeUndefined();
    }
    expect(loadConfig({ DATABASE_PATH: '/nowhere/platform.sqlite' })).toMatchObject({
      host: '127.0.0.1',
      port: 4000,
      publicOrigin: 'http://localhost:4000',
      keepAliveTimeoutMs: 30_000,
      headersTimeoutMs: 35_000,
      requestTimeoutMs: 300_000,
      allowedOrigins: ['http://localhost:3000', 'http://localhost:3010'],
      mediaDir: '/nowhere/media',
      mediaWorker: 'inline',
      mediaConcurrency: 1,
      payments: { provider: 'none' },
      mail: { mode: 'dev', mailboxDir: '/nowhere/mailbox', linkOrigin: 'http://localhost:3000' },
    });
  });

  it('refuses a wrong value with the variable named in the message', () => {
    expect(() => loadConfig({ API_PORT: 'four' })).toThrow("API_PORT must be a non-negative integer, got 'four'");
    expect(() => loadConfig({ MEDIA_WORKER: 'later' })).toThrow("MEDIA_WORKER must be 'inline' or 'off', got 'later'");
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'paypal' })).toThrow(
      "PAYMENTS_PROVIDER must be 'stripe', 'test' or 'none', got 'paypal'",
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db' })).toThrow(
      "DATABASE_URL must be a postgres:// URL, got 'mysql:...'",
    );
    expect(() => loadConfig({ API_KEEP_ALIVE_TIMEOUT_MS: '40000', API_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      'API_KEEP_ALIVE_TIMEOUT_MS < API_HEADERS_TIMEOUT_MS <= API_REQUEST_TIMEOUT_MS, got 40000, 40000, 300000',
    );
    // Whichever variable refuses a value no variable takes names itself.
    let refused = 0;
    for (const name of names) {
      let message: string | null = null;
      try {
        loadConfig({ [name]: '-1 :/ nothing', MAIL: 'off' });
      } catch (error) {
        message = (error as Error).message;
      }
      if (message === null) continue;
      refused++;
      expect(message, name).toContain(name);
    }
    expect(refused).toBeGreaterThan(40);
  });

  it('is listed, every variable, in the README', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Environment'),
      readme.indexOf('\n## ', readme.indexOf('## Environment') + 1),
    );
    for (const name of names) expect(section, name).toContain(`\`${name}\``);
  });
});
