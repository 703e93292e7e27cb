import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { VersionFigures } from './figures.mjs';
import { readDiscovery, readHistory, release } from './store.mjs';
import { fakeBuild, headerFigures, healthyReads, quiet, tempDirs, testPolicy, webhookReceiver } from './testing.js';
import { createPager, followCanary, readWebhooks, setWebhook, watchStep } from './watch.mjs';

// A watcher that never goes blind, attacked as a failing machine would: an API that fails or
// hangs, and a team's webhook (a real HTTP server on loopback) that is down or never answers.
const tmp = tempDirs();
const policy = testPolicy;
const figures = headerFigures;

/** A live header and its canary at 10 % under the watcher's policy, the team's webhook set. */
async function watched(webhook: string | null, changed: Partial<typeof policy> = {}) {
  const store = tmp('store');
  const live = (await release({ store, remote: 'header', dist: fakeBuild(tmp, 'live') })).version;
  const given = { ...policy, ...changed };
  const canary = (await release({ store, remote: 'header', dist: fakeBuild(tmp, 'canary'), canary: 10, policy: given }))
    .version;
  if (webhook) await setWebhook({ store, remote: 'header', url: webhook });
  return { store, live, canary };
}

const refused = async (): Promise<VersionFigures[]> => {
  throw new Error('connect ECONNREFUSED 127.0.0.1:4000');
};
const lines = (store: string, action: string) => readHistory(store).filter((e) => e.action === action);

describe('figures that cannot be read', () => {
  it('are an event each, with the reason; three in a row page the team once, and again only after a new streak', async () => {
    const receiver = await webhookReceiver();
    const { store, live, canary } = await watched(receiver.url);
    const pager = createPager({ store, log: () => undefined });
    const paging = Date.now();
    const step = (readFigures = refused) =>
      watchStep({ store, remote: 'header', readFigures, pager, log: () => undefined });
    for (let i = 0; i < 5; i++) expect((await step()).state).toBe('unavailable');
    await pager.settled();
    expect(lines(store, 'unreadable').map((e) => [e.streak, e.reason])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [n, 'connect ECONNREFUSED 127.0.0.1:4000']),
    );
    expect(lines(store, 'unreadable')[0]).toMatchObject({ from: live, to: canary, result: 'canary', percent: 10 });
    expect(receiver.calls).toHaveLength(1);
    expect(receiver.calls[0]).toMatchObject({
      remote: 'header',
      kind: 'blind',
      versions: { from: live, to: canary },
      reason: expect.stringMatching(/3 evaluations in a row: connect ECONNREFUSED/),
    });
    // Stamped when it was sent, between the steps' start and now.
    const sent = Date.parse(String(receiver.calls[0]?.time));
    expect(sent).toBeGreaterThanOrEqual(paging);
    expect(sent).toBeLessThanOrEqual(Date.now());
    // Seen again, then blind again: a new streak, a new page at its third.
    expect((await step(async () => [figures(live, 100, 1), figures(canary, 100, 1)])).state).toBe('evaluated');
    for (let i = 0; i < 3; i++) await step();
    await pager.settled();
    expect(lines(store, 'unreadable').map((e) => e.streak)).toEqual([1, 2, 3, 4, 5, 1, 2, 3]);
    expect(receiver.calls.map((call) => call.kind)).toEqual(['blind', 'blind']);
    expect(lines(store, 'webhook').map((e) => `${e.kind}:${e.result}`)).toEqual(['blind:sent', 'blind:sent']);
  });

  it('are one event an interval however often the service ticks, a figures query that hangs included', async () => {
    const { store } = await watched(null, { intervalSeconds: 60 });
    let clock = Date.now() + 60_000;
    let reading = () => {};
    const asked = new Promise<void>((done) => (reading = done));
    const hangs = () => {
      reading();
      return new Promise<VersionFigures[]>(() => undefined);
    };
    const step = () =>
      watchStep({
        ...{ store, remote: 'header', readFigures: hangs, now: () => clock, log: () => undefined },
        figuresTimeoutMs: 50,
      });
    // The figures' timeout runs on the test's clock: the step answers when it ends, the read still hanging.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let answered = false;
      const first = step().finally(() => (answered = true));
      await asked;
      await vi.advanceTimersByTimeAsync(49);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await first).toMatchObject({
        state: 'unavailable',
        entry: { reason: 'no figures within 50 ms', streak: 1 },
      });
    } finally {
      vi.useRealTimers();
    }
    for (let i = 0; i < 5; i++) expect((await step()).state).toBe('waiting');
    clock += 60_000;
    expect(await step()).toMatchObject({ state: 'unavailable', entry: { streak: 2 } });
    expect(lines(store, 'unreadable')).toHaveLength(2);
  });

  it('are listed by `pnpm releases` with their reason, and so are the webhook and its calls', async () => {
    const receiver = await webhookReceiver();
    const { store, live, canary } = await watched(receiver.url);
    const pager = createPager({ store, log: () => undefined });
    for (let i = 0; i < 3; i++)
      await watchStep({ store, remote: 'header', readFigures: refused, pager, log: () => undefined });
    await pager.settled();
    const list = spawnSync(process.execPath, [join(import.meta.dirname, 'cli.mjs'), 'list'], {
      env: { ...process.env, RELEASES_DIR: store, PLATFORM_API_URL: 'http://127.0.0.1:9', ADMIN_TOKEN: 't' },
      encoding: 'utf8',
    });
    expect(list.stdout).toMatch(
      new RegExp(`header +\\w+ +canary ${canary} for 10 % +webhook http://127\\.0\\.0\\.1:\\d+\\n`),
    );
    expect(list.stdout).not.toContain('team-secret');
    expect(list.stdout).toMatch(
      new RegExp(`unreadable +${live} -> ${canary} +3 in a row: connect ECONNREFUSED 127\\.0\\.0\\.1:4000`),
    );
    expect(list.stdout).toMatch(/webhook .* blind sent: http:\/\/127\.0\.0\.1:\d+ answered 204/);
  }, 30_000);
});

