import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readDiscovery, readHistory, release } from './store.mjs';
import { fakeBuild, headerFigures, tempDirs, testPolicy, webhookReceiver } from './testing.js';
import { canaryState, serviceRuns, setWebhook } from './watch.mjs';

// The watcher service as the deployments run it (issue 39, item 5): `node watcher-service.mjs`
// as a process, its figures from a stand-in for the API's operator route, killed (SIGKILL) in the
// middle of a canary and started again; two at once; the deadline; `pnpm release --watch`
// following it, closed, and taking over when it is gone.
const tmp = tempDirs();
const TOKEN = 'test-admin-token';
// Evaluations a few ticks apart, as a service would make them.
const policy = { ...testPolicy, intervalSeconds: 0.05 };
const figures = headerFigures;

/** The evaluations recorded of the canary under way: the stand-in API answers the figures of the next one. */
const evaluated = (store: string) => canaryState(readDiscovery(store), readHistory(store), 'header')?.looks.length ?? 0;

/** Healthy figures after `round` intervals (100 loads a side each, 1 % failed), or failing ones. */
const healthy = (live: string, canary: string, round: number) => [
  figures(live, 100 * round, round),
  figures(canary, 100 * round, round),
];
const failing = (live: string, canary: string, round: number) => [
  figures(live, 100 * round, 0),
  figures(canary, 30 * round, 15 * round),
];

type Shape = typeof healthy;

const children: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/**
 * A stand-in for the API's GET /internal/rum/figures on loopback: the figures of the store's next
 * evaluation, so every watcher reads the same evidence at the same step. `hold(round)` may keep
 * an answer back (a watcher killed while it reads its figures).
 */
