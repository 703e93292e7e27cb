import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeBuild, healthyReads, tempDirs, testPolicy } from './testing.js';
import { DEFAULT_POLICY } from './canary-policy.mjs';
import { storedPolicy } from './remote-policy.mjs';
import { readDiscovery, readHistory, release } from './store.mjs';
import { canaryState, watchStep, watchWith } from './watch.mjs';

// A canary is judged under the rule it was first watched under (alphas, margins): its evidence is
// a product over every evaluation, and a watcher started again with another rule would otherwise
// judge all of it again at once.
const tmp = tempDirs();

/** A canary at its last share whose rule needs more evidence than a few evaluations give: it holds. */
const strict = { ...testPolicy, steps: [], margin: 0.001, relativeMargin: 0.01, deadlineIntervals: 50 };
/** What a watcher started again might be given: under it, the same figures would promote at once. */
const lax = {
  ...strict,
  alpha: 0.4,
  promoteAlpha: 0.4,
  margin: 0.5,
  relativeMargin: 2,
  minLoads: 1,
  deadlineIntervals: 60,
};

async function canaryStore(policy: typeof strict | null) {
  const store = tmp('store');
  await release({ store, remote: 'header', dist: fakeBuild(tmp, 'live') });
  await release({ store, remote: 'header', dist: fakeBuild(tmp, 'canary'), canary: 10, ...(policy ? { policy } : {}) });
  const state = canaryState(readDiscovery(store), readHistory(store), 'header');
  if (!state) throw new Error('no canary');
  return { store, live: state.live, canary: state.version };
}

describe("a canary's rule", () => {
  it('stays the one it started with when a watcher is given another: the new pace and deadline apply, not the new alpha or margins', async () => {
    const { store, live, canary } = await canaryStore(strict);
    const readFigures = healthyReads(live, canary);
    for (let i = 0; i < 3; i++) await watchStep({ store, remote: 'header', readFigures, log: () => undefined });
    await watchWith({ store, remote: 'header', policy: lax });
    const { policy } = canaryState(readDiscovery(store), readHistory(store), 'header')!;
    expect(policy).toEqual({ ...strict, deadlineIntervals: 60 });
    await watchStep({ store, remote: 'header', readFigures, log: () => undefined });
    const evaluations = readHistory(store).filter((e) => e.action === 'watch');
    expect(evaluations.map((e) => e.decision)).toEqual(['hold', 'hold', 'hold', 'hold']);
    expect(readDiscovery(store).remotes.header?.canary?.version).toBe(canary);
    // Each evaluation records the policy it was decided under.
    expect(evaluations.map((e) => e.policy?.deadlineIntervals)).toEqual([50, 50, 50, 60]);
    expect(evaluations.every((e) => e.policy?.margin === strict.margin)).toBe(true);
  });

  it('of a canary released unwatched is the first policy it is given', async () => {
    const { store } = await canaryStore(null);
    await watchWith({ store, remote: 'header', policy: strict });
    await watchWith({ store, remote: 'header', policy: lax });
    expect(canaryState(readDiscovery(store), readHistory(store), 'header')?.policy).toEqual({
      ...strict,
      deadlineIntervals: 60,
    });
  });

  it('of the next canary is what it is released with', async () => {
    const { store } = await canaryStore(strict);
    await watchWith({ store, remote: 'header', policy: lax });
    await release({ store, remote: 'header', dist: fakeBuild(tmp, 'next'), canary: 10, policy: lax });
    expect(canaryState(readDiscovery(store), readHistory(store), 'header')?.policy).toEqual(lax);
  });
});

describe("a remote's policy in the store", () => {
  const cli = (store: string, ...args: string[]) =>
    spawnSync(process.execPath, [join(import.meta.dirname, 'cli.mjs'), 'release', 'header', ...args], {
      env: { ...process.env, RELEASES_DIR: store },
      encoding: 'utf8',
    });

  it('is what its next canaries start from, each change on top of the last; a canary under way keeps its own', async () => {
    const { store } = await canaryStore(strict);
    expect(storedPolicy(store, 'header')).toEqual(DEFAULT_POLICY);
    expect(cli(store, '--policy', '--relative-margin', '0.1', '--deadline', '9').status).toBe(0);
    expect(cli(store, '--policy', '--alpha', '0.01').status).toBe(0);
    expect(storedPolicy(store, 'header')).toEqual({
      ...DEFAULT_POLICY,
      relativeMargin: 0.1,
      deadlineIntervals: 9,
      alpha: 0.01,
      promoteAlpha: 0.01,
    });
    expect(canaryState(readDiscovery(store), readHistory(store), 'header')?.policy).toEqual(strict);
    // Another remote's is its own.
    expect(storedPolicy(store, 'media')).toEqual(DEFAULT_POLICY);
    const refused = cli(store, '--policy', '--relative-margin', 'lots');
    expect([refused.status, refused.stderr.trim()]).toEqual([
      2,
      "--relative-margin takes a number from 0 to 100, not 'lots'",
    ]);
  });
});
