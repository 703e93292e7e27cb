/**
 * The live outbox (issue 40, item 3): a live message is written with what it announces and
 * published after commit by one relay at a time, each once the broker has it. On both engines;
 * the broker down and several instances on one broker: external-broker.test.ts, instances.test.ts;
 * several relays on one PostgreSQL: outbox-relays.test.ts.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { LIVE_WEBSOCKET_PATH } from '@marketplace/shared/contract';
import { createRelay, retryDelayMs } from '../src/live/relay.js';
import { notifyUser } from '../src/services.js';
import { OUTBOX_KEEP_MS, SWEEP_BATCH } from '../src/sweep.js';
import { fakeBroker, relayDatabase } from './relayTesting.js';
import { ADMIN_TOKEN, ENGINE, present, SHELL_ORIGIN, type TestApi, useTestApi } from './harness.js';

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 8000): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: ms, interval: 25 },
  );
}

describe('the outbox, through the API', () => {
  const t = useTestApi();
  const open: MqttClient[] = [];
  afterAll(() => Promise.all(open.map((mq) => mq.endAsync(true))));

  /** A page of `profileName`'s on the embedded broker, subscribed to its notifications; what it hears. */
  async function page(api: TestApi, profileName: string) {
    const user = await api.as(profileName);
    const mq = await mqtt.connectAsync(`${api.url.replace('http', 'ws')}${LIVE_WEBSOCKET_PATH}`, {
      reconnectPeriod: 0,
      connectTimeout: 5000,
      wsOptions: { headers: { origin: SHELL_ORIGIN, cookie: user.cookieHeader } },
    });
    open.push(mq);
    const heard: { id: number; content: string }[] = [];
    mq.on('message', (_topic, payload) => heard.push(JSON.parse(payload.toString()) as (typeof heard)[number]));
    await mq.subscribeAsync(`notifications/${profileName}`, { qos: 1 });
    return heard;
  }

  const userId = async (profileName: string) =>
    present((await t().rows<{ id: number }>`SELECT id FROM users WHERE profile_name = ${profileName}`)[0], 'the user')
      .id;

  it('publishes nothing for a notification whose transaction fails after writing it', async () => {
    const heard = await page(t(), 'leo');
    const { repos } = t().api.services;
    const leo = await userId('leo');
    let passed: Promise<number> = Promise.resolve(0);
    await expect(
      repos.transaction(async (tx) => {
        await notifyUser(tx, leo, 'Rolled back with its change', null);
        // A relay pass while it is written and not committed. SQLite's one connection is the
        // transaction's until it ends, so there the pass reads only after the rollback.
        passed = t().api.relay.pass();
        if (ENGINE === 'postgres') await passed;
        throw new Error('the change fails after its notification');
      }),
    ).rejects.toThrow('the change fails');
    await passed;
    const kept = await notifyUser(repos, leo, 'Committed', null);
    // One topic's messages arrive in the order they were published: anything published for the
    // rolled-back change came before this one.
    await until(() => heard.length > 0, 'the committed notification');
    expect(heard).toEqual([expect.objectContaining({ id: kept.id, content: 'Committed' })]);
    const stored = await t().rows<{ content: string }>`
      SELECT content FROM notifications WHERE user_id = ${leo} AND content = 'Rolled back with its change'`;
    const queued = await t().rows<{ payload: string }>`
      SELECT payload FROM live_outbox WHERE payload LIKE ${'%Rolled back%'}`;
    expect([stored, queued]).toEqual([[], []]);
  });

  it('marks a message sent once the broker has it, and the live message is the notification, with its id', async () => {
    const heard = await page(t(), 'ivy');
    const created = await t()
      .client()
      .fetch<{ id: number }>('/internal/notify', {
        method: 'POST',
        body: JSON.stringify({ profileName: 'ivy', content: 'Through the outbox' }),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      });
    expect(created.status).toBe(201);
    await until(() => heard.length > 0, 'the notification');
    expect(heard).toEqual([{ ...created.body, id: expect.any(Number) }]);
    expect(heard[0]?.id).toBe(created.body.id);
    await until(
      async () =>
        (
          await t().rows<{ sent_at: string | null }>`
          SELECT sent_at FROM live_outbox WHERE profile_name = 'ivy' AND sent_at IS NOT NULL`
        ).length === 1,
      'the row marked sent',
    );
  });

  it('prunes messages sent more than a day ago at the sweep, in batches, and keeps the others', async () => {
    const { db } = t().api.database;
    const [old, recent] = [Date.now() - OUTBOX_KEEP_MS - 3600_000, Date.now() - 3600_000].map((ms) =>
      new Date(ms).toISOString(),
    ) as [string, string];
    const row = (content: string, sentAt: string | null) => ({
      kind: 'notifications' as const,
      profile_name: 'nobody-listens',
      payload: JSON.stringify({ content }),
      created_at: old,
      sent_at: sentAt,
      next_attempt_at: old,
    });
    const stale = SWEEP_BATCH * 2 + 3;
    await db
      .insertInto('live_outbox')
      .values([...Array.from({ length: stale }, (_, i) => row(`stale ${i}`, old)), row('sent an hour ago', recent)])
      .execute();
    const pass = await t().api.sweep();
    expect(pass.ran && pass.outbox).toBe(stale);
    const left = await t().rows<{ payload: string }>`
      SELECT payload FROM live_outbox WHERE profile_name = 'nobody-listens'`;
    expect(left.map((r) => r.payload)).toEqual([JSON.stringify({ content: 'sent an hour ago' })]);
  });
});

describe('the relay', () => {
  const { instance, queue, unsent } = relayDatabase();

  it('lets a message the broker did not take wait, and nothing overtake it; then sends all in order', async () => {
    // The relay's clock is the test's: a message's retry comes due when the test says.
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const { db, repos } = await instance();
    const queued = await queue(repos, 'retried', 3);
    const took: string[] = [];
    let down = true;
    const relay = createRelay({ repos, live: fakeBroker(took, { down: () => down }) }, 60_000);
    expect(await relay.pass()).toBe(0);
    expect((await unsent(db)).map((row) => row.attempts)).toEqual([1, 0, 0]);
    down = false;
    // The first waits its delay, and the others do not go before it.
    expect(await relay.pass()).toBe(0);
    expect(took).toEqual([]);
    vi.setSystemTime(Date.now() + retryDelayMs(1) - 1);
    expect(await relay.pass()).toBe(0);
    vi.setSystemTime(Date.now() + 1);
    expect(await relay.pass()).toBe(3);
    expect(took).toEqual(queued);
    expect(await unsent(db)).toEqual([]);
    await relay.stop();
  });
});
