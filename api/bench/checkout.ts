/**
 * Checkout's figures (`pnpm --filter api bench:checkout`): 200 buyers check out through two API
 * instances on PostgreSQL (each buyer's calls alternate between them), and each payment's webhook
 * arrives at both instances at once and then once more. Prints checkout's and the webhook's p50
 * and p95, and what the database holds after: purchases paid, entitlements, duplicates. Then one
 * buyer's ZIP of 50 originals is streamed from an instance while its resident memory is sampled.
 * Figures, not a test: nothing here fails on time.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureDatabase, startPostgres } from 'api/postgres';
import { freePort } from '@marketplace/shared/node/ports';
import { completedSessionEvent, signLikeStripe } from '../src/payments/testPayments.js';
import { WEBHOOK_PATH } from '../src/payments/routes.js';
import { type ApiProcess, startApiProcess } from '../test/processes.js';
import { startStandInBroker } from '../test/standInBroker.js';
import { Browser } from './browser.js';

const BUYERS = 200;
const CONCURRENCY = 20;
const ZIP_FILES = 50;
const ZIP_FILE_BYTES = 8 * 1024 * 1024;
const SECRET = 'whsec_bench_checkout';
const EVENTS = ['summer-jazz-night-2026', 'city-marathon-2026'];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(1));
};
const timed = async <T>(into: number[], work: () => Promise<T>): Promise<T> => {
  const start = performance.now();
  const result = await work();
  into.push(performance.now() - start);
  return result;
};
const rssBytes = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
};

async function inBatches<T>(count: number, work: (n: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const n = next++;
        results[n] = await work(n);
      }
    }),
  );
  return results;
}

const dir = mkdtempSync(join(tmpdir(), 'checkout-bench-'));
// PostgreSQL runs as its own user (as root, postgres.mjs switches to it): it must reach the folder.
chmodSync(dir, 0o755);
const postgres = startPostgres({ dir: join(dir, 'pg'), port: await freePort() });
const instances: ApiProcess[] = [];
// Two instances on one database meet on an external broker (the stand-in the multi-instance tests use).
const broker = await startStandInBroker();
try {
  const databaseUrl = await ensureDatabase(postgres.url, 'platform');
  const mediaDir = join(dir, 'media');
  for (const name of ['api-1', 'api-2'])
    instances.push(
      await startApiProcess(
        {
          DATABASE_URL: databaseUrl,
          MEDIA_DIR: mediaDir,
          ADMIN_TOKEN: 'bench',
          API_INSTANCE: name,
          TEST_PAYMENTS_WEBHOOK_SECRET: SECRET,
          ...broker.env,
        },
        await freePort(),
      ),
    );
  const [a, b] = instances as [ApiProcess, ApiProcess];
  const visitor = new Browser(a.url);
  const galleries = await Promise.all(EVENTS.map((eventIdentifier) => visitor.call('getEvent', { eventIdentifier })));
  const forSale = galleries
    .flatMap((g) => g.body.contentItems as { contentIdentifier: string; canAddToCart: boolean }[])
    .filter((item) => item.canAddToCart)
    .map((item) => item.contentIdentifier);
  const webhook = (url: string, payload: string) =>
    fetch(`${url}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signLikeStripe(payload, SECRET) },
      body: payload,
    }).then(async (res) => ({ status: res.status, outcome: ((await res.json()) as { outcome?: string }).outcome }));

  const checkoutMs: number[] = [];
  const webhookMs: number[] = [];
  const outcomes = new Map<string, number>();
  let failures = 0;
  const started = performance.now();
  await inBatches(BUYERS, async (n) => {
    const viaA = new Browser(a.url);
    const profileName = `bench-buyer-${n}`;
    const signup = await viaA.call('signup', {
      username: `Bench buyer ${n}`,
      profileName,
      email: `${profileName}@example.com`,
      password: 'bench-pass-2026',
    });
    if (signup.status !== 201) throw new Error(`signup ${signup.status}`);
    // The same session on the other instance.
    const viaB = viaA.at(b.url);
    for (const [i, identifier] of [forSale[n % forSale.length], forSale[(n + 1) % forSale.length]].entries())
      await (i % 2 ? viaB : viaA).call('addCartItem', { identifier, itemType: 'CONTENT' });
    const checkout = await timed(checkoutMs, () => (n % 2 ? viaB : viaA).call('checkout'));
    if (checkout.status !== 200) {
      failures++;
      return;
    }
    const purchase = checkout.body.purchase as { purchaseNumber: string; totalCents: number; currency: string };
    const event = completedSessionEvent({ id: `cs_bench_${n}`, ...purchase, amountCents: purchase.totalCents });
    const answers = await timed(webhookMs, () =>
      Promise.all([webhook(a.url, event.payload), webhook(b.url, event.payload)]),
    );
    answers.push(await timed(webhookMs, () => webhook(a.url, event.payload)));
    for (const answer of answers) outcomes.set(String(answer.outcome), (outcomes.get(String(answer.outcome)) ?? 0) + 1);
  });
  const seconds = (performance.now() - started) / 1000;

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const one = async (text: string) => Number((await client.query<{ n: string }>(text)).rows[0]?.n ?? 0);
  const figures = {
    buyers: BUYERS,
    seconds: Number(seconds.toFixed(1)),
    checkoutMs: { p50: percentile(checkoutMs, 50), p95: percentile(checkoutMs, 95) },
    webhookMs: { p50: percentile(webhookMs, 50), p95: percentile(webhookMs, 95) },
    checkoutFailures: failures,
    webhookOutcomes: Object.fromEntries(outcomes),
    purchasesPaid: await one(
      `SELECT count(*) AS n FROM purchases p JOIN users u ON u.id = p.buyer_id WHERE u.profile_name LIKE 'bench-buyer-%' AND p.status = 'paid'`,
    ),
    itemsBought: await one(
      `SELECT count(*) AS n FROM purchase_items pi JOIN purchases p ON p.id = pi.purchase_id WHERE p.status = 'paid'`,
    ),
    entitlements: await one(`SELECT count(*) AS n FROM entitlements`),
    buyersWithTwoPurchases: await one(
      `SELECT count(*) AS n FROM (SELECT buyer_id FROM purchases GROUP BY buyer_id HAVING count(*) > 1) twice`,
    ),
  };
  console.log(`[checkout] ${JSON.stringify(figures)}`);

  // The ZIP: 50 originals of 8 MB each, owned by one buyer, streamed and read as fast as it comes.
  const zipBuyer = new Browser(a.url);
  await zipBuyer.call('signup', {
    username: 'Zip buyer',
    profileName: 'bench-zip',
    email: 'bench-zip@example.com',
    password: 'bench-pass-2026',
  });
  const originals = join(mediaDir, 'bench-originals');
  mkdirSync(originals, { recursive: true });
  const seller = (await client.query<{ id: number }>(`SELECT id FROM users WHERE profile_name = 'mia'`)).rows[0]?.id;
  const buyer = (await client.query<{ id: number }>(`SELECT id FROM users WHERE profile_name = 'bench-zip'`)).rows[0]
    ?.id;
  const purchaseId = (await client.query<{ id: number }>(`SELECT id FROM purchases LIMIT 1`)).rows[0]?.id;
  const now = new Date().toISOString();
  for (let i = 0; i < ZIP_FILES; i++) {
    writeFileSync(join(originals, `original-${i}.jpg`), Buffer.alloc(ZIP_FILE_BYTES, i));
    await client.query(
      `INSERT INTO content_items (identifier, event_id, owner_id, name, content_type, width, height, file_path, filename, price_cents, created_at)
       VALUES ($1, NULL, $2, $3, 'image/jpeg', 4000, 3000, $4, $5, 1500, $6)`,
      [`bench-original-${i}`, seller, `Original ${i}`, `bench-originals/original-${i}.jpg`, `original-${i}.jpg`, now],
    );
    await client.query(
      `INSERT INTO entitlements (user_id, content_identifier, purchase_id, granted_at) VALUES ($1, $2, $3, $4)`,
      [buyer, `bench-original-${i}`, purchaseId, now],
    );
  }
  await client.end();
  const owned = await zipBuyer.call('getPurchases');
  const zipUrl = owned.body.downloadAllUrl as string;
  const pid = a.pid as number;
  const before = rssBytes(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 20);
  const zipStart = performance.now();
  const res = await fetch(zipUrl);
  let zipBytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) zipBytes += chunk.byteLength;
  clearInterval(sampler);
  const zip = {
    files: ZIP_FILES,
    zipMegabytes: Number((zipBytes / 1024 / 1024).toFixed(1)),
    seconds: Number(((performance.now() - zipStart) / 1000).toFixed(2)),
    rssBeforeMegabytes: Number((before / 1024 / 1024).toFixed(1)),
    rssGrowthMegabytes: Number(((peak - before) / 1024 / 1024).toFixed(1)),
  };
  console.log(`[zip] ${JSON.stringify(zip)}`);
} finally {
  for (const instance of instances) await instance.kill('SIGTERM');
  await broker.close();
  postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}
