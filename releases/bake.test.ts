import { describe, expect, it } from 'vitest';
import type { VersionFigures } from './figures.mjs';
import { appendHistory, readDiscovery, readHistory, release, rollback, type HistoryEntry } from './store.mjs';
import { fakeBuild, headerFigures, healthyReads, quiet, tempDirs, testPolicy, webhookReceiver } from './testing.js';
import { bakeState, createPager, followCanary, setWebhook, watchStep, type Announce } from './watch.mjs';

// The bake: a version the watcher promoted is judged against the version it replaced for the
// policy's `bakeIntervals` evaluations, by the canary's judge, and rolled back to that version on
// harm; otherwise `baked`.
const tmp = tempDirs();
const policy = { ...testPolicy, bakeIntervals: 6 };
const figures = headerFigures;

/** A canary released with `given` and promoted by the watcher on healthy figures (1 % failed on both sides). */
async function promoted(given: Partial<typeof policy> & Record<string, unknown> = policy) {
  const store = tmp('store');
  const receiver = await webhookReceiver();
  const live = (await release({ store, remote: 'header', dist: fakeBuild(tmp, 'live') })).version;
  const canary = (
    await release({
      store,
      remote: 'header',
      dist: fakeBuild(tmp, 'canary'),
      canary: 10,
      policy: given as typeof policy,
    })
  ).version;
  await setWebhook({ store, remote: 'header', url: receiver.url });
  const decision = await followCanary({
    store,
    remote: 'header',
    readFigures: healthyReads(live, canary),
    ...quiet,
  });
  expect(decision?.action).toBe('promote');
  const told: unknown[] = [];
  const announce: Announce = async (rollback) => {
    told.push(rollback);
    return null;
  };
  const pager = createPager({ store, log: () => undefined });
  return { store, predecessor: live, version: canary, receiver, told, announce, pager };
}

/** Bake steps, each with the figures of `loadsAndErrors(round)` since the promotion, until the bake ends (or 20). */
async function bake(
  { store, version, announce, pager }: Awaited<ReturnType<typeof promoted>>,
  errorsAt: (round: number) => number,
) {
  const since: string[] = [];
  let round = 0;
  for (let i = 0; i < 20 && bakeState(readDiscovery(store), readHistory(store), 'header'); i++)
    await watchStep({
      store,
      remote: 'header',
      readFigures: async (from) => {
        since.push(from);
        round += 1;
        return [figures(version, 100 * round, errorsAt(round))];
      },
      announce,
      pager,
      log: () => undefined,
    });
  await pager.settled();
  return { since, bakes: readHistory(store).filter((e) => e.action === 'bake') };
}

