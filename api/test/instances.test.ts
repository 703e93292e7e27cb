/**
 * Several API instances on one PostgreSQL database (the production topology's replicas): nothing
 * a user relies on lives in one process. PostgreSQL project only (vitest.config.ts).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOGIN_THROTTLE_RULES } from '../src/auth/loginThrottle.js';
import { DEMO_USERS } from '../src/db/seed.js';
import { SWEEP_BATCH } from '../src/sweep.js';
import { MIGRATIONS } from '../src/db/migrations.js';
import {
  awayFromWindowEnd,
  DEMO_PASSWORD,
  present,
  replicas,
  type RawBody,
  type Reply,
  type TestApi,
  TestClient,
  signedBeaconBody,
} from './harness.js';

const INSTANCE = 'x-api-instance';

/** One browser (one cookie jar) whose requests go to the instances in turn, as a load balancer's round robin. */
class BalancedClient extends TestClient {
  private turn = 0;
  constructor(private readonly urls: string[]) {
    super(urls[0] ?? '');
  }
  override fetch<B = RawBody>(url: string, init: Parameters<TestClient['fetch']>[1] = {}): Promise<Reply<B>> {
    const base = this.urls[this.turn++ % this.urls.length] ?? this.base;
    return super.fetch<B>(url.startsWith('http') ? url : `${base}${url}`, init);
  }
}

/** Resolves once `check` answers true, polling. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error('timed out waiting');
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** Another client of the same browser (its cookies), talking to another instance. */
function sameBrowserOn(client: TestClient, api: TestApi): TestClient {
  const other = new TestClient(api.url);
  for (const [k, v] of client.cookies) other.cookies.set(k, v);
  return other;
}

