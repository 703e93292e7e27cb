/**
 * An API instance killed (SIGKILL) in the middle of a concurrent load, behind the gateway, on
 * PostgreSQL: every write that was acknowledged is there afterwards, requests sent after the kill
 * are served by the other instance, and logged-in sessions survive; the killed instance, started
 * again, serves again. PostgreSQL project only (vitest.config.ts).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from 'api/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, DEMO_PASSWORD, freePort, freshDatabase, SHELL_ORIGIN, TestClient } from './harness.js';
import { type ApiProcess, startApiProcess } from './processes.js';
import { type Acknowledged, BUYERS, expectWritesKept } from './writes.js';

const INSTANCE = 'x-api-instance';
const ROUNDS = 12;

describe('an instance killed under load', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let instances: ApiProcess[];
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'api-kill-'));
    chmodSync(dir, 0o755);
    database = await freshDatabase(dir);
    const ports = [await freePort(), await freePort()];
    const env = (i: number) => ({
      ...database.env,
      MEDIA_DIR: join(dir, 'media'),
      API_INSTANCE: `api-${i + 1}`,
      API_TRUST_PROXY: 'true',
      API_ALLOWED_ORIGINS: SHELL_ORIGIN,
      ADMIN_TOKEN,
    });
    // One first (it migrates and seeds), then the other, as a rolling start would.
    instances = [await startApiProcess(env(0), ports[0] as number)];
    instances.push(await startApiProcess(env(1), ports[1] as number));
    gateway = await startGateway({
      port: await freePort(),
      upstreams: ports.map((port) => `127.0.0.1:${port}`),
      workDir: join(dir, 'gateway'),
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    for (const instance of instances ?? []) await instance.kill('SIGTERM');
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged write, serves every request sent after the kill, and keeps the sessions', async () => {
    const browsers = new Map<string, TestClient>();
    for (const name of BUYERS) {
      const browser = new TestClient(gateway.url);
      expect((await browser.call('login', { login: name, password: DEMO_PASSWORD })).status).toBe(200);
      browsers.set(name, browser);
    }
    const events = (await new TestClient(gateway.url).call('getEvents', { limit: '50' })).body.events;
    const items: string[] = [];
    for (const event of events) {
      const { contentItems } = (
        await new TestClient(gateway.url).call('getEvent', { eventIdentifier: event.eventIdentifier })
      ).body;
      items.push(...contentItems.filter((item) => item.canAddToCart).map((item) => item.contentIdentifier));
    }
    expect(items.length).toBeGreaterThanOrEqual(ROUNDS);

    const acknowledged: Acknowledged = { cart: new Map(), notifications: new Map() };
    const afterKill: { status: number; instance: string | null }[] = [];
    let killedAt = 0;
    const kill = async () => {
      await instances[0]?.kill('SIGKILL');
      killedAt = Date.now();
    };

    const user = async (name: string) => {
      const browser = browsers.get(name) as TestClient;
      for (let round = 0; round < ROUNDS; round++) {
        const sentAt = Date.now();
        const add = await browser
          .call('addCartItem', { identifier: items[round] as string, itemType: 'CONTENT' })
          .catch(() => null);
        const notify = await browser
          .fetch('/internal/notify', {
            method: 'POST',
            body: JSON.stringify({ profileName: name, content: `round ${round}` }),
            headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
          })
          .catch(() => null);
        if (add?.status === 200)
          acknowledged.cart.set(name, [...(acknowledged.cart.get(name) ?? []), items[round] as string]);
        const id = notify?.status === 201 ? (notify.body as { id?: number }).id : undefined;
        if (id !== undefined)
          acknowledged.notifications.set(name, [...(acknowledged.notifications.get(name) ?? []), id]);
        if (killedAt && sentAt > killedAt)
          for (const reply of [add, notify])
            afterKill.push({ status: reply?.status ?? 0, instance: reply?.headers.get(INSTANCE) ?? null });
      }
    };
    // The kill lands while every user is mid-run.
    await Promise.all([...BUYERS.map(user), new Promise((resolve) => setTimeout(resolve, 300)).then(kill)]);

    const writes = [...acknowledged.cart.values(), ...acknowledged.notifications.values()].flat().length;
    console.log(
      `[kill] ${writes} acknowledged writes of ${BUYERS.length * ROUNDS * 2}, ${afterKill.length} requests sent after the kill`,
    );
    expect(killedAt).toBeGreaterThan(0);
    expect(afterKill.length).toBeGreaterThan(0);
    expect(afterKill.filter((r) => r.status !== 200 && r.status !== 201)).toEqual([]);
    expect(new Set(afterKill.map((r) => r.instance))).toEqual(new Set(['api-2']));

    // Every acknowledged write is there, read back through the gateway; every session still holds.
    await expectWritesKept(browsers, acknowledged);

    // Started again, the killed instance serves its share once more.
    await instances[0]?.start();
    const served = new Set<string | null>();
    const probe = new TestClient(gateway.url);
    // The gateway tries an instance it saw fail again after its fail_timeout (10 s).
    for (let i = 0; i < 100 && served.size < 2; i++) {
      const reply = await probe.call('getEvents');
      if (reply.status === 200) served.add(reply.headers.get(INSTANCE));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect([...served].sort()).toEqual(['api-1', 'api-2']);
  });
});
