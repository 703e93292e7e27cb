/**
 * PostgreSQL restarted under an API instance: while it is down the instance says so at /health
 * and answers 503 (never a crash, never a request hanging past its timeout); once it is back the
 * instance serves again without a restart of its own, and nothing acknowledged is lost.
 * PostgreSQL project only (vitest.config.ts); the server is this file's own, as it is stopped.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDatabase, startPostgres } from 'api/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestApi, type TestApi } from './harness.js';

describe('PostgreSQL restarted under the API', () => {
  let dir: string;
  let server: ReturnType<typeof startPostgres>;
  let api: TestApi;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pg-restart-'));
    // The server runs as the postgres user when the tests run as root: it must reach its folder.
    chmodSync(dir, 0o755);
    server = startPostgres({ dir: join(dir, 'pg'), port: await freePort() });
    const url = await ensureDatabase(server.url, 'platform');
    // Short waits, so "no hang" is seconds here; production's are 5 s and 10 s.
    api = await startTestApi(
      { DATABASE_URL: url, DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '3000' },
      join(dir, 'api'),
    );
  });
  afterAll(async () => {
    await api?.close();
    server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 while it is down, and serves again with nothing lost once it is back', async () => {
    const clara = await api.as('clara');
    const added = await clara.call('addCartItem', { identifier: 'ci-photo-002', itemType: 'CONTENT' });
    expect(added.status).toBe(200);
    expect((await api.client().fetch('/health')).status).toBe(200);

    server.stop();
    const health = await api.client().fetch('/health');
    expect([health.status, health.body.ok, health.body.database]).toEqual([503, false, 'unreachable']);
    const started = Date.now();
    const replies = await Promise.all([
      clara.call('getCart'),
      clara.call('addCartItem', { identifier: 'ci-photo-003', itemType: 'CONTENT' }),
      api.client().call('getEvents'),
    ]);
    expect(replies.map((r) => r.status)).toEqual([503, 503, 503]);
    expect(replies[0]?.headers.get('retry-after')).toBe('5');
    expect(replies[0]?.body.error).toMatch(/unavailable/);
    // Refused at once (connection refused) or after the connect timeout, never longer.
    expect(Date.now() - started).toBeLessThan(5000);

    server.start();
    let back = 0;
    for (let i = 0; i < 50 && back !== 200; i++) {
      back = (await api.client().fetch('/health')).status;
      if (back !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(back).toBe(200);
    // The session and the acknowledged cart item survived; the refused add left nothing.
    const cart = await clara.call('getCart');
    expect([cart.status, cart.body.cart.map((item) => item.identifier)]).toEqual([200, ['ci-photo-002']]);
  });
});
