/**
 * Links to private files are signed with a key of their own (FILE_LINK_KEY), not with the
 * operator token, which the release watcher and the operators' tools hold too: whoever has that
 * token cannot make a link to an order's original, an unmarked picture or a bought original.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, loadConfigWithSecrets } from '../src/config.js';
import { contentFileLinks } from '../src/files/contentFileLinks.js';
import { orderFileLinks } from '../src/files/orderFileLinks.js';
import { purchaseDownloadLinks } from '../src/files/purchaseLinks.js';
import { ADMIN_TOKEN, present, startTestApi, type TestApi } from './harness.js';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

describe('links to private files', () => {
  it('are signed with the file link key, never the operator token', async () => {
    expect(t.config.fileLinkKey).not.toBe(ADMIN_TOKEN);
    const clara = await t.as('clara');
    const target = present(
      (await clara.call('getEventOrderDetails', { orderId: 'ord-1006' })).body.targets[0],
      "an order's file",
    );
    const grant = { targetIdentifier: target.targetIdentifier, file: null, download: true };
    const signed = (key: string) =>
      `${t.url}/files/order/${target.targetIdentifier}?${orderFileLinks(key).grant(grant)}`;
    expect((await fetch(signed(t.config.fileLinkKey))).status).toBe(200);
    // What the holder of the operator token (the release watcher) could sign: refused.
    const forged = await fetch(signed(ADMIN_TOKEN));
    expect([forged.status, ((await forged.json()) as { error: string }).error]).toEqual([
      403,
      'This file link is not valid',
    ]);
    expect((await fetch(`${t.url}${contentFileLinks(ADMIN_TOKEN).path('anything', 'original')}`)).status).toBe(403);
    const bought = new URL(purchaseDownloadLinks(ADMIN_TOKEN).url(t.url, 1, 'anything'));
    expect((await fetch(bought)).status).toBe(403);
  });
});

describe('the file link key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'file-link-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { DATABASE_PATH: join(dir, 'platform.sqlite'), ADMIN_TOKEN, RUM_TOKEN_KEY: 'k'.repeat(32) };

  it('is FILE_LINK_KEY when set, 32 characters at least', () => {
    expect(loadConfig({ ...env, FILE_LINK_KEY: 'f'.repeat(32) }).fileLinkKey).toBe('f'.repeat(32));
    expect(() => loadConfig({ ...env, FILE_LINK_KEY: 'short' })).toThrow(/FILE_LINK_KEY/);
  });

  it('outside production, is made once and kept beside the database, for every instance there', () => {
    const first = loadConfigWithSecrets(env).fileLinkKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(first).not.toContain(ADMIN_TOKEN);
    expect(loadConfigWithSecrets(env).fileLinkKey).toBe(first);
    expect(readFileSync(join(dir, 'file-link-key'), 'utf8')).toBe(first);
  });

  it('must be given in production', () => {
    expect(() => loadConfig({ ...env, NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' })).toThrow(
      /NODE_ENV=production needs FILE_LINK_KEY/,
    );
    expect(
      loadConfig({ ...env, NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', FILE_LINK_KEY: 'f'.repeat(32) })
        .fileLinkKey,
    ).toBe('f'.repeat(32));
  });
});
