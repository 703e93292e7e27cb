/**
 * The bounded load's figures on each engine and topology (`pnpm --filter api bench`): SQLite with
 * one instance, PostgreSQL with one, and PostgreSQL with two behind the gateway. Each instance is
 * a process of its own, as deployed; the same HTTP mix as the load test (test/load.test.ts:
 * browse, search, cart, notifications, a log in every fifth round) from 24 virtual users, 10
 * rounds each, without its live subscribers. Prints requests/s, p50/p95/p99 and errors per setup
 * (and writes them as JSON to LOAD_FIGURES_FILE when set). Figures, not a test: nothing here fails
 * on time.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway } from 'api/gateway';
import { ensureDatabase, startPostgres } from 'api/postgres';
import { freePort } from '@marketplace/shared/node/ports';
import { DEMO_PASSWORD } from '../src/db/seed.js';
import { type ApiProcess, startApiProcess } from '../test/processes.js';
import { Browser } from './browser.js';

const USERS = ['clara', 'mia', 'dave', 'olga', 'max', 'leo', 'ivy', 'sam', 'zoe', 'ben', 'ana', 'tom'];
const VIRTUAL_USERS = 24;
const ROUNDS = 10;
const LOGIN_EVERY_ROUNDS = 5;
const EVENTS = ['summer-jazz-night-2026', 'city-marathon-2026', 'tech-meetup-november'];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function measure(url: string) {
  const latencies: number[] = [];
  let errors = 0;
  const timed = async (send: () => Promise<{ status: number }>) => {
    const start = performance.now();
    const status = await send().then(
      (r) => r.status,
      () => 0,
    );
    latencies.push(performance.now() - start);
    if (status === 0 || status >= 400) errors++;
  };
  const sessions = new Map<string, Browser>();
  for (const name of USERS) {
    const browser = new Browser(url);
    await browser.call('login', { login: name, password: DEMO_PASSWORD });
    sessions.set(name, browser);
  }
  const virtualUser = async (n: number) => {
    const name = USERS[n % USERS.length] as string;
    const browser = sessions.get(name) as Browser;
    // What this account may buy (not its own, for sale); the account's virtual users take different items.
    const galleries = await Promise.all(EVENTS.map((eventIdentifier) => browser.call('getEvent', { eventIdentifier })));
    const items = galleries
      .flatMap((g) => g.body.contentItems as { contentIdentifier: string; canAddToCart: boolean }[])
      .filter((i) => i.canAddToCart);
    const item = items[Math.floor(n / USERS.length) % items.length]?.contentIdentifier ?? '';
    for (let round = 0; round < ROUNDS; round++) {
      if (round % LOGIN_EVERY_ROUNDS === 0)
        await timed(() => new Browser(url).call('login', { login: name, password: DEMO_PASSWORD }));
      await timed(() => browser.call('getEvents', { limit: 20 }));
      await timed(() => browser.call('getEvent', { eventIdentifier: 'summer-jazz-night-2026' }));
      await timed(() => browser.call('search', { query: round % 2 ? 'jazz' : 'mia' }));
      await timed(() => browser.call('getPosts', { limit: 20 }));
      await timed(() => browser.call('addCartItem', { identifier: item, itemType: 'CONTENT' }));
      await timed(() => browser.call('getCart'));
      await timed(() => browser.call('removeCartItem', { identifier: item }));
      await timed(() => browser.call('getNotifications'));
      await timed(() => browser.call('getMessageNotifications', { pageNo: 0, limit: 10 }));
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: VIRTUAL_USERS }, (_, n) => virtualUser(n)));
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  const ms = (p: number) => Number(percentile(sorted, p).toFixed(1));
  return {
    requests: latencies.length,
    seconds: Number(seconds.toFixed(2)),
    requestsPerSecond: Math.round(latencies.length / seconds),
    latencyMs: { p50: ms(50), p95: ms(95), p99: ms(99) },
    errors,
  };
}

interface Setup {
  name: string;
  engine: 'sqlite' | 'postgres';
  instances: number;
}
const SETUPS: Setup[] = [
  { name: 'SQLite, one instance', engine: 'sqlite', instances: 1 },
  { name: 'PostgreSQL, one instance', engine: 'postgres', instances: 1 },
  { name: 'PostgreSQL, two instances behind the gateway', engine: 'postgres', instances: 2 },
];

async function run(setup: Setup) {
  const dir = mkdtempSync(join(tmpdir(), 'api-bench-'));
  // PostgreSQL runs as its own user when this runs as root: it must reach its folder.
  chmodSync(dir, 0o755);
  const postgres = setup.engine === 'postgres' ? startPostgres({ dir: join(dir, 'pg'), port: await freePort() }) : null;
  const instances: ApiProcess[] = [];
  let gateway: Awaited<ReturnType<typeof startGateway>> | null = null;
  try {
    const database: Record<string, string> = postgres
      ? { DATABASE_URL: await ensureDatabase(postgres.url, 'platform') }
      : { DATABASE_PATH: join(dir, 'db.sqlite') };
    const ports: number[] = [];
    for (let i = 0; i < setup.instances; i++) {
      const port = await freePort();
      ports.push(port);
      // One after the other: the first migrates and seeds.
      instances.push(
        await startApiProcess(
          {
            ...database,
            MEDIA_DIR: join(dir, 'media'),
            ADMIN_TOKEN: 'bench',
            SEED_DEMO: '1',
            API_INSTANCE: `api-${i + 1}`,
            API_TRUST_PROXY: String(setup.instances > 1),
          },
          port,
        ),
      );
    }
    if (setup.instances > 1)
      gateway = await startGateway({
        port: await freePort(),
        upstreams: ports.map((port) => `127.0.0.1:${port}`),
        workDir: join(dir, 'gateway'),
      });
    const url = gateway?.url ?? (instances[0] as ApiProcess).url;
    return { setup: setup.name, ...(await measure(url)) };
  } finally {
    await gateway?.stop();
    for (const instance of instances) await instance.kill('SIGTERM');
    postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
for (const setup of SETUPS) {
  const result = await run(setup);
  console.log(`[load] ${JSON.stringify(result)}`);
  results.push(result);
}
console.log('\n| setup | requests/s | p50 ms | p95 ms | p99 ms | errors |\n| --- | --- | --- | --- | --- | --- |');
for (const r of results)
  console.log(
    `| ${r.setup} | ${r.requestsPerSecond} | ${r.latencyMs.p50} | ${r.latencyMs.p95} | ${r.latencyMs.p99} | ${r.errors} |`,
  );
if (process.env.LOAD_FIGURES_FILE)
  writeFileSync(
    process.env.LOAD_FIGURES_FILE,
    `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`,
  );
