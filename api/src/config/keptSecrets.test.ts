import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './api.js';
import { loadConfigWithSecrets, workerConfigWithSecrets } from './keptSecrets.js';
import { workerConfigOf } from './worker.js';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kept-secrets-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('reading the configuration', () => {
  it('writes nothing, even with every kept secret unset', () => {
    const dir = fresh();
    const env = { DATABASE_PATH: join(dir, 'data', 'platform.sqlite'), SEED_DEMO: '1' };
    const one = loadConfig(env);
    workerConfigOf(env);
    expect(readdirSync(dir)).toEqual([]);
    // Secrets of this process's own, then: another reading gets others.
    expect(loadConfig(env).fileLinkKey).not.toBe(one.fileLinkKey);
    expect(one.payments.provider).toBe('test');
  });
});

describe('the kept secrets', () => {
  it('are made once beside the database at start, and read by every later start there', () => {
    const dir = fresh();
    const env = { DATABASE_PATH: join(dir, 'platform.sqlite'), SEED_DEMO: '1' };
    const first = loadConfigWithSecrets(env);
    expect(readdirSync(dir).sort()).toEqual([
      'admin-token',
      'file-link-key',
      'rum-token-key',
      'test-payments-webhook-secret',
    ]);
    const again = loadConfigWithSecrets(env);
    for (const key of ['adminToken', 'fileLinkKey', 'rumTokenKey', 'payments'] as const)
      expect(again[key], key).toEqual(first[key]);
    expect(workerConfigWithSecrets(env).fileLinkKey).toBe(first.fileLinkKey);
  });

  it('are never read for a variable set, and in production only the operator token and beacon key are kept', () => {
    const dir = fresh();
    const given = { ADMIN_TOKEN: 'a'.repeat(32), RUM_TOKEN_KEY: 'r'.repeat(32), FILE_LINK_KEY: 'f'.repeat(32) };
    loadConfigWithSecrets({ ...given, DATABASE_PATH: join(dir, 'platform.sqlite'), SEED_DEMO: '1' });
    expect(readdirSync(dir)).toEqual(['test-payments-webhook-secret']);
    const production = { NODE_ENV: 'production', MAIL: 'off', DATABASE_PATH: join(dir, 'prod', 'platform.sqlite') };
    expect(() => loadConfigWithSecrets(production)).toThrow(/NODE_ENV=production needs FILE_LINK_KEY/);
    expect(() => workerConfigWithSecrets(production)).toThrow(/NODE_ENV=production needs FILE_LINK_KEY/);
    expect(readdirSync(join(dir, 'prod')).sort()).toEqual(['admin-token', 'rum-token-key']);
  });

  it('are not made for a configuration refused by a wrong value', () => {
    const dir = fresh();
    expect(() => loadConfigWithSecrets({ DATABASE_PATH: join(dir, 'platform.sqlite'), API_PORT: 'x' })).toThrow(
      /API_PORT/,
    );
    expect(existsSync(join(dir, 'admin-token'))).toBe(false);
  });
});
