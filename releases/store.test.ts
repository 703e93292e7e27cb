import { createHash } from 'node:crypto';
import { execFile, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import {
  contentVersion,
  promote,
  readDiscovery,
  readHistory,
  readRecord,
  recordPath,
  release,
  rollback,
  setCanaryShare,
  storeBuild,
  withStoreLock,
} from './store.mjs';
import { LOCK_REFRESH_MS } from './lock.mjs';
import { fakeBuild, tempDirs } from './testing.js';
import { serverCodeTrust } from 'page-server/render-page';
import { serveApp, stopServer } from 'page-server/serve';
import { serverBuilds } from 'page-server/server-builds';

const tmp = tempDirs();
const build = (label: string) => fakeBuild(tmp, label);

async function canaryStore() {
  const store = tmp('store');
  await release({ store, remote: 'header', dist: build('live') });
  const canary = await release({ store, remote: 'header', dist: build('canary'), canary: 10 });
  return { store, canary: canary.version };
}

describe('the release store', () => {
  it('derives the version from the content: the same build the same version, any change a new one', () => {
    expect(contentVersion(build('one'))).toBe(contentVersion(build('one')));
    expect(contentVersion(build('one'))).not.toBe(contentVersion(build('two')));
    expect(contentVersion(build('one'))).toMatch(/^[0-9a-f]{12}$/);
  });

  it('keeps every version and never overwrites one; the stored manifest names its version', () => {
    const store = tmp('store');
    const first = storeBuild(store, 'header', build('one'));
    const again = storeBuild(store, 'header', build('one'));
    const second = storeBuild(store, 'header', build('two'));
    expect(first.added).toBe(true);
    expect(again).toEqual({ ...first, added: false });
    expect(second.version).not.toBe(first.version);
    expect(readFileSync(join(first.dir, 'static', 'chunk.js'), 'utf8')).toContain('"one"');
    expect(JSON.parse(readFileSync(join(second.dir, 'mf-manifest.json'), 'utf8')).metaData.buildInfo).toEqual({
      buildName: 'mf-header',
      buildVersion: second.version,
    });
  });

  it("stores a remote's server build with its browser build, in the same version, its manifest entry kept", () => {
    const store = tmp('store');
    const dist = build('one');
    const browserOnly = contentVersion(dist);
    const manifestFile = join(dist, 'mf-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { metaData: Record<string, unknown> };
    manifest.metaData.ssrRemoteEntry = { name: 'remoteEntry.js', path: 'server', type: 'commonjs-module' };
    manifest.metaData.ssrFiles = ['remoteEntry.js'];
    writeFileSync(manifestFile, JSON.stringify(manifest));
    mkdirSync(join(dist, 'server'));
    writeFileSync(join(dist, 'server', 'remoteEntry.js'), 'module.exports = {};');
    const stored = storeBuild(store, 'header', dist);
    // The server build is part of the version: another server build is another version.
    expect(stored.version).not.toBe(browserOnly);
    expect(readFileSync(join(stored.dir, 'server', 'remoteEntry.js'), 'utf8')).toBe('module.exports = {};');
    const { metaData } = JSON.parse(readFileSync(join(stored.dir, 'mf-manifest.json'), 'utf8'));
    expect(metaData.ssrRemoteEntry).toEqual({ name: 'remoteEntry.js', path: 'server', type: 'commonjs-module' });
    // What the page server will accept of it: the store's own record of the version, beside its
    // folder (never in the manifest, which anyone who rewrites the manifest would rewrite too).
    expect(metaData.serverIntegrity).toBeUndefined();
    const sha = (bytes: Buffer | string) => `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
    const record = {
      remote: 'header',
      version: stored.version,
      manifest: sha(readFileSync(join(stored.dir, 'mf-manifest.json'))),
      server: { 'server/remoteEntry.js': sha('module.exports = {};') },
    };
    expect(JSON.parse(readFileSync(join(store, recordPath('header', stored.version)), 'utf8'))).toEqual(record);
    expect(readRecord(store, 'header', stored.version)).toEqual(record);
    // A version stored before the store kept records gets one, from its files as they are.
    rmSync(join(store, recordPath('header', stored.version)));
    storeBuild(store, 'header', dist);
    expect(readRecord(store, 'header', stored.version)).toEqual(record);
  });

  it('serves a record the page server holds a stored version to: the version as stored is run, a rewritten one refused', async () => {
    const store = tmp('store');
    const dist = build('served');
    const manifestFile = join(dist, 'mf-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { metaData: Record<string, unknown> };
    manifest.metaData.ssrRemoteEntry = { name: 'remoteEntry.js', path: 'server', type: 'commonjs-module' };
    manifest.metaData.ssrFiles = ['remoteEntry.js'];
    writeFileSync(manifestFile, JSON.stringify(manifest));
    mkdirSync(join(dist, 'server'));
    writeFileSync(join(dist, 'server', 'remoteEntry.js'), 'module.exports = {};');
    const { version, dir } = storeBuild(store, 'header', dist);
    const server = await serveApp({ dir: store, port: 0, log: false, env: {} });
    try {
      const storeUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const trust = serverCodeTrust({ discoveryUrl: `${storeUrl}/discovery.json` });
      const manifestUrl = `${storeUrl}/header/${version}/mf-manifest.json`;
      const folderOf = () =>
        serverBuilds({ dir: tmp('builds') }).folderOf(manifestUrl, undefined, {
          record: trust(manifestUrl) ?? undefined,
        });
      expect(readFileSync(join(await folderOf(), 'server', 'remoteEntry.js'), 'utf8')).toBe('module.exports = {};');
      // Whoever rewrites the stored manifest (here with a SHA-256 of its own for its files) is refused.
      const stored = JSON.parse(readFileSync(join(dir, 'mf-manifest.json'), 'utf8'));
      stored.metaData.serverIntegrity = { 'server/remoteEntry.js': 'sha256-forged' };
      writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify(stored, null, 2));
      await expect(folderOf()).rejects.toThrow(/not the manifest released/);
    } finally {
      await stopServer(server);
    }
  });

  it('keeps a record of every version it stores, released or refused by the gate, before the version is there', async () => {
    const store = tmp('store');
    const refused = await release({
      store,
      remote: 'header',
      dist: build('refused'),
      // The gate's server render pins the candidate: its record must be there when the gate runs.
      gate: ({ version }) => (readRecord(store, 'header', version) ? 'refused on purpose' : 'no record yet'),
    });
    expect(refused).toMatchObject({ result: 'refused', reason: 'refused on purpose' });
    const live = await release({ store, remote: 'header', dist: build('live') });
    expect(readRecord(store, 'header', live.version)).toMatchObject({
      remote: 'header',
      version: live.version,
      server: {},
    });
  });

  it('points the discovery document at a release the gate passes, with the manifest integrity; a refusal changes nothing live', async () => {
    const store = tmp('store');
    const good = await release({ store, remote: 'header', dist: build('one') });
    expect(good).toMatchObject({ action: 'release', from: null, to: good.version, result: 'live' });
    const live = readDiscovery(store).remotes.header?.live;
    expect(live).toEqual({
      version: good.version,
      manifest: `header/${good.version}/mf-manifest.json`,
      integrity: expect.stringMatching(/^sha256-[A-Za-z0-9+/]+=*$/),
    });

    const bad = await release({
      store,
      remote: 'header',
      dist: build('two'),
      gate: () => 'needs react 20, the shell provides 19.2.0',
    });
    expect(bad).toMatchObject({
      result: 'refused',
      reason: 'needs react 20, the shell provides 19.2.0',
      from: good.version,
    });
    expect(readDiscovery(store).remotes.header?.live).toEqual(live);
    expect(readHistory(store).map((e) => e.result)).toEqual(['live', 'refused']);
    // Both are in the store, and listed: testers may load either where the deployment allows it.
    expect(readDiscovery(store).remotes.header?.versions).toEqual([good.version, bad.version]);
  });

  it('records a release whose smoke load was skipped as such, for good', async () => {
    const store = tmp('store');
    await release({ store, remote: 'header', dist: build('a') });
    await release({ store, remote: 'header', dist: build('b'), smoke: 'skipped' });
    expect(readHistory(store).map((e) => e.smoke)).toEqual([undefined, 'skipped']);
  });

  it('rolls back to the version live before, then to the one before that, and no further', async () => {
    const store = tmp('store');
    const [a, b, c] = [
      await release({ store, remote: 'header', dist: build('a') }),
      await release({ store, remote: 'header', dist: build('b') }),
      await release({ store, remote: 'header', dist: build('c') }),
    ];
    await rollback({ store, remote: 'header' });
    expect(readDiscovery(store).remotes.header?.live?.version).toBe(b.version);
    await rollback({ store, remote: 'header' });
    expect(readDiscovery(store).remotes.header?.live?.version).toBe(a.version);
    await expect(rollback({ store, remote: 'header' })).rejects.toThrow(/no earlier good version/);
    expect(readHistory(store).map((e) => [e.action, e.from, e.to])).toEqual([
      ['release', null, a.version],
      ['release', a.version, b.version],
      ['release', b.version, c.version],
      ['rollback', c.version, b.version],
      ['rollback', b.version, a.version],
    ]);
  });

  it('serves a canary to its share beside the live version; promote makes it live, rollback drops it', async () => {
    const store = tmp('store');
    const a = await release({ store, remote: 'header', dist: build('a') });
    await expect(release({ store, remote: 'header', dist: build('b'), canary: 150 })).rejects.toThrow(/1 to 99/);
    const b = await release({ store, remote: 'header', dist: build('b'), canary: 20 });
    expect(b).toMatchObject({ action: 'canary', result: 'canary', percent: 20, from: a.version, to: b.version });
    expect(readDiscovery(store).remotes.header).toMatchObject({
      live: { version: a.version },
      canary: { version: b.version, percent: 20 },
    });
    // The document carries the manifests of exactly the versions it points at, for the shell's page.
    const manifestOf = (version: string) =>
      JSON.parse(readFileSync(join(store, 'header', version, 'mf-manifest.json'), 'utf8')) as unknown;
    expect(readDiscovery(store).manifests).toEqual({
      [`header/${a.version}/mf-manifest.json`]: manifestOf(a.version),
      [`header/${b.version}/mf-manifest.json`]: manifestOf(b.version),
    });

    await rollback({ store, remote: 'header' });
    // The document names the version rolled back, so pages still running it leave it (issue 27, item 6).
    expect(readDiscovery(store).remotes.header).toEqual({
      versions: [a.version, b.version],
      live: expect.objectContaining({ version: a.version }),
      rolledBack: [b.version],
    });
    expect(Object.keys(readDiscovery(store).manifests ?? {})).toEqual([`header/${a.version}/mf-manifest.json`]);

    await release({ store, remote: 'header', dist: build('b'), canary: 10 });
    // Released again, it is no longer a rolled-back version; the watcher steps its share up.
    expect(readDiscovery(store).remotes.header?.rolledBack).toBeUndefined();
    await expect(setCanaryShare({ store, remote: 'header', percent: 100 })).rejects.toThrow(/1 to 99/);
    expect(await setCanaryShare({ store, remote: 'header', percent: 50, reason: 'healthy' })).toMatchObject({
      action: 'step',
      to: b.version,
      percent: 50,
      reason: 'healthy',
    });
    expect(readDiscovery(store).remotes.header?.canary?.percent).toBe(50);
    // A change meant for another canary (the watcher judged an earlier one) changes nothing.
    await expect(promote({ store, remote: 'header', canaryVersion: a.version })).rejects.toThrow(
      `header's canary is ${b.version}, not ${a.version}: nothing changed`,
    );
    await expect(rollback({ store, remote: 'header', canaryVersion: a.version })).rejects.toThrow(/nothing changed/);
    expect(readDiscovery(store).remotes.header?.canary?.version).toBe(b.version);
    await promote({ store, remote: 'header' });
    expect(readDiscovery(store).remotes.header).toEqual({
      versions: [a.version, b.version],
      live: expect.objectContaining({ version: b.version }),
    });
    // The promoted version is a good one to come back to; the rolled-back canary never was live.
    await rollback({ store, remote: 'header' });
    expect(readDiscovery(store).remotes.header?.live?.version).toBe(a.version);
    expect(readDiscovery(store).remotes.header?.rolledBack).toEqual([b.version]);
    await expect(setCanaryShare({ store, remote: 'header', percent: 50 })).rejects.toThrow('header has no canary');
    expect(readHistory(store).map((e) => `${e.action}:${e.result}`)).toEqual([
      'release:live',
      'canary:canary',
      'rollback:dropped',
      'canary:canary',
      'step:canary',
      'promote:live',
      'rollback:live',
    ]);
  });

  it('serialises releases started at once from two processes: both land in the history, one after the other', async () => {
    const store = tmp('store');
    const [one, two] = [build('one'), build('two')];
    // Each holds the lock for a while (its gate waits), so without the lock they would interleave.
    // Real time: the two are other processes, with nothing of theirs this test can hold.
    const script = (dist: string) =>
      `import { release } from ${JSON.stringify(join(import.meta.dirname, 'store.mjs'))};
       await release({ store: ${JSON.stringify(store)}, remote: 'header', dist: ${JSON.stringify(dist)}, gate: () => new Promise((r) => setTimeout(() => r(null), 300)) });`;
    const run = (dist: string) => promisify(execFile)(process.execPath, ['--input-type=module', '-e', script(dist)]);
    await Promise.all([run(one), run(two)]);
    const history = readHistory(store);
    expect(history).toHaveLength(2);
    expect(history.map((e) => e.result)).toEqual(['live', 'live']);
    // The second saw the first's version live: they did not overlap.
    expect(history[1]?.from).toBe(history[0]?.to);
    expect(readDiscovery(store).remotes.header?.live?.version).toBe(history[1]?.to);
  });

  it('breaks at once a lock whose holder on this host is dead, and waits for one whose holder lives', async () => {
    const store = tmp('store');
    const lock = join(store, '.lock');
    const owner = (pid: number, host = hostname()) => {
      mkdirSync(lock, { recursive: true });
      writeFileSync(join(lock, 'owner.json'), JSON.stringify({ host, pid, id: 'another process' }));
    };
    // Killed holding it (a watcher service SIGKILLed mid-evaluation): started again, it must not wait 10 minutes.
    owner(spawnSync(process.execPath, ['-e', '']).pid);
    // Taken within one poll (50 ms) of the test's clock: the lock is seconds old, far from its
    // stale age, so only its dead holder can have let it go.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let outcome = 'waiting';
      const taking = withStoreLock(store, () => 'taken').then((taken) => (outcome = taken));
      await vi.advanceTimersByTimeAsync(50);
      expect(outcome).toBe('taken');
      await taking;
    } finally {
      vi.useRealTimers();
    }
    expect(existsSync(lock)).toBe(false);
    // Held by a process that lives (the parent of this test), or on another host: waited for.
    for (const [pid, host] of [
      [process.ppid, hostname()],
      [1, 'another-container'],
    ] as const) {
      owner(pid, host);
      // The waiter's polls of the lock run on the test's clock.
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      try {
        let outcome = 'waiting';
        const waiting = withStoreLock(store, () => 'taken').then((taken) => (outcome = taken));
        await vi.advanceTimersByTimeAsync(400);
        expect(outcome).toBe('waiting');
        rmSync(lock, { recursive: true });
        await vi.advanceTimersByTimeAsync(50);
        expect(await waiting).toBe('taken');
      } finally {
        vi.useRealTimers();
      }
    }
    // One left without its owner (killed between taking and naming it), after a while.
    mkdirSync(lock);
    const old = (Date.now() - 6000) / 1000;
    utimesSync(lock, old, old);
    expect(await withStoreLock(store, () => 'taken')).toBe('taken');
  });

  it("runs store changes inside the lock's work in that lock, not waiting for itself", async () => {
    const { store, canary } = await canaryStore();
    const entry = await withStoreLock(store, () => rollback({ store, remote: 'header', canaryVersion: canary }));
    expect(entry.result).toBe('dropped');
  });

  it('reads the history without a line being appended as it reads', async () => {
    const { store } = await canaryStore();
    const file = join(store, 'history.jsonl');
    appendFileSync(file, '{"time":"2026-');
    expect(readHistory(store)).toHaveLength(2);
    // Read again once whole, and from the start when the file is another one.
    appendFileSync(file, '11-24T12:00:00.000Z","remote":"header","action":"step","percent":20}\n');
    expect(readHistory(store).map((e) => e.action)).toEqual(['release', 'canary', 'step']);
    writeFileSync(file, '{"time":"t","remote":"media","action":"release"}\n');
    expect(readHistory(store).map((e) => e.remote)).toEqual(['media']);
  });

  it('reads every whole line after a writer was killed mid-line: the torn fragment is ended and skipped', async () => {
    const { store } = await canaryStore();
    const file = join(store, 'history.jsonl');
    // A release process killed while it wrote its line.
    appendFileSync(file, '{"time":"2026-11-24T12:00:00.000Z","remote":"hea');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await setCanaryShare({ store, remote: 'header', percent: 30 });
    expect(readHistory(store).map((e) => `${e.action}:${e.percent ?? ''}`)).toEqual([
      'release:',
      'canary:10',
      'step:30',
    ]);
    // The fragment is a line of its own, not the front of the step's.
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('keeps a lock held past its stale age while its holder works: the holder marks it as held', async () => {
    const store = tmp('store');
    const lock = join(store, '.lock');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      await withStoreLock(store, async () => {
        // The work has run 11 minutes (a slow gate): the lock looks as old as an abandoned one.
        const old = (Date.now() - 11 * 60_000) / 1000;
        utimesSync(lock, old, old);
        await vi.advanceTimersByTimeAsync(LOCK_REFRESH_MS);
        expect(Date.now() - statSync(lock).mtimeMs).toBeLessThan(60_000);
      });
    } finally {
      vi.useRealTimers();
    }
    expect(existsSync(lock)).toBe(false);
  });
});