describe('several instances on one database', () => {
  let group: Awaited<ReturnType<typeof replicas>>;
  beforeAll(async () => {
    group = await replicas(3, {
      API_TRUST_PROXY: 'true',
      LOGIN_FAILURE_DELAY_MS: '1',
      RUM_BEACONS_PER_MINUTE: '5',
      // The sweep's own work on expired sessions is tested here: the per-second expiry check
      // (which would end them first) is kept out of the way.
      SESSION_EXPIRY_CHECK_MS: '3600000',
    });
  });
  afterAll(() => group.close());
  const [a, b] = [() => group.apis[0] as TestApi, () => group.apis[1] as TestApi];

  it('started together, apply each migration once and seed once', async () => {
    const applied = await a().rows<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`;
    expect(applied.map((row) => row.name)).toEqual(MIGRATIONS.map(([name]) => name));
    const [users] = await a().rows<{ n: number }>`SELECT COUNT(*) AS n FROM users`;
    expect(users?.n).toBe(DEMO_USERS.length);
  });

  it('name themselves in every answer, errors included', async () => {
    const ok = await a().client().call('getEvents');
    expect(ok.headers.get(INSTANCE)).toBe('api-1');
    const refused = await b().client().call('getCart', {}, { origin: 'http://evil.example' });
    expect(refused.headers.get(INSTANCE)).toBe('api-2');
    const missing = await b().client().fetch('/no/such/path');
    expect([missing.status, missing.headers.get(INSTANCE)]).toEqual([404, 'api-2']);
  });

  it('share sessions and carts: logged in on one, the user is known on the others', async () => {
    const browser = new BalancedClient(group.apis.map((api) => api.url));
    expect((await browser.call('login', { login: 'clara', password: DEMO_PASSWORD })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await browser.call('checkAuthentication')).status).toBe(200);
    await browser.call('addCartItem', { identifier: 'ci-photo-002', itemType: 'CONTENT' });
    const carts = await Promise.all(
      [0, 1, 2].map(async () => (await browser.call('getCart')).body.cart.map((i) => i.identifier)),
    );
    expect(carts).toEqual([['ci-photo-002'], ['ci-photo-002'], ['ci-photo-002']]);
  });

  it('keep one row when two instances add the same cart item at the same moment', async () => {
    const ana = await a().as('ana');
    const onB = sameBrowserOn(ana, b());
    const item = { identifier: 'ci-photo-002', itemType: 'CONTENT' } as const;
    const replies = await Promise.all([ana.call('addCartItem', item), onB.call('addCartItem', item)]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    const [row] = await a().rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM cart_items c JOIN users u ON c.owner_key = 'u:' || u.id
      WHERE u.profile_name = 'ana' AND c.identifier = 'ci-photo-002'`;
    expect(row?.n).toBe(1);
  });

  it("count a client's failed logins over all instances: 429 as soon as one instance alone would", async () => {
    const from = { headers: { 'x-forwarded-for': '203.0.113.50' } };
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_THROTTLE_RULES.lockAccountAfter; i++) {
      const api = group.apis[i % group.apis.length] as TestApi;
      statuses.push((await api.client().call('login', { login: 'max', password: `guess-${i}` }, from)).status);
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    // Each instance saw at most 4 of the 10 failures; together they are 10, so each refuses.
    for (const api of group.apis) {
      const refused = await api.client().call('login', { login: 'max', password: DEMO_PASSWORD }, from);
      expect(refused.status).toBe(429);
    }
  });

  it('check at most the limit of passwords when 50 guesses arrive at once on two instances', async () => {
    const from = { headers: { 'x-forwarded-for': '203.0.113.51' } };
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        // An account no other test here logs in as: the guesses lock it.
        (i % 2 ? b() : a()).client().call('login', { login: 'zoe', password: `guess-${i}` }, from),
      ),
    );
    const checked = replies.filter((r) => r.status === 401);
    const refused = replies.filter((r) => r.status === 429);
    expect(checked.length + refused.length).toBe(50);
    expect(checked.length).toBeLessThanOrEqual(LOGIN_THROTTLE_RULES.lockAccountAfter);
    for (const reply of refused) expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    // Both instances answered some of them: the count is the database's, not a process's.
    expect(new Set(replies.map((r) => r.headers.get(INSTANCE)))).toEqual(new Set(['api-1', 'api-2']));
  });

  it("share a client's beacon limit: its share for the minute over all instances, not per instance", async () => {
    await awayFromWindowEnd();
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(`${(group.apis[i % 2] as TestApi).url}/rum`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', 'x-forwarded-for': '203.0.113.52' },
          body: signedBeaconBody(),
        }).then((res) => res.status),
      ),
    );
    // 4 per instance is under each one's limit of 5: only a shared count refuses 3 of the 8.
    expect(statuses.filter((s) => s === 204).length).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(3);
  });

  it('answer a key retried on another instance from the first run, and a retry during the run with 409', async () => {
    const clara = await a().as('clara');
    const onB = sameBrowserOn(clara, b());
    const key = randomUUID();
    const cancel = (client: TestClient) =>
      client.call(
        'updateEventOrderStatus',
        { orderId: 'ord-1002', status: 'CANCELLED' },
        { headers: { 'idempotency-key': key } },
      );
    // The order's row held by another transaction: the first run waits inside its change.
    const holder = new pg.Client({ connectionString: a().config.databaseUrl ?? '' });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT id FROM event_orders WHERE order_id = 'ord-1002' FOR UPDATE`);
      const first = cancel(clara);
      await eventually(
        async () =>
          ((await a().rows<{ n: number }>`SELECT COUNT(*) AS n FROM idempotency_keys WHERE idempotency_key = ${key}`)[0]
            ?.n ?? 0) > 0,
      );
      const during = await cancel(onB);
      expect([during.status, during.headers.get('retry-after'), during.headers.get(INSTANCE)]).toEqual([
        409,
        '1',
        'api-2',
      ]);
      await holder.query('COMMIT');
      expect((await first).status).toBe(200);
    } finally {
      await holder.end();
    }
    const after = await cancel(onB);
    expect([after.status, after.body, after.headers.get('idempotent-replayed')]).toEqual([
      200,
      { orderId: 'ord-1002', status: 'CANCELLED' },
      'true',
    ]);
    const [notices] = await a().rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM notifications WHERE content LIKE ${'%cancelled order ord-1002%'}`;
    expect(notices?.n).toBe(1);
  });

  it('let one of two changes of an order through when both read it before either wrote', async () => {
    const clara = await a().as('clara');
    const mia = await b().as('mia');
    // Both requests read the order as awaiting approval, then wait at their update behind this lock.
    const { quote } = (await clara.call('getEventOrderDetails', { orderId: 'ord-1003' })).body.eventOrderInfo;
    const holder = new pg.Client({ connectionString: a().config.databaseUrl ?? '' });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT id FROM event_orders WHERE order_id = 'ord-1003' FOR UPDATE`);
      const approve = clara.call('changeEventOrder', {
        orderId: 'ord-1003',
        action: 'approve',
        quoteSentAt: quote?.sentAt,
      });
      const decline = mia.call('changeEventOrder', { orderId: 'ord-1003', action: 'decline', reason: 'Booked' });
      await eventually(
        async () =>
          Number(
            (
              await a().rows<{ n: number }>`
                SELECT COUNT(*) AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'
                  AND query LIKE 'update "event_orders"%'`
            )[0]?.n,
          ) === 2,
      );
      await holder.query('COMMIT');
      const replies = await Promise.all([approve, decline]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    } finally {
      await holder.end();
    }
    const [row] = await a().rows<{ public_status: string; decline_reason: string | null }>`
      SELECT public_status, decline_reason FROM event_orders WHERE order_id = 'ord-1003'`;
    expect(['APPROVED', 'DECLINED']).toContain(row?.public_status);
    // The loser wrote nothing: a declined order has its reason, an approved one none.
    expect(row?.decline_reason ?? null).toBe(row?.public_status === 'DECLINED' ? 'Booked' : null);
    const [notices] = await a().rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM notifications WHERE content LIKE ${'%ord-1003%'}`;
    expect(Number(notices?.n)).toBe(1);
  });

  it('sweep with one instance at a time: of passes asked of all at once one runs, and removes every expired session', async () => {
    const leo = await a().as('leo');
    await a().rows`UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z'
      WHERE user_id = (SELECT id FROM users WHERE profile_name = 'leo')`;
    const passes = await Promise.all([...group.apis, ...group.apis].map((api) => api.api.sweep()));
    expect(passes.filter((p) => p.ran)).toHaveLength(1);
    expect(passes.filter((p) => p.ran).map((p) => p.ran && p.sessions)).toEqual([1]);
    const [left] = await a().rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM sessions WHERE user_id = (SELECT id FROM users WHERE profile_name = 'leo')`;
    expect(left?.n).toBe(0);
    expect((await leo.call('checkAuthentication')).status).toBe(401);
    // Its pages' connections were closed on the broker the instances share, by the session's username.
    const { closedUsers } = present(group.broker, 'the stand-in broker');
    expect(closedUsers.map((u) => a().api.services.logins.parse(u)?.profileName)).toContain('leo');
    // The holder keeps the sweep while it lives; the others are refused until it lets go.
    const holder = group.apis[passes.findIndex((p) => p.ran) % group.apis.length] as TestApi;
    const other = group.apis.find((api) => api !== holder) as TestApi;
    expect((await holder.api.sweep()).ran).toBe(true);
    expect(await other.api.sweep()).toEqual({ ran: false, reason: 'another instance holds the sweep' });
    await holder.api.services.repos.leases.release('sweep', await holderOf(a()));
    expect((await other.api.sweep()).ran).toBe(true);
  });

  it('sweep in batches: more expired rows than a batch all go in one pass', async () => {
    const stale = Array.from({ length: SWEEP_BATCH * 2 + 7 }, (_, i) => `stale-${i}`);
    const [mia] = await a().rows<{ id: number }>`SELECT id FROM users WHERE profile_name = 'mia'`;
    await a()
      .api.database.db.insertInto('sessions')
      .values(
        stale.map((token) => ({
          token,
          user_id: mia?.id ?? 0,
          created_at: '2000-01-01T00:00:00.000Z',
          expires_at: '2000-01-02T00:00:00.000Z',
        })),
      )
      .execute();
    let pass = await a().api.sweep();
    for (const api of group.apis) if (!pass.ran) pass = await api.api.sweep();
    expect(pass.ran && pass.sessions).toBe(stale.length);
    const [left] = await a().rows<{ n: number }>`SELECT COUNT(*) AS n FROM sessions WHERE token LIKE 'stale-%'`;
    expect(left?.n).toBe(0);
  });
});

/** Who holds the sweep's lease now. */
async function holderOf(api: TestApi): Promise<string> {
  const [row] = await api.rows<{ holder: string }>`SELECT holder FROM leases WHERE name = 'sweep'`;
  return row?.holder ?? '';
}