describe("the team's webhook", () => {
  it('is set and removed by `pnpm release <remote> --webhook`, and refuses what is not an http URL', () => {
    const store = tmp('store');
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(import.meta.dirname, 'cli.mjs'), 'release', 'header', ...args], {
        env: { ...process.env, RELEASES_DIR: store },
        encoding: 'utf8',
      });
    expect(cli('--webhook', 'https://hooks.example.com/T0/B0/secret').status).toBe(0);
    expect(readWebhooks(store)).toEqual({ header: 'https://hooks.example.com/T0/B0/secret' });
    const bad = cli('--webhook', 'file:///etc/passwd');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--webhook takes an http or https URL/);
    expect(cli('--webhook', 'off').status).toBe(0);
    expect(readWebhooks(store)).toEqual({});
  }, 30_000);

  it('that hangs neither stops nor slows the watcher: its call is recorded as failed at its timeout', async () => {
    const receiver = await webhookReceiver('hang');
    const { store, live, canary } = await watched(receiver.url);
    const pager = createPager({ store, timeoutMs: 3000, log: () => undefined });
    for (let i = 0; i < 3; i++)
      await watchStep({ store, remote: 'header', readFigures: refused, pager, log: () => undefined });
    // Paged at the third; the watcher goes on at once, to the rollback of a failing canary.
    const rounds = [
      [figures(live, 5, 0), figures(canary, 2, 2)],
      [figures(live, 40, 0), figures(canary, 12, 9)],
    ];
    const readFigures = async () => rounds.shift() ?? [];
    await watchStep({ store, remote: 'header', readFigures, pager, log: () => undefined });
    const rolledBack = await watchStep({ store, remote: 'header', readFigures, pager, log: () => undefined });
    expect(rolledBack.entry?.decision).toBe('rollback');
    // Nothing waited for the webhook: a call's end is recorded (answered or timed out) and none is,
    // and once both have reached it the receiver still holds them open.
    expect(readDiscovery(store).remotes.header?.canary).toBeUndefined();
    expect(lines(store, 'webhook')).toHaveLength(0);
    await vi.waitFor(() => expect(receiver.calls).toHaveLength(2), { timeout: 10_000, interval: 5 });
    expect(receiver.held()).toBe(2);
    expect(lines(store, 'webhook')).toHaveLength(0);
    // Each call ends by its own timeout, the receiver never answering.
    await pager.settled();
    expect(receiver.calls.map((call) => call.kind)).toEqual(['blind', 'rolled-back']);
    expect(lines(store, 'webhook').map((e) => `${e.kind}:${e.result}:${e.reason}`)).toEqual([
      expect.stringMatching(/^blind:failed:http:\/\/127\.0\.0\.1:\d+ did not answer within 3000 ms$/),
      expect.stringMatching(/^rolled-back:failed:http:\/\/127\.0\.0\.1:\d+ did not answer within 3000 ms$/),
    ]);
  });

  it('that answers 500 is recorded, called once (no retry), and the watcher goes on', async () => {
    const receiver = await webhookReceiver('fail');
    const { store, live, canary } = await watched(receiver.url);
    const pager = createPager({ store, log: () => undefined });
    for (let i = 0; i < 3; i++)
      await watchStep({ store, remote: 'header', readFigures: refused, pager, log: () => undefined });
    await pager.settled();
    expect(lines(store, 'webhook').map((e) => `${e.kind}:${e.result}`)).toEqual(['blind:failed']);
    expect(lines(store, 'webhook')[0]?.reason).toMatch(/answered 500$/);
    const next = await watchStep({
      store,
      remote: 'header',
      readFigures: async () => [figures(live, 100, 1), figures(canary, 100, 1)],
      pager,
      log: () => undefined,
    });
    expect(next.state).toBe('evaluated');
    await pager.settled();
    expect(receiver.calls).toHaveLength(1);
  });

  it('is called with kind promoted when the watcher promotes, with both versions', async () => {
    const receiver = await webhookReceiver();
    const { store, live, canary } = await watched(receiver.url);
    const pager = createPager({ store, log: () => undefined });
    const decision = await followCanary({
      store,
      remote: 'header',
      readFigures: healthyReads(live, canary),
      pager,
      ...quiet,
    });
    expect(decision?.action).toBe('promote');
    await pager.settled();
    expect(receiver.calls).toEqual([
      {
        remote: 'header',
        kind: 'promoted',
        versions: { from: live, to: canary },
        reason: expect.stringMatching(/^watcher: error rate 1\.0 % against live's 1\.0 %: not worse/),
        time: expect.any(String),
      },
    ]);
    expect(readHistory(store).at(-1)).toMatchObject({ action: 'webhook', kind: 'promoted', result: 'sent' });
  });
});
