import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeBuild, headerFigures, quiet, tempDirs, testPolicy } from './testing.js';
import { figureLines, sinceTime } from './figures.mjs';
import { htmlReport } from './report.mjs';
import type { Announce } from './watch.mjs';
import {
  appendHistory,
  readDiscovery,
  readHistory,
  release,
  rollback,
  writeDiscovery,
  type HistoryEntry,
} from './store.mjs';
import {
  canaryState,
  clearHeartbeat,
  followCanary,
  serviceRuns,
  unfinished,
  watchStep,
  watchWith,
  writeHeartbeat,
} from './watch.mjs';

// The canary watcher carrying out decisions on a real store, with the figures handed in (the
// end-to-end test, e2e/tests/canary.spec.ts, reads them from real browsers' beacons; the service
// as a process, killed and started again: watcher-service.test.ts).
const tmp = tempDirs();
const build = (label: string) => fakeBuild(tmp, label);

const policy = testPolicy;
const figures = headerFigures;

/**
 * Both sides' figures after `round` intervals of 100 loads each, 1 % failed (the canary's half of
 * the loads is above any of its shares: only a share far below would be rolled back).
 */
const healthyRound = (live: string, canary: string, round: number) => [
  figures(live, 100 * round, round),
  figures(canary, 100 * round, round),
];

/** A live header and a canary at 10 % released with the watcher's policy (as `--canary 10 --watch`). */
async function canaryStore(watched: typeof policy | null = policy) {
  const store = tmp('store');
  const live = await release({ store, remote: 'header', dist: build('live') });
  const canary = await release({
    store,
    remote: 'header',
    dist: build('canary'),
    canary: 10,
    ...(watched ? { policy: watched } : {}),
  });
  return { store, live: live.version, canary: canary.version };
}

/** The evaluations the store holds of the canary under way (the figures of a round depend on it, not on how often they were read). */
const evaluated = (store: string) => {
  const state = canaryState(readDiscovery(store), readHistory(store), 'header');
  return state ? state.looks.length : 0;
};
/** Healthy figures for the store's next evaluation: the same evidence at each step however the watcher got there. */
const healthyFor = (store: string, live: string, canary: string) => async () =>
  healthyRound(live, canary, evaluated(store) + 1);
/** The history from the canary on, as decisions and actions (`watch:step`, `step:25`). */
const decisions = (store: string) =>
  readHistory(store)
    .slice(2)
    .map((e) => `${e.action}:${e.decision ?? e.percent ?? e.result}`);
/** What an evaluation holds, the time left out. */
const evidenceOf = (store: string) =>
  readHistory(store)
    .filter((e) => e.action === 'watch')
    .map(({ time: _time, ...rest }) => rest);

/** An announcer that keeps what it is told and answers `unheard` (null: the API heard it). */
function announcements(unheard: string | null) {
  const told: unknown[] = [];
  const announce: Announce = async (rollback) => {
    told.push(rollback);
    return unheard;
  };
  return { told, announce };
}

