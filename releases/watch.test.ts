import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from './canary.mjs';
import { fakeBuild, tempDirs } from './testing.js';
import { figureLines, sinceTime } from './figures.mjs';
import { htmlReport } from './report.mjs';
import { readDiscovery, readHistory, release } from './store.mjs';
import { watchCanary } from './watch.mjs';

// The canary watcher carrying out decisions on a real store, with the figures handed in (the
// end-to-end test, e2e/tests/canary.spec.ts, reads them from real browsers' beacons).
const tmp = tempDirs();
const build = (label: string) => fakeBuild(tmp, label);

const policy = {
  ...DEFAULT_POLICY,
  minLoads: 10,
  holdIntervals: 2,
  steps: [25, 50],
  intervalSeconds: 0,
  // Wide margins, so that a few hundred loads decide (the judge's own sizes are canary.test.ts's subject).
  margin: 0.05,
  lcpMargin: 1,
  inpMargin: 1,
};
const figures = (version: string, loads: number, errorLoads: number, lcp = 1500) => ({
  remote: 'header',
  version,
  loads,
  errorLoads,
  errorRate: errorLoads / loads,
  p75: { lcp, inp: 100, cls: 0 },
});

/**
 * Both sides' figures after `round` intervals of 100 loads each, 1 % failed (the canary's half of
 * the loads is above any of its shares: only a share far below would be rolled back).
 */
const healthyRound = (live: string, canary: string, round: number) => [
  figures(live, 100 * round, round),
  figures(canary, 100 * round, round),
];
const quiet = { sleep: async () => undefined, log: () => undefined };

async function canaryStore() {
  const store = tmp('store');
  const live = await release({ store, remote: 'header', dist: build('live') });
  const canary = await release({ store, remote: 'header', dist: build('canary'), canary: 10 });
  return { store, live: live.version, canary: canary.version };
}

describe('watchCanary', () => {
  it('waits for enough loads, then rolls a failing canary back, with its figures in the history', async () => {
    const { store, live, canary } = await canaryStore();
    const rounds = [
      [figures(live, 5, 0), figures(canary, 2, 2)],
      [figures(live, 40, 0), figures(canary, 12, 9)],
    ];
    const decision = await watchCanary({
      store,
      remote: 'header',
      policy,
      readFigures: async () => rounds.shift() ?? [],
      sleep: async () => undefined,
      log: () => undefined,
    });
    expect(decision?.action).toBe('rollback');
    expect(readDiscovery(store).remotes.header).toMatchObject({ live: { version: live }, rolledBack: [canary] });
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

  it('steps a healthy canary up through the shares after holding, then promotes it', async () => {
    const { store, live, canary } = await canaryStore();
    let round = 0;
    const decision = await watchCanary({
      store,
      remote: 'header',
      policy,
      readFigures: async () => healthyRound(live, canary, ++round),
      ...quiet,
    });
    expect(decision?.action).toBe('promote');
    expect(readDiscovery(store).remotes.header?.live?.version).toBe(canary);
    expect(
      readHistory(store)
        .slice(2)
        .map((e) => `${e.action}:${e.decision ?? e.percent ?? e.result}`),
    ).toEqual([
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
  });

  it('judges a canary released while it watches from its own start: the healthy count starts again', async () => {
    const { store, live, canary } = await canaryStore();
    let round = 0;
    let next = '';
    const decision = await watchCanary({
      store,
      remote: 'header',
      policy,
      readFigures: async () => {
        round += 1;
        if (round === 2) next = (await release({ store, remote: 'header', dist: build('next'), canary: 10 })).version;
        return [...healthyRound(live, canary, round), ...healthyRound(live, next || canary, round).slice(1)];
      },
      sleep: async () => undefined,
      log: () => undefined,
    });
    expect(decision?.action).toBe('promote');
    const watched = readHistory(store)
      .filter((e) => e.action === 'watch')
      .map((e) => `${e.to === canary ? 'first' : 'next'}:${e.decision}`);
    // The first canary's step, decided as the next one was released, is not applied to it; the
    // next one is judged from its own start (without the reset it would step at once).
    expect(watched.slice(0, 4)).toEqual(['first:hold', 'first:step', 'next:hold', 'next:step']);
    const steps = readHistory(store).filter((e) => e.action === 'step');
    expect(steps.map((e) => e.to)).toEqual([next, next]);
  });

  it('stops at the deadline without a decision: the canary stays at its share, and the history says why', async () => {
    const { store, live, canary } = await canaryStore();
    let round = 0;
    const decision = await watchCanary({
      store,
      remote: 'header',
      policy: { ...policy, margin: 0.01, deadlineIntervals: 6 },
      readFigures: async () => healthyRound(live, canary, ++round),
      ...quiet,
    });
    expect(decision?.action).toBe('inconclusive');
    expect(readDiscovery(store).remotes.header?.canary).toMatchObject({ version: canary, percent: 50 });
    const last = readHistory(store).at(-1);
    expect(last).toMatchObject({ action: 'watch', decision: 'inconclusive', percent: 50 });
    expect(last?.reason).toMatch(/^no decision after 6 evaluations: .*The canary stays at 50 %/);
  });

  it('goes on from the history when started again: it decides as a watcher that never stopped', async () => {
    const run = async (stopAfter: number | null) => {
      const { store, live, canary } = await canaryStore();
      let round = 0;
      const readFigures = async () => healthyRound(live, canary, ++round);
      if (stopAfter !== null) {
        let sleeps = 0;
        const dies = async () => {
          if (++sleeps > stopAfter) throw new Error('killed');
        };
        await expect(
          watchCanary({ store, remote: 'header', policy, readFigures, ...quiet, sleep: dies }),
        ).rejects.toThrow('killed');
      }
      await watchCanary({ store, remote: 'header', policy, readFigures, ...quiet });
      return readHistory(store)
        .slice(2)
        .map((e) => `${e.action}:${e.decision ?? e.percent ?? e.result}`);
    };
    const whole = await run(null);
    expect(whole.at(-1)).toBe('promote:live');
    // Stopped after 4 evaluations (at 25 %, its hold count in memory would be lost), then started again.
    expect(await run(4)).toEqual(whole);
  });

  it('stops when the canary is ended by hand, and keeps watching through an API that does not answer', async () => {
    const { store } = await canaryStore();
    const said: string[] = [];
    let calls = 0;
    const decision = await watchCanary({
      store,
      remote: 'header',
      policy,
      readFigures: async () => {
        calls += 1;
        if (calls === 1) throw new Error('connect ECONNREFUSED');
        const { rollback } = await import('./store.mjs');
        await rollback({ store, remote: 'header' });
        return [];
      },
      sleep: async () => undefined,
      log: (line) => said.push(line),
    });
    expect(decision).toBeNull();
    expect(said[0]).toBe('figures unavailable (connect ECONNREFUSED): trying again next interval');
    expect(said.at(-1)).toBe('header has no canary under way any more: stopped watching');
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
    expect(lines[1]).toMatch(/^ {2}header aaaaaaaaaaaa live\s+200\s+1\.0 %\s+1500 ms\s+100 ms\s+0\.000$/);
    expect(lines[2]).toMatch(/^ {2}header bbbbbbbbbbbb canary 10 %\s+20\s+10\.0 %\s+1700 ms/);
    expect(lines[3]).toMatch(/canary - live\s+\+9\.0 pt\s+\+200 ms\s+\+0 ms\s+\+0\.000$/);
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
