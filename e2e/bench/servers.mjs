// What the benchmarks start on loopback: the API on a fresh SQLite database with the demo data.
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** The key the bench's page servers sign beacon tokens with, and its API checks. */
export const BENCH_RUM_TOKEN_KEY = 'bench-rum-token-key-0123456789abcdef';

/**
 * The API (its development entry, as `npm start` runs it) on `port`, its database in `dataDir`.
 * @param {{ port: number, dataDir: string, allowedOrigins: string[] }} options
 */
export function startApi({ port, dataDir, allowedOrigins }) {
  const origin = `http://localhost:${port}`;
  return spawn(join(ROOT, 'api/node_modules/.bin/tsx'), [join(ROOT, 'api/src/main.ts')], {
    env: {
      ...process.env,
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
      API_PUBLIC_ORIGIN: origin,
      API_ALLOWED_ORIGINS: allowedOrigins.join(','),
      DATABASE_PATH: join(dataDir, 'db.sqlite'),
      ADMIN_TOKEN: 'bench-admin-token',
      // Pages report as in production: a token from their page server, beacons the API counts.
      RUM_TOKEN_KEY: BENCH_RUM_TOKEN_KEY,
      RUM_LOADS_PER_HOUR: '100000',
      RUM_BROWSERS_PER_VERSION_PER_DAY: '100000',
      RUM_LOADS_PER_BROWSER_PER_HOUR: '100000',
      SEED_DEMO: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * Resolves once the demo's photos, videos and covers are made (the media pipeline makes them
 * after the API starts): what is measured is what a visitor gets once it has. Fails after `ms`.
 * @param {string} api the API's origin
 */
export async function waitForDemoMedia(api, ms = 240_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const events = await (await fetch(`${api}/v2/events?limit=20`)).json();
    const galleries = await Promise.all(
      events.events.map(async (e) => (await fetch(`${api}/v2/events/${e.eventIdentifier}`)).json()),
    );
    // The seed's items (ci-photo-NNN, ci-video-NNN), not those a test adds in a state of its own.
    const seeded = (i) => /^ci-(photo|video)-\d+$/.test(i.contentIdentifier);
    // The users' pictures are queued first and take a moment each: one user's made, the rest are (or soon will be) too.
    const mia = await (await fetch(`${api}/v2/profiles/mia`)).json();
    const done =
      mia.profile.profilePicture !== null &&
      events.events.every((e) => e.cover !== null) &&
      galleries.every((g) => g.contentItems.every((i) => !seeded(i) || !i.processing));
    if (done) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the demo media were not made in ${ms} ms`);
}

/** Resolves once `url` answers 2xx; fails after `ms`. @param {string} url */
export async function waitFor(url, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

/**
 * The API at `apiOrigin` behind a proxy that holds every call `state.ms` (changeable) before
 * passing it on. Each call is noted: its path, whether a server (Node's fetch) or a browser sent
 * it, and whether it was answered or given up by its sender first.
 * @param {string} apiOrigin @param {number} ms
 */
export async function delayingApi(apiOrigin, ms) {
  const state = { ms };
  /** @type {{ path: string, from: 'server' | 'browser', outcome: 'waiting' | 'answered' | 'abandoned' }[]} */
  const calls = [];
  const api = new URL(apiOrigin);
  const server = createServer((req, res) => {
    /** @type {(typeof calls)[number]} */
    const call = {
      path: req.url ?? '',
      from: /^node$|undici/.test(req.headers['user-agent'] ?? 'node') ? 'server' : 'browser',
      outcome: 'waiting',
    };
    calls.push(call);
    const timer = setTimeout(() => {
      const upstream = request(
        { host: api.hostname, port: api.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          call.outcome = 'answered';
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    }, state.ms);
    res.on('close', () => {
      if (call.outcome !== 'waiting') return;
      call.outcome = 'abandoned';
      clearTimeout(timer);
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', () => done(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { state, calls, server, origin: `http://localhost:${port}` };
}