describe('the bake after promotion', () => {
  it('records baked when the promoted version stays as healthy as its predecessor was, and then stops', async () => {
    const baking = await promoted();
    const promotion = readHistory(baking.store).findLast((e) => e.action === 'promote');
    const { since, bakes } = await bake(baking, (round) => round);
    expect(bakes.map((e) => e.decision)).toEqual(['hold', 'hold', 'hold', 'hold', 'hold', 'baked']);
    expect(bakes.at(-1)).toMatchObject({ from: baking.predecessor, to: baking.version, result: 'live' });
    expect(bakes.at(-1)?.reason).toMatch(/^no evidence of harm in 6 of 6 evaluations after promotion/);
    // Its figures since the promotion, against its predecessor's rate beside the canary.
    expect(new Set(since)).toEqual(new Set([promotion?.time]));
    expect(bakes.at(-1)?.figures).toMatchObject({
      canary: { loads: 600, errorLoads: 6 },
      live: { loads: 600, errorLoads: 6 },
    });
    expect(readDiscovery(baking.store).remotes.header?.live?.version).toBe(baking.version);
    const lines = readHistory(baking.store).length;
    expect((await watchStep({ store: baking.store, remote: 'header', readFigures: async () => [] })).state).toBe(
      'none',
    );
    expect(readHistory(baking.store)).toHaveLength(lines);
    expect(baking.receiver.calls).toEqual([]);
  });

  it('rolls a promoted version that turns harmful within the bake back to its predecessor, and pages the team', async () => {
    const baking = await promoted();
    // Healthy for two evaluations, then failing 30 % of its loads.
    const { bakes } = await bake(baking, (round) => (round <= 2 ? round : 2 + 30 * (round - 2)));
    expect(bakes.at(-1)?.decision).toBe('rollback');
    expect(bakes.length).toBeLessThan(policy.bakeIntervals);
    expect(readDiscovery(baking.store).remotes.header).toMatchObject({
      live: { version: baking.predecessor },
      rolledBack: [baking.version],
    });
    const rollback = readHistory(baking.store).findLast((e) => e.action === 'rollback');
    expect(rollback).toMatchObject({ from: baking.version, to: baking.predecessor, result: 'live' });
    expect(rollback?.reason).toMatch(
      /^watcher: error rate .* evidence of more errors .*\(baking, against its predecessor\)$/,
    );
    expect(baking.told).toEqual([{ remote: 'header', version: baking.version, to: baking.predecessor }]);
    expect(baking.receiver.calls).toEqual([
      expect.objectContaining({ kind: 'rolled-back', versions: { from: baking.version, to: baking.predecessor } }),
    ]);
  });

  it('carries out a bake rollback its watcher recorded but died before carrying out', async () => {
    const baking = await promoted();
    const entry: HistoryEntry = {
      time: new Date().toISOString(),
      remote: 'header',
      action: 'bake',
      from: baking.predecessor,
      to: baking.version,
      result: 'live',
      decision: 'rollback',
      reason: "error rate 30.0 % against live's 1.0 % (baking, against its predecessor)",
    };
    appendHistory(baking.store, entry);
    const step = await watchStep({
      store: baking.store,
      remote: 'header',
      readFigures: async () => [],
      log: () => undefined,
    });
    expect(step.state).toBe('completed');
    expect(readDiscovery(baking.store).remotes.header?.live?.version).toBe(baking.predecessor);
    expect(readHistory(baking.store).filter((e) => e.action === 'bake')).toHaveLength(1);
  });

  it('counts unreadable figures while baking, and pages at the third in a row', async () => {
    const baking = await promoted();
    const refused = async (): Promise<VersionFigures[]> => {
      throw new Error('the API at http://127.0.0.1:4111 answered 503');
    };
    for (let i = 0; i < 3; i++)
      expect(
        (
          await watchStep({
            store: baking.store,
            remote: 'header',
            readFigures: refused,
            pager: baking.pager,
            log: () => undefined,
          })
        ).state,
      ).toBe('unavailable');
    await baking.pager.settled();
    expect(
      readHistory(baking.store)
        .filter((e) => e.action === 'unreadable')
        .map((e) => [e.result, e.to, e.streak]),
    ).toEqual([
      ['live', baking.version, 1],
      ['live', baking.version, 2],
      ['live', baking.version, 3],
    ]);
    expect(baking.receiver.calls.map((call) => call.kind)).toEqual(['blind']);
  });

  it('ends when a canary is released after the promotion, even once that canary is dropped', async () => {
    const baking = await promoted();
    await release({ store: baking.store, remote: 'header', dist: fakeBuild(tmp, 'next'), canary: 10 });
    await rollback({ store: baking.store, remote: 'header' });
    expect(readDiscovery(baking.store).remotes.header?.live?.version).toBe(baking.version);
    expect(bakeState(readDiscovery(baking.store), readHistory(baking.store), 'header')).toBeNull();
  });

  it('is not run for a canary whose policy was recorded before the bake existed', async () => {
    const { bakeIntervals: _none, ...before } = policy;
    const baking = await promoted(before);
    const lines = readHistory(baking.store).length;
    expect(bakeState(readDiscovery(baking.store), readHistory(baking.store), 'header')).toBeNull();
    expect((await watchStep({ store: baking.store, remote: 'header', readFigures: async () => [] })).state).toBe(
      'none',
    );
    expect(readHistory(baking.store)).toHaveLength(lines);
  });
});