describe('the watcher (followCanary, watchStep)', () => {
  it('waits for enough loads, then rolls a failing canary back, with its figures in the history', async () => {
    const { store, live, canary } = await canaryStore();
    const rounds = [
      [figures(live, 5, 0), figures(canary, 2, 2)],
      [figures(live, 40, 0), figures(canary, 12, 9)],
    ];
    const { told, announce } = announcements(null);
    const decision = await followCanary({
      store,
      remote: 'header',
      readFigures: async () => rounds.shift() ?? [],
      announce,
      ...quiet,
    });
    expect(decision?.action).toBe('rollback');
    expect(readDiscovery(store).remotes.header).toMatchObject({ live: { version: live }, rolledBack: [canary] });
    // Open pages are told once, after the store says it.
    expect(told).toEqual([{ remote: 'header', version: canary, to: live }]);
    expect(readDiscovery(store).remotes.header?.canary).toBeUndefined();
    const lines = readHistory(store).slice(2);
    expect(lines.map((e) => `${e.action}:${e.decision ?? e.result}`)).toEqual([
      'watch:wait',
      'watch:rollback',
      'rollback:dropped',
    ]);
    expect(lines[1]?.figures).toMatchObject({
      canary: { loads: 12, errorLoads: 9 },
      live: { loads: 40, errorLoads: 0 },
    });
    expect(lines[2]?.reason).toMatch(/^watcher: error rate 75\.0 % against live's 0\.0 %/);
    // The evidence it rested on is kept beside the figures.
    expect(lines[1]?.evidence?.harm).toBeGreaterThan(1 / (policy.alpha * 0.7));
  });

  it('judges browsers, not page loads: a few browsers failing over and over do not roll a canary back', async () => {
    /** Two evaluations of a canary whose 100 loads a round come from 20 browsers, `failing` of whose first loads failed. */
    const watched = async (failing: number) => {
      const { store, live, canary } = await canaryStore();
      // Two of the canary's browsers fail every load of theirs (30 failed loads a round).
      const round = (n: number) => [
        { ...figures(live, 100 * n, n), browsers: 20 * n, errorBrowsers: 0 },
        { ...figures(canary, 100 * n, 30 * n), browsers: 20 * n, errorBrowsers: failing * n },
      ];
      for (const n of [1, 2]) await watchStep({ store, remote: 'header', readFigures: async () => round(n), ...quiet });
      return readHistory(store).filter((e) => e.action === 'watch');
    };
    // Their first loads were clean: two clean browsers among 20, as live's.
    const clean = await watched(0);
    expect(clean.map((e) => e.decision)).toEqual(['hold', 'step']);
    // What it judged, and keeps, is browsers.
    expect(clean[1]?.figures).toMatchObject({
      canary: { loads: 40, errorLoads: 0 },
      live: { loads: 40, errorLoads: 0 },
    });
    // The same loads where most browsers' first load failed: rolled back.
    expect((await watched(15)).map((e) => e.decision)).toContain('rollback');
  });

  it("names the canary's top error, message and frame, in the rollback's reason it writes and prints", async () => {
    const { store, live, canary } = await canaryStore();
    const topError = {
      message: 'TypeError: x is undefined',
      frame: `/header/${canary}/static/chunk.js:1:2345`,
      count: 7,
      total: 9,
    };
    // Live's own top error is not the canary's.
    const liveError = { message: 'Error: old', frame: null, count: 1, total: 1 };
    const rounds = [
      [figures(live, 5, 0), { ...figures(canary, 2, 2), topError: { ...topError, count: 2, total: 2 } }],
      [
        { ...figures(live, 40, 0), topError: liveError },
        { ...figures(canary, 12, 9), topError },
      ],
    ];
    const said: string[] = [];
    const decision = await followCanary({
      store,
      remote: 'header',
      readFigures: async () => rounds.shift() ?? [],
      sleep: quiet.sleep,
      log: (line) => said.push(line),
    });
    const named = `; top error: "TypeError: x is undefined" at /header/${canary}/static/chunk.js:1:2345 (7 of 9 errors)`;
    expect(decision?.action).toBe('rollback');
    expect(decision?.reason).toMatch(
      /^error rate 75\.0 % against live's 0\.0 % \(\+75\.0 pt\): evidence of more errors/,
    );
    expect(decision?.reason.endsWith(named)).toBe(true);
    const [waited, watched, rolledBack] = readHistory(store).slice(2);
    // Only a rollback names it.
    expect(waited).toMatchObject({ decision: 'wait' });
    expect(waited?.reason).not.toMatch(/top error/);
    expect(watched?.reason).toBe(decision?.reason);
    expect(rolledBack).toMatchObject({ action: 'rollback', reason: `watcher: ${decision?.reason}` });
    expect(said.filter((line) => line.endsWith(named))).toHaveLength(1);
    // The figures kept of each evaluation are the judge's, without it.
    expect(watched?.figures?.canary).toEqual({
      loads: 12,
      errorLoads: 9,
      p75: { lcp: 1500, inp: 100, cls: 0, ttfb: 200 },
    });
  });

  it('steps a healthy canary up through the shares after holding, then promotes it, printing each evaluation', async () => {
    const { store, live, canary } = await canaryStore();
    const said: string[] = [];
    const decision = await followCanary({
      store,
      remote: 'header',
      readFigures: healthyFor(store, live, canary),
      sleep: quiet.sleep,
      log: (line) => said.push(line),
    });
    expect(decision?.action).toBe('promote');
    expect(readDiscovery(store).remotes.header?.live?.version).toBe(canary);
    expect(decisions(store)).toEqual([
      'watch:hold',
      'watch:step',
      'step:25',
      'watch:hold',
      'watch:step',
      'step:50',
      'watch:hold',
      'watch:promote',
      'promote:live',
    ]);
    expect(
      readHistory(store)
        .filter((e) => e.decision === 'step')
        .map((e) => e.stepTo),
    ).toEqual([25, 50]);
    expect(said[0]).toMatch(/^no watcher service runs on this store: judging header's canary here/);
    expect(said.filter((line) => line.startsWith(`header canary ${canary} at `))).toHaveLength(6);
    expect(said).toContain(`header canary ${canary} at 25 %: step: ${readHistory(store)[6]?.reason}`);
  });

  it('judges a canary released with its own watch meanwhile from its own start; an evaluation of the first one under way is dropped', async () => {
    const { store, live, canary } = await canaryStore();
    let round = 0;
    let next = '';
    const decision = await followCanary({
      store,
      remote: 'header',
      readFigures: async () => {
        round += 1;
        if (round === 2)
          next = (await release({ store, remote: 'header', dist: build('next'), canary: 10, policy })).version;
        return [...healthyRound(live, canary, round), ...healthyRound(live, next || canary, round).slice(1)];
      },
      ...quiet,
    });
    expect(decision?.action).toBe('promote');
    const watched = readHistory(store)
      .filter((e) => e.action === 'watch')
      .map((e) => `${e.to === canary ? 'first' : 'next'}:${e.decision}`);
    // The first canary's second evaluation, read as the next one was released, is not recorded;
    // the next one is judged from its own start (without the reset it would step at once).
    expect(watched.slice(0, 3)).toEqual(['first:hold', 'next:hold', 'next:step']);
    const steps = readHistory(store).filter((e) => e.action === 'step');
    expect(steps.map((e) => e.to)).toEqual([next, next]);
  });

  it('rolls back a canary still undecided at its deadline: live serves everyone, and nobody is left unwatched', async () => {
    const { store, live, canary } = await canaryStore({ ...policy, margin: 0.01, deadlineIntervals: 6 });
    const decision = await followCanary({
      store,
      remote: 'header',
      readFigures: healthyFor(store, live, canary),
      ...quiet,
    });
    expect(decision?.action).toBe('rollback');
    expect(decision?.reason).toMatch(/^no decision after 6 evaluations: .*Rolled back at the deadline/);
    expect(readDiscovery(store).remotes.header?.canary).toBeUndefined();
    expect(readDiscovery(store).remotes.header?.live?.version).toBe(live);
    expect(readHistory(store).at(-1)).toMatchObject({ action: 'rollback', to: live });
  });

  it('records one inconclusive evaluation at the deadline and then leaves the canary held until the releaser watches it again', async () => {
    const held = { ...policy, margin: 0.01, atDeadline: 'hold' as const };
    const { store, live, canary } = await canaryStore({ ...held, deadlineIntervals: 6 });
    const readFigures = healthyFor(store, live, canary);
    const decision = await followCanary({ store, remote: 'header', readFigures, ...quiet });
    expect(decision?.action).toBe('inconclusive');
    expect(readDiscovery(store).remotes.header?.canary).toMatchObject({ version: canary, percent: 50 });
    const last = readHistory(store).at(-1);
    expect(last).toMatchObject({ action: 'watch', decision: 'inconclusive', percent: 50 });
    expect(last?.reason).toMatch(/^no decision after 6 evaluations: .*The canary stays at 50 %/);
    // Any number of steps after it evaluate nothing more.
    const lines = readHistory(store).length;
    for (let i = 0; i < 5; i++) expect((await watchStep({ store, remote: 'header', readFigures })).state).toBe('held');
    expect(readHistory(store)).toHaveLength(lines);
    // Watched again with a later deadline: it goes on from the same evidence, and is held again there.
    await watchWith({ store, remote: 'header', policy: { ...held, deadlineIntervals: 8 } });
    const again = await followCanary({ store, remote: 'header', readFigures, ...quiet });
    expect(again?.action).toBe('inconclusive');
    expect(again?.reason).toMatch(/^no decision after 8 evaluations/);
    expect(readHistory(store).filter((e) => e.decision === 'inconclusive')).toHaveLength(2);
  });

  it('goes on from the store when started again: it decides as a watcher that never stopped', async () => {
    const run = async (stopAfter: number | null) => {
      const { store, live, canary } = await canaryStore();
      const readFigures = healthyFor(store, live, canary);
      if (stopAfter !== null) {
        let sleeps = 0;
        const dies = async () => {
          if (++sleeps > stopAfter) throw new Error('killed');
        };
        await expect(followCanary({ store, remote: 'header', readFigures, ...quiet, sleep: dies })).rejects.toThrow(
          'killed',
        );
      }
      await followCanary({ store, remote: 'header', readFigures, ...quiet });
      return { decisions: decisions(store), evidence: evidenceOf(store) };
    };
    const whole = await run(null);
    expect(whole.decisions.at(-1)).toBe('promote:live');
    // Stopped after 4 evaluations (at 25 %, its hold count in memory would be lost), then started again.
    expect(await run(4)).toEqual(whole);
  });

  it('carries out a decision its watcher recorded but died before carrying out, instead of judging again', async () => {
    const whole = await canaryStore();
    await followCanary({
      store: whole.store,
      remote: 'header',
      readFigures: healthyFor(whole.store, whole.live, whole.canary),
      ...quiet,
    });
    const history = readHistory(whole.store);
    const firstStep = history.findIndex((e) => e.decision === 'step');
    expect(history[firstStep + 1]).toMatchObject({ action: 'step', percent: 25 });

    // The same canary, its watcher killed between the evaluation that stepped it and the step.
    const { store, live, canary } = await canaryStore();
    expect([live, canary]).toEqual([whole.live, whole.canary]);
    for (const line of history.slice(2, firstStep + 1)) appendHistory(store, line);
    expect(unfinished(readDiscovery(store), readHistory(store), 'header')).toMatchObject({ stepTo: 25, done: false });
    const readFigures = healthyFor(store, live, canary);
    const step = await watchStep({ store, remote: 'header', readFigures });
    expect(step.state).toBe('completed');
    expect(readDiscovery(store).remotes.header?.canary?.percent).toBe(25);
    expect(readHistory(store).at(-1)).toMatchObject({ action: 'step', percent: 25 });
    await followCanary({ store, remote: 'header', readFigures, ...quiet });
    expect(decisions(store)).toEqual(decisions(whole.store));
    expect(evidenceOf(store)).toEqual(evidenceOf(whole.store));
  });

  it('records a step its watcher made but died before recording, as it would have', async () => {
    const whole = await canaryStore();
    await followCanary({
      store: whole.store,
      remote: 'header',
      readFigures: healthyFor(whole.store, whole.live, whole.canary),
      ...quiet,
    });
    const history = readHistory(whole.store);
    const firstStep = history.findIndex((e) => e.decision === 'step');

    // Killed between the discovery document's new share and the history's step line.
    const { store, live, canary } = await canaryStore();
    for (const line of history.slice(2, firstStep + 1)) appendHistory(store, line);
    const doc = readDiscovery(store);
    const entry = doc.remotes.header;
    if (!entry?.canary) throw new Error('no canary');
    writeDiscovery(store, { ...doc, remotes: { header: { ...entry, canary: { ...entry.canary, percent: 25 } } } });
    expect(unfinished(readDiscovery(store), readHistory(store), 'header')).toMatchObject({ stepTo: 25, done: true });
    const readFigures = healthyFor(store, live, canary);
    expect((await watchStep({ store, remote: 'header', readFigures })).state).toBe('completed');
    const { time: _t1, ...recorded } = readHistory(store).at(-1) ?? {};
    const { time: _t2, ...expected } = history[firstStep + 1] ?? {};
    expect(recorded).toEqual(expected);
    await followCanary({ store, remote: 'header', readFigures, ...quiet });
    expect(evidenceOf(store)).toEqual(evidenceOf(whole.store));
    expect(decisions(store)).toEqual(decisions(whole.store));
  });

  it('carries out a rollback its watcher recorded but died before carrying out', async () => {
    const { store, live, canary } = await canaryStore();
    appendHistory(store, {
      time: new Date().toISOString(),
      remote: 'header',
      action: 'watch',
      from: live,
      to: canary,
      result: 'canary',
      percent: 10,
      decision: 'rollback',
      reason: "error rate 75.0 % against live's 0.0 %",
      figures: { canary: figures(canary, 12, 9), live: figures(live, 40, 0) },
    } satisfies HistoryEntry);
    const { told, announce } = announcements('the API at http://127.0.0.1:1 answered 503');
    const decision = await followCanary({
      store,
      remote: 'header',
      readFigures: async () => [],
      announce,
      ...quiet,
    });
    expect(decision?.action).toBe('rollback');
    expect(readDiscovery(store).remotes.header?.canary).toBeUndefined();
    // Told too; an API that did not hear it changes nothing in the store.
    expect(told).toEqual([{ remote: 'header', version: canary, to: live }]);
    expect(readHistory(store).at(-1)).toMatchObject({
      action: 'rollback',
      reason: "watcher: error rate 75.0 % against live's 0.0 %",
    });
    expect(readHistory(store).filter((e) => e.action === 'watch')).toHaveLength(1);
  });

  it('appends an evaluation once when two watchers take the same step at once', async () => {
    const { store, live, canary } = await canaryStore();
    let reads = 0;
    // Both read the figures before either records: the second finds the first's evaluation under the lock.
    let release2: () => void = () => undefined;
    const bothRead = new Promise<void>((resolve) => (release2 = resolve));
    const readFigures = async () => {
      if (++reads === 2) release2();
      await bothRead;
      return healthyRound(live, canary, 1);
    };
    const steps = await Promise.all([
      watchStep({ store, remote: 'header', readFigures }),
      watchStep({ store, remote: 'header', readFigures }),
    ]);
    expect(reads).toBe(2);
    expect(steps.map((s) => s.state).sort()).toEqual(['evaluated', 'raced']);
    expect(readHistory(store).filter((e) => e.action === 'watch')).toHaveLength(1);
  });

  it('leaves a canary released without --watch to the releaser', async () => {
    const { store } = await canaryStore(null);
    expect((await watchStep({ store, remote: 'header', readFigures: async () => [] })).state).toBe('unwatched');
    const said: string[] = [];
    expect(
      await followCanary({ store, remote: 'header', readFigures: async () => [], ...quiet, log: (l) => said.push(l) }),
    ).toBeNull();
    expect(said.at(-1)).toMatch(/has no watcher's policy: pnpm release header --watch gives it one/);
    expect(readHistory(store)).toHaveLength(2);
  });

  it('stops when the canary is ended by hand, and keeps watching through an API that does not answer', async () => {
    const { store } = await canaryStore();
    const said: string[] = [];
    let calls = 0;
    const decision = await followCanary({
      store,
      remote: 'header',
      readFigures: async () => {
        calls += 1;
        if (calls === 1) throw new Error('connect ECONNREFUSED');
        await rollback({ store, remote: 'header' });
        return [];
      },
      sleep: quiet.sleep,
      log: (line) => said.push(line),
    });
    expect(decision).toBeNull();
    expect(said[1]).toBe('figures unavailable (connect ECONNREFUSED): trying again next interval');
    expect(said.at(-1)).toBe('header has no canary under way any more: stopped watching');
  });

  it('only follows while a watcher service runs on the store, and judges itself once it is gone', async () => {
    const { store, live, canary } = await canaryStore();
    const said: string[] = [];
    let looks = 0;
    let recordedWhileFollowing: number | undefined;
    writeHeartbeat(store, 60_000);
    expect(serviceRuns(store)).toBe(true);
    const decision = await followCanary({
      store,
      remote: 'header',
      readFigures: healthyFor(store, live, canary),
      judgeHere: () => !serviceRuns(store),
      sleep: async () => {
        // The service is stopped after the follower has looked a few times without judging.
        if (++looks === 3) {
          recordedWhileFollowing = readHistory(store).length;
          clearHeartbeat(store);
        }
      },
      log: (line) => said.push(line),
    });
    // The release and the canary only: following, it judged nothing.
    expect(recordedWhileFollowing).toBe(2);
    expect(decision?.action).toBe('promote');
    expect(said[0]).toBe(
      "the watcher service judges header's canary: following its evaluations (closing this does not stop them)",
    );
    expect(said[1]).toMatch(/^no watcher service runs on this store: judging header's canary here/);
  });

  it("tells a watcher service's heartbeat from one that is stale or whose process is gone", async () => {
    const store = tmp('store');
    expect(serviceRuns(store)).toBe(false);
    writeHeartbeat(store, 1000);
    expect(serviceRuns(store)).toBe(true);
    expect(serviceRuns(store, Date.now() + 2000)).toBe(false);
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const beat = { host: hostname(), pid: gone, id: 'earlier', time: new Date().toISOString(), staleAfterMs: 60_000 };
    writeFileSync(join(store, '.watcher.json'), JSON.stringify(beat));
    expect(serviceRuns(store)).toBe(false);
    // On another host (a container) only its time tells.
    writeFileSync(join(store, '.watcher.json'), JSON.stringify({ ...beat, host: 'elsewhere' }));
    expect(serviceRuns(store)).toBe(true);
  });
});

describe('figures for people', () => {
  it('prints live and canary per remote with the difference, and other versions still in use', () => {
    const doc = {
      remotes: {
        header: { live: { version: 'aaaaaaaaaaaa' }, canary: { version: 'bbbbbbbbbbbb', percent: 10 } },
      },
    };
    const lines = figureLines(
      doc,
      [figures('aaaaaaaaaaaa', 200, 2, 1500), figures('bbbbbbbbbbbb', 20, 2, 1700), figures('cccccccccccc', 3, 0)],
      ['header', 'media'],
    );
    expect(lines[0]).toMatch(/loads\s+errors\s+p75 LCP\s+p75 INP\s+p75 CLS\s+p75 TTFB\s+LCP here$/);
    expect(lines[1]).toMatch(
      /^ {2}header aaaaaaaaaaaa live\s+200\s+1\.0 %\s+1500 ms\s+100 ms\s+0\.000\s+200 ms\s+100 %$/,
    );
    expect(lines[2]).toMatch(/^ {2}header bbbbbbbbbbbb canary 10 %\s+20\s+10\.0 %\s+1700 ms/);
    expect(lines[3]).toMatch(/canary - live\s+\+9\.0 pt\s+\+200 ms\s+\+0 ms\s+\+0\.000\s+\+0 ms$/);
    expect(lines[4]).toMatch(/^ {2}header cccccccccccc\s+3/);
  });

  it('reads --since as a duration or a time', () => {
    const now = Date.parse('2026-11-24T12:00:00.000Z');
    expect(sinceTime('24h', now)).toBe('2026-11-23T12:00:00.000Z');
    expect(sinceTime('30m', now)).toBe('2026-11-24T11:30:00.000Z');
    expect(sinceTime('2026-11-20T00:00:00Z', now)).toBe('2026-11-20T00:00:00.000Z');
    expect(() => sinceTime('last week', now)).toThrow(/--since takes/);
  });

  it('writes an HTML report with a chart line per version and escapes what it shows', () => {
    const html = htmlReport({
      generated: '2026-11-24T12:00:00.000Z',
      since: '2026-11-23T12:00:00.000Z',
      remotes: ['header'],
      doc: {
        remotes: { header: { live: { version: 'aaaaaaaaaaaa' }, canary: { version: 'bbbbbbbbbbbb', percent: 10 } } },
      },
      table: ['  header <live>'],
      series: [
        {
          remote: 'header',
          version: 'aaaaaaaaaaaa',
          start: '2026-11-24T10:00:00.000Z',
          loads: 10,
          errorRate: 0,
          p75Lcp: 1400,
        },
        {
          remote: 'header',
          version: 'aaaaaaaaaaaa',
          start: '2026-11-24T10:10:00.000Z',
          loads: 12,
          errorRate: 0.1,
          p75Lcp: 1500,
        },
        {
          remote: 'header',
          version: 'bbbbbbbbbbbb',
          start: '2026-11-24T10:10:00.000Z',
          loads: 2,
          errorRate: 0.5,
          p75Lcp: 1900,
        },
      ],
      history: [
        {
          time: 't',
          remote: 'header',
          action: 'watch',
          from: 'a',
          to: 'b',
          result: 'canary',
          decision: 'rollback',
          reason: '<script>',
        },
      ],
    });
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html.match(/<path d="M/g)).toHaveLength(4);
    expect(html).toContain('aaaaaaaaaaaa (live)');
    expect(html).toContain('bbbbbbbbbbbb (canary 10 %)');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('header &lt;live&gt;');
    expect(html).not.toContain('<script>');
  });
});
