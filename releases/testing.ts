import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { DEFAULT_POLICY } from './canary.mjs';
import type { VersionFigures } from './figures.mjs';

/**
 * The watcher's policy for tests: a few hundred loads decide (wide margins; the judge's own sizes
 * are canary.test.ts's subject), evaluations are due at once, and no bake after promotion (the
 * canary's decisions are most tests' subject; the bake is bake.test.ts's).
 */
export const testPolicy = {
  ...DEFAULT_POLICY,
  minLoads: 10,
  holdIntervals: 2,
  steps: [25, 50],
  intervalSeconds: 0,
  margin: 0.05,
  lcpMargin: 1,
  inpMargin: 1,
  bakeIntervals: 0,
};

/**
 * The header's figures for one version: `loads` page loads, `errorLoads` of them failed, each
 * from a browser of its own (so as many browsers, as many failed).
 */
export const headerFigures = (version: string, loads: number, errorLoads: number, lcp = 1500): VersionFigures => ({
  remote: 'header',
  version,
  loads,
  errorLoads,
  errorRate: errorLoads / loads,
  browsers: loads,
  errorBrowsers: errorLoads,
  p75: { lcp, inp: 100, cls: 0, ttfb: 200 },
  lcpOwnedShare: 1,
  topError: null,
});

/** A figures reader for a healthy canary: each read is one interval more (100 loads a side, 1 % failed). */
export function healthyReads(live: string, canary: string) {
  let round = 0;
  return async () => {
    round += 1;
    return [headerFigures(live, 100 * round, round), headerFigures(canary, 100 * round, round)];
  };
}

/** Each sleep lets the event loop turn, so that a watcher that never ends fails on the test's timeout. */
export const quiet = { sleep: () => new Promise<void>((done) => setImmediate(done)), log: () => undefined };

/** Temporary folders for a test file, removed after each test. */
export function tempDirs(): (name: string) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (name) => {
    const dir = mkdtempSync(join(tmpdir(), `${name}-`));
    dirs.push(dir);
    return dir;
  };
}

/** A remote's build in a new temporary folder: a manifest, an entry and a chunk whose text says which build it is. */
export function fakeBuild(tmp: (name: string) => string, label: string): string {
  const dist = tmp('dist');
  writeFileSync(
    join(dist, 'mf-manifest.json'),
    JSON.stringify({ id: 'header', name: 'header', metaData: { buildInfo: { buildName: 'mf-header' } }, exposes: [] }),
  );
  writeFileSync(join(dist, 'remoteEntry.js'), 'var header;');
  mkdirSync(join(dist, 'static'));
  writeFileSync(join(dist, 'static', 'chunk.js'), `export const label = ${JSON.stringify(label)};`);
  return dist;
}

/** What a webhook receiver does with a call: answer 204, answer 500, or never answer. */
export type Receiving = 'ok' | 'fail' | 'hang';

/**
 * A team's webhook receiver on loopback (node:http, as a real one would be reached): it keeps the
 * JSON body of every call and answers as `receiving` says (changeable between calls). `held()` is
 * how many calls it has received and still holds open, unanswered, their caller still waiting.
 * Closed after each test, hanging calls included.
 */
export async function webhookReceiver(receiving: Receiving = 'ok') {
  const calls: Record<string, unknown>[] = [];
  const state = { receiving };
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      calls.push(JSON.parse(body) as Record<string, unknown>);
      if (state.receiving === 'ok') res.writeHead(204).end();
      if (state.receiving === 'fail') res.writeHead(500).end('down');
      if (state.receiving !== 'hang') return;
      // Until the caller gives up (its timeout closes the connection).
      open.add(res);
      res.on('close', () => open.delete(res));
    });
  });
  receivers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/team-secret`, calls, state, held: () => open.size };
}

const receivers: Server[] = [];
afterEach(async () => {
  for (const server of receivers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});