async function fakeApi(store: string, shape: Shape, hold?: (round: number) => Promise<void> | undefined) {
  const requests: number[] = [];
  const server = createServer((req, res) => {
    if (!req.url?.startsWith('/internal/rum/figures') || req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    const round = evaluated(store) + 1;
    requests.push(round);
    const { live, canary } = readDiscovery(store).remotes.header ?? {};
    void (async () => {
      await hold?.(round);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ since: '', series: [], figures: shape(live?.version ?? '', canary?.version ?? '', round) }),
      );
    })();
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A child process with its output kept and its exit awaited. */
function started(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((done) =>
    child.on('exit', (code, signal) => done(code ?? signal ?? 'unknown')),
  );
  return { child, output: () => output, exited };
}

/** What the processes get of this one's environment: nothing that names another store or API. */
function baseEnv(): NodeJS.ProcessEnv {
  const {
    RELEASES_DIR: _store,
    API_INTERNAL_URL: _internal,
    PLATFORM_API_URL: _api,
    ADMIN_TOKEN: _token,
    ...rest
  } = process.env;
  return rest;
}

const service = (store: string, api: string) =>
  started([join(import.meta.dirname, 'watcher-service.mjs')], {
    ...baseEnv(),
    RELEASES_DIR: store,
    API_INTERNAL_URL: api,
    ADMIN_TOKEN: TOKEN,
    WATCHER_TICK_MS: '20',
  });

/** `pnpm release header --watch`; with no `api`, one that cannot be reached (it could not judge). */
const followCli = (store: string, api = 'http://127.0.0.1:9', ...options: string[]) =>
  started([join(import.meta.dirname, 'cli.mjs'), 'release', 'header', '--watch', ...options], {
    ...baseEnv(),
    RELEASES_DIR: store,
    PLATFORM_API_URL: api,
    ADMIN_TOKEN: TOKEN,
  });

async function until(what: string, check: () => boolean, timeoutMs = 20_000) {
  await vi.waitFor(
    () => {
      if (!check()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 5 },
  );
}

/** When the service last wrote its heartbeat: at the start of each tick, and after each remote's step. */
const beatTime = (store: string) =>
  (JSON.parse(readFileSync(join(store, '.watcher.json'), 'utf8')) as { time: string }).time;

/** Waits until the service has written `beats` more heartbeats: every second one ends a whole tick's step. */
async function heartbeats(store: string, beats: number) {
  const seen = new Set([beatTime(store)]);
  await until(`${beats} more heartbeats`, () => seen.add(beatTime(store)).size > beats);
}

/** A live header and its canary at 10 %, released with the watcher's policy (`--canary 10 --watch`). */
async function canaryStore(watched = policy) {
  const store = tmp('store');
  const live = await release({ store, remote: 'header', dist: fakeBuild(tmp, 'live') });
  const canary = await release({
    store,
    remote: 'header',
    dist: fakeBuild(tmp, 'canary'),
    canary: 10,
    policy: watched,
  });
  return { store, live: live.version, canary: canary.version };
}

const decided = (store: string) => !readDiscovery(store).remotes.header?.canary;

/** The history from the canary on: every evaluation with its figures and evidence, and each action, times left out. */
const record = (store: string) =>
  readHistory(store)
    .slice(2)
    .map(({ time: _time, reason, ...rest }) => ({ ...rest, reason: reason?.replace(/^watcher: /, '') }));

/** The service alone, never stopped, on healthy figures: what every other run must match. */
async function uninterrupted() {
  const { store } = await canaryStore();
  const api = await fakeApi(store, healthy);
  const watcher = service(store, api.url);
  await until('the promotion', () => decided(store));
  watcher.child.kill('SIGTERM');
  expect(await watcher.exited).toBe(0);
  return record(store);
}

describe('the watcher service', () => {
  it('killed mid-canary and started again, decides as it would have, on the same evidence', async () => {
    const whole = await uninterrupted();
    expect(whole.filter((e) => e.action === 'watch').map((e) => `${e.percent}:${e.decision}`)).toEqual([
      '10:hold',
      '10:step',
      '25:hold',
      '25:step',
      '50:hold',
      '50:promote',
    ]);

    const { store } = await canaryStore();
    // Killed while it reads the figures of its 3rd and its 5th evaluation (the first answer of
    // each kept back until it is dead), and once more wherever it is after the 4th is recorded.
    const heldBack = new Set([3, 5]);
    let reading: number | null = null;
    const api = await fakeApi(store, healthy, (round) => {
      if (!heldBack.delete(round)) return undefined;
      reading = round;
      return new Promise(() => undefined);
    });
    let watcher = service(store, api.url);
    const kill = async () => {
      watcher.child.kill('SIGKILL');
      expect(await watcher.exited).toBe('SIGKILL');
      expect(decided(store)).toBe(false);
      watcher = service(store, api.url);
    };
    await until('the 3rd evaluation under way', () => reading === 3);
    expect(evaluated(store)).toBe(2);
    await kill();
    await until('the 4th evaluation', () => evaluated(store) >= 4);
    await kill();
    await until('the 5th evaluation under way', () => reading === 5);
    await kill();
    await until('the promotion', () => decided(store));
    watcher.child.kill('SIGTERM');
    expect(await watcher.exited).toBe(0);

    expect(record(store)).toEqual(whole);
    expect(api.requests.filter((round) => round === 3).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('two services at once never append the same evaluation twice', async () => {
    const whole = await uninterrupted();
    const { store } = await canaryStore();
    // Slow answers, so that both are often reading the figures of the same evaluation.
    const api = await fakeApi(store, healthy, () => new Promise((done) => setTimeout(done, 15)));
    const both = [service(store, api.url), service(store, api.url)];
    await until('the promotion', () => decided(store));
    for (const one of both) one.child.kill('SIGTERM');
    expect(await Promise.all(both.map((one) => one.exited))).toEqual([0, 0]);
    expect(record(store)).toEqual(whole);
    // They did race: more reads than evaluations, each read for an evaluation someone recorded.
    const evaluations = whole.filter((e) => e.action === 'watch').length;
    expect(api.requests.length).toBeGreaterThan(evaluations);
    expect(new Set(api.requests).size).toBe(evaluations);
  }, 60_000);

  it('at the deadline records one inconclusive evaluation, then leaves the canary held', async () => {
    const { store, canary } = await canaryStore({ ...policy, margin: 0.01, deadlineIntervals: 4, atDeadline: 'hold' });
    const api = await fakeApi(store, healthy);
    const watcher = service(store, api.url);
    await until('the deadline', () => readHistory(store).some((e) => e.decision === 'inconclusive'));
    const requests = api.requests.length;
    // Many ticks later it still runs, and has neither read nor recorded anything more.
    await heartbeats(store, 10);
    expect(serviceRuns(store)).toBe(true);
    expect(api.requests).toHaveLength(requests);
    const evaluations = readHistory(store).filter((e) => e.action === 'watch');
    expect(evaluations.map((e) => e.decision)).toEqual(['hold', 'step', 'hold', 'inconclusive']);
    expect(readDiscovery(store).remotes.header?.canary).toMatchObject({ version: canary, percent: 25 });
    watcher.child.kill('SIGTERM');
    expect(await watcher.exited).toBe(0);
    // Stopped, it takes its heartbeat with it: `--watch` judges by itself at once.
    expect(serviceRuns(store)).toBe(false);
  }, 30_000);

  it('goes on evaluating while the API fails and the webhook it paged never answers; the page is recorded failed at its timeout', async () => {
    const { store, live, canary } = await canaryStore();
    const api = createServer((_req, res) => res.writeHead(503).end());
    const hook = await webhookReceiver('hang');
    servers.push(api);
    await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
    await setWebhook({ store, remote: 'header', url: hook.url });
    const watcher = service(store, `http://127.0.0.1:${(api.address() as AddressInfo).port}`);
    const unreadable = () => readHistory(store).filter((e) => e.action === 'unreadable');
    await until('the page', () => hook.calls.length === 1);
    // Paged at the 3rd; the service goes on trying every interval while the call hangs: the
    // receiver still holds it open, and its end (recorded whether answered or timed out) is not.
    await until('3 more unreadable evaluations', () => unreadable().length >= 6);
    expect(hook.held()).toBe(1);
    expect(readHistory(store).filter((e) => e.action === 'webhook')).toHaveLength(0);
    await until('the call recorded', () => readHistory(store).some((e) => e.action === 'webhook'), 15_000);
    expect(readHistory(store).find((e) => e.action === 'webhook')).toMatchObject({
      kind: 'blind',
      result: 'failed',
      from: live,
      to: canary,
      reason: expect.stringMatching(/did not answer within 5000 ms$/),
    });
    expect(hook.calls).toHaveLength(1);
    expect(unreadable()[0]?.reason).toMatch(/answered 503$/);
    watcher.child.kill('SIGTERM');
    expect(await watcher.exited).toBe(0);
  }, 30_000);

  it('`pnpm release --watch` follows the service and exits with its decision (1: rolled back)', async () => {
    const { store, live, canary } = await canaryStore();
    let following = false;
    const api = await fakeApi(store, failing, () =>
      until('the command following', () => following, 30_000).catch(() => undefined),
    );
    const watcher = service(store, api.url);
    await until('the service', () => serviceRuns(store));
    // It cannot reach the API (port 9): every evaluation it prints is the service's.
    const cli = followCli(store);
    await until('the command following', () => cli.output().includes('the watcher service judges'));
    following = true;
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toContain(
      "the watcher service judges header's canary: following its evaluations (closing this does not stop them)",
    );
    expect(cli.output()).toMatch(new RegExp(`header canary ${canary} at 10 %: rollback: error rate`));
    expect(cli.output()).toMatch(/header's canary was rolled back: error rate 50\.0 % against live's 0\.0 %/);
    expect(cli.output()).not.toContain('figures unavailable');
    expect(readDiscovery(store).remotes.header).toMatchObject({ live: { version: live }, rolledBack: [canary] });
    watcher.child.kill('SIGTERM');
  }, 30_000);

  it('closing `pnpm release --watch` does not stop the service judging the canary', async () => {
    const { store, canary } = await canaryStore();
    let following = false;
    let closed = false;
    // Nothing is decided before the command follows; the 3rd evaluation waits until it is closed.
    const api = await fakeApi(store, healthy, (round) =>
      until('the command following, then closed', () => (round >= 3 ? closed : following), 30_000).catch(
        () => undefined,
      ),
    );
    const watcher = service(store, api.url);
    await until('the service', () => serviceRuns(store));
    const cli = followCli(store);
    await until('the command following', () => cli.output().includes('the watcher service judges'));
    following = true;
    await until('two evaluations printed', () => cli.output().includes(`header canary ${canary} at 10 %: step`));
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(130);
    expect(cli.output()).toContain("stopped following: the watcher service goes on judging header's canary");
    closed = true;
    await until('the promotion', () => decided(store));
    expect(readDiscovery(store).remotes.header?.live?.version).toBe(canary);
    watcher.child.kill('SIGTERM');
  }, 30_000);

  it('`pnpm release --watch` judges by itself once the service is killed, and decides as the service would have', async () => {
    const whole = await uninterrupted();
    const { store } = await canaryStore();
    let killed = false;
    const api = await fakeApi(store, healthy, (round) =>
      round === 3 && !killed ? new Promise(() => undefined) : undefined,
    );
    const watcher = service(store, api.url);
    await until('the service', () => serviceRuns(store));
    const cli = followCli(store, api.url);
    await until('the command following', () => cli.output().includes('the watcher service judges'));
    await until('the 3rd evaluation under way', () => api.requests.includes(3));
    watcher.child.kill('SIGKILL');
    expect(await watcher.exited).toBe('SIGKILL');
    killed = true;
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toMatch(/no watcher service runs on this store: judging header's canary here/);
    expect(cli.output()).toContain("header's canary is promoted: live for every browser");
    expect(record(store)).toEqual(whole);
  }, 60_000);

  it('`pnpm release --watch --deadline n` watches a held canary again from the same evidence, its other options kept (3: inconclusive)', async () => {
    const { store } = await canaryStore({ ...policy, margin: 0.01, deadlineIntervals: 4, atDeadline: 'hold' });
    const api = await fakeApi(store, healthy);
    const first = followCli(store, api.url);
    expect(await first.exited).toBe(3);
    expect(first.output()).toMatch(/header's canary is undecided, held at 25 %: no decision after 4 evaluations/);
    const again = followCli(store, api.url, '--deadline', '6');
    expect(await again.exited).toBe(3);
    expect(again.output()).toMatch(/header's canary is undecided, held at 50 %: no decision after 6 evaluations/);
    const given = readHistory(store).filter((e) => e.action === 'policy');
    expect(given.map((e) => e.policy)).toEqual([{ ...policy, margin: 0.01, deadlineIntervals: 6, atDeadline: 'hold' }]);
    expect(
      readHistory(store)
        .filter((e) => e.action === 'watch')
        .map((e) => e.decision),
    ).toEqual(['hold', 'step', 'hold', 'inconclusive', 'step', 'inconclusive']);
  }, 30_000);
});
