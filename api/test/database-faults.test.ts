/**
 * PostgreSQL restarted under an API instance while users browse, fill their carts and get
 * notifications: while it is down the instance says so at /health and answers 503 (never a
 * crash, never a request hanging past its timeout); once it is back the instance serves again
 * without a restart of its own, and every acknowledged write is there.
 * PostgreSQL project only (vitest.config.ts); the server is this file's own, as it is stopped.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDatabase, startPostgres } from 'api/postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_TOKEN, freePort, startTestApi, type Reply, type TestApi, type TestClient } from './harness.js';
import { type Acknowledged, BUYERS, expectWritesKept } from './writes.js';

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

  it('answers 503 while it is down under a concurrent load, and serves again with nothing acknowledged lost once it is back', async () => {
    const anonymous = api.client();
    const events = (await anonymous.call('getEvents', { limit: '50' })).body.events;
    const items: string[] = [];
    for (const { eventIdentifier } of events)
      items.push(
        ...(await anonymous.call('getEvent', { eventIdentifier })).body.contentItems
          .filter((item) => item.canAddToCart)
          .map((item) => item.contentIdentifier),
      );
    const browsers = new Map<string, TestClient>();
    for (const name of BUYERS) browsers.set(name, await api.as(name));
    expect((await anonymous.fetch('/health')).status).toBe(200);

    type Phase = 'before' | 'down' | 'after';
    let phase: Phase = 'before';
    let running = true;
    const replies: { phase: Phase; what: string; status: number; ms: number }[] = [];
    const acknowledged: Acknowledged = { cart: new Map(), notifications: new Map() };
    const send = async <B>(what: string, request: () => Promise<Reply<B>>): Promise<Reply<B> | null> => {
      const at = phase;
      const started = Date.now();
      const reply = await request().catch(() => null);
      replies.push({ phase: at, what, status: reply?.status ?? 0, ms: Date.now() - started });
      return reply;
    };
    // Each user browses, adds the next item to the cart and gets a notification, round after round.
    const user = async (name: string) => {
      const browser = browsers.get(name) as TestClient;
      for (let round = 0; running; round++) {
        await send('getEvents', () => browser.call('getEvents', { limit: '20' }));
        const item = items[round % items.length] as string;
        const added =
          round < items.length
            ? await send('addCartItem', () => browser.call('addCartItem', { identifier: item, itemType: 'CONTENT' }))
            : null;
        if (added?.status === 200) acknowledged.cart.set(name, [...(acknowledged.cart.get(name) ?? []), item]);
        const notified = await send('notify', () =>
          browser.fetch<{ id?: number }>('/internal/notify', {
            method: 'POST',
            body: JSON.stringify({ profileName: name, content: `round ${round}` }),
            headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
          }),
        );
        const id = notified?.status === 201 ? notified.body.id : undefined;
        if (id !== undefined)
          acknowledged.notifications.set(name, [...(acknowledged.notifications.get(name) ?? []), id]);
        await send('getCart', () => browser.call('getCart'));
      }
    };
    /** Waits until each buyer has had about a round (four requests) of `p`'s answers. */
    const aRoundIn = (p: Phase, status?: number) =>
      vi.waitFor(
        () =>
          expect(
            replies.filter((r) => r.phase === p && (status === undefined || r.status === status)).length,
          ).toBeGreaterThanOrEqual(BUYERS.length * (status === undefined ? 4 : 1)),
        { timeout: 15_000, interval: 20 },
      );
    const outage = async () => {
      try {
        await aRoundIn('before');
        phase = 'down';
        server.stop();
        const health = await anonymous.fetch('/health');
        expect([health.status, health.body.ok, health.body.database]).toEqual([503, false, 'unreachable']);
        await aRoundIn('down', 503);
        server.start();
        await vi.waitFor(async () => expect((await anonymous.fetch('/health')).status).toBe(200), {
          timeout: 5000,
          interval: 100,
        });
        phase = 'after';
        await aRoundIn('after');
      } finally {
        running = false;
      }
    };
    await Promise.all([...BUYERS.map(user), outage()]);

    const count = (p: Phase, status?: number) =>
      replies.filter((r) => r.phase === p && (status === undefined || r.status === status)).length;
    console.log(
      `[database restart] ${replies.length} requests: before ${count('before')}, while down ${count('down')} (${count('down', 503)} answered 503), after ${count('after')}`,
    );
    // Never a crash, an error page or a dropped connection: served, or 503 with Retry-After.
    expect(replies.filter((r) => ![200, 201, 503].includes(r.status))).toEqual([]);
    expect(count('down', 503)).toBeGreaterThan(0);
    // No request waits past the connect timeout (1 s here) by much, even while the server is gone.
    expect(replies.filter((r) => r.ms > 5000)).toEqual([]);
    // Once it is back every request is served again, without a restart of the API.
    expect(count('after')).toBeGreaterThan(0);
    expect(replies.filter((r) => r.phase === 'after' && r.status !== 200 && r.status !== 201)).toEqual([]);

    // The sessions held, and every acknowledged cart add and notification is there.
    await expectWritesKept(browsers, acknowledged);
  });
});
