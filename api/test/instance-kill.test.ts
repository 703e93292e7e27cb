/**
 * An API instance killed (SIGKILL) in the middle of a concurrent load, behind the gateway, on
 * PostgreSQL. Every request's outcome is kept and judged against what the database holds after:
 * a write answered 2xx is there exactly once; a write refused (502/503/504 or a dropped
 * connection) is there at most once, never twice; a read is always answered (nginx retries it).
 * Requests sent once the gateway has failed over are all served by the surviving instance; the
 * sessions survive, and the killed instance, started again, serves again.
 * PostgreSQL project only (vitest.config.ts).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startGateway } from 'api/gateway';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_TOKEN,
  DEMO_PASSWORD,
  freePort,
  freshDatabase,
  type Reply,
  SHELL_ORIGIN,
  TestClient,
} from './harness.js';
import { type ApiProcess, startApiProcess } from './processes.js';
import { type StandInBroker, startStandInBroker } from './standInBroker.js';
import { BUYERS } from './writes.js';

const INSTANCE = 'x-api-instance';
/** Chat messages' contents start with this, so the load's rows are told from the seed's. */
const MARKER = 'kill-test';
/** The kill waits for this many writes in flight (6 users, 2 lanes each: 12 requests at most). */
const KILL_WITH_WRITES_IN_FLIGHT = 6;
/** Writes acknowledged before the kill, so it lands in the middle of the load, not at its start. */
const WARM_UP_WRITES = 12;
/** A run with fewer acknowledged, or sent after the failover, than these proves too little. */
const MIN_ACKNOWLEDGED = { cart: 30, message: 20 } as const;
const MIN_AFTER_FAILOVER = { cart: 6, message: 6 } as const;
/** Below the API's chat history (100), so the conversation read back through it lists them all. */
const MAX_MESSAGES_PER_USER = 90;
/** Generous on a loaded 2-core machine: an answer this late is a hang, not a slow answer. */
const ANSWER_WITHIN_MS = 30_000;
/** How a request the gateway could not serve is refused (nginx's 502 and 504, the API's 503). */
const REFUSALS = [502, 503, 504];

type Kind = 'cart' | 'message' | 'read';
type Phase = 'before' | 'in flight' | 'during' | 'after';

interface Sent {
  kind: Kind;
  user: string;
  /** A cart add's item, a chat message's content (each unique to its request), a read's call. */
  marker: string;
  /** The kill flag read when sent and when settled: ordered by the event loop, not by a clock. */
  sentBeforeKill: boolean;
  settledBeforeKill: boolean;
  sentAfterFailover: boolean;
  status: number | null;
  /** The network error, or no answer in time, when there was no status. */
  error: string | null;
  instance: string | null;
  /** The id an acknowledged chat message was given. */
  id: number | null;
}

/**
 * before: sent and settled before the kill; in flight: sent before it, settled after; during:
 * sent after it but before the gateway was seen to fail over; after: sent once it had.
 */
function phaseOf(r: Sent): Phase {
  if (r.sentBeforeKill) return r.settledBeforeKill ? 'before' : 'in flight';
  return r.sentAfterFailover ? 'after' : 'during';
}

const is2xx = (r: Sent) => r.status !== null && r.status >= 200 && r.status < 300;
const refused = (r: Sent) => (r.error !== null && !timedOut(r)) || (r.status !== null && REFUSALS.includes(r.status));
const timedOut = (r: Sent) => r.error?.startsWith('no answer') ?? false;

function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/** fetch's own message is "fetch failed"; the reason (a reset, "other side closed") is its cause. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

describe('an instance killed under load', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: pg.Client;
  let instances: ApiProcess[];
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let broker: StandInBroker;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'api-kill-'));
    chmodSync(dir, 0o755);
    database = await freshDatabase(dir);
    // Two instances on one database meet on an external broker (the second would not start otherwise).
    broker = await startStandInBroker();
    const ports = [await freePort(), await freePort()];
    const env = (i: number) => ({
      ...database.env,
      ...broker.env,
      MEDIA_DIR: join(dir, 'media'),
      API_INSTANCE: `api-${i + 1}`,
      API_TRUST_PROXY: 'true',
      API_ALLOWED_ORIGINS: SHELL_ORIGIN,
      ADMIN_TOKEN,
      // The demo users and photos the load is made of.
      SEED_DEMO: '1',
    });
    // One first (it migrates and seeds), then the other, as a rolling start would.
    instances = [await startApiProcess(env(0), ports[0] as number)];
    instances.push(await startApiProcess(env(1), ports[1] as number));
    gateway = await startGateway({
      port: await freePort(),
      upstreams: ports.map((port) => `127.0.0.1:${port}`),
      workDir: join(dir, 'gateway'),
    });
    // The database read directly, so what each write left is counted, not only what the API lists.
    db = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await gateway?.stop();
    for (const instance of instances ?? []) await instance.kill('SIGTERM');
    await broker?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies each write at most once and each acknowledged one exactly once, serves every request sent after the failover, and keeps the sessions', async () => {
    const browsers = new Map<string, TestClient>();
    for (const name of BUYERS) {
      const browser = new TestClient(gateway.url);
      expect((await browser.call('login', { login: name, password: DEMO_PASSWORD })).status).toBe(200);
      browsers.set(name, browser);
    }
    const browserOf = (name: string) => browsers.get(name) as TestClient;
    const users = new Map(
      (
        await db.query<{ id: number; profile_name: string }>(
          'SELECT id, profile_name FROM users WHERE profile_name = ANY($1)',
          [BUYERS],
        )
      ).rows.map((row) => [row.profile_name, row.id]),
    );
    expect(users.size).toBe(BUYERS.length);
    // Each buyer writes to the next one: a conversation per buyer holds only its own messages.
    const partnerOf = (name: string) => BUYERS[(BUYERS.indexOf(name) + 1) % BUYERS.length] as string;
    // The buyers own no photo, so every item for sale is one each of them may add, once.
    const items = (
      await db.query<{ identifier: string }>(
        'SELECT identifier FROM content_items WHERE for_sale = 1 AND NOT owner_id = ANY($1) ORDER BY id',
        [[...users.values()]],
      )
    ).rows.map((row) => row.identifier);
    expect(items.length * BUYERS.length).toBeGreaterThanOrEqual(2 * MIN_ACKNOWLEDGED.cart);

    const sent: Sent[] = [];
    let killed = false;
    let failedOver = false;
    let writesInFlight = 0;
    let cartDone = false;
    // Every outcome is kept, an error as much as an answer: nothing is dropped unexamined.
    const send = async <B>(kind: Kind, user: string, marker: string, request: () => Promise<Reply<B>>) => {
      const record: Sent = {
        kind,
        user,
        marker,
        sentBeforeKill: !killed,
        settledBeforeKill: !killed,
        sentAfterFailover: failedOver,
        status: null,
        error: null,
        instance: null,
        id: null,
      };
      sent.push(record);
      if (kind !== 'read') writesInFlight++;
      try {
        const reply = await within(ANSWER_WITHIN_MS, request());
        record.status = reply.status;
        record.instance = reply.headers.get(INSTANCE);
        return { record, reply };
      } catch (error) {
        record.error = describeError(error);
        return { record, reply: null };
      } finally {
        record.settledBeforeKill = !killed;
        if (kind !== 'read') writesInFlight--;
      }
    };

    // Each user adds every item once (the item is the request's marker), reading the cart after each.
    const cartLane = async (name: string) => {
      for (const item of items) {
        await send('cart', name, item, () =>
          browserOf(name).call('addCartItem', { identifier: item, itemType: 'CONTENT' }),
        );
        await send('read', name, 'getCart', () => browserOf(name).call('getCart'));
      }
    };
    // Alongside, the user chats, each message with a content no other has.
    const messageLane = async (name: string) => {
      for (let round = 0; !cartDone && round < MAX_MESSAGES_PER_USER; round++) {
        const content = `${MARKER} ${name} ${round}`;
        const { record, reply } = await send('message', name, content, () =>
          browserOf(name).call('sendChatMessage', { profileName: partnerOf(name), content }),
        );
        if (record.status === 200) record.id = reply?.body.message?.id ?? null;
      }
    };
    let writesAtKill = 0;
    const killer = async () => {
      // Once the load is under way, kill at a moment when writes are known to be outstanding.
      const acknowledged = () => sent.filter((r) => r.kind !== 'read' && is2xx(r)).length;
      // Resolved in the check's own turn of the event loop, so the moment it saw holds below.
      await vi.waitFor(
        () => {
          if (!cartDone && (acknowledged() < WARM_UP_WRITES || writesInFlight < KILL_WITH_WRITES_IN_FLIGHT))
            throw new Error('no moment with writes outstanding');
        },
        { timeout: 60_000, interval: 1 },
      );
      if (cartDone) return;
      // The flag, then the signal (sent as kill is called), in one turn of the event loop: no
      // request is sent or settles between them. Awaited after is only the exit.
      killed = true;
      writesAtKill = writesInFlight;
      await (instances[0] as ApiProcess).kill('SIGKILL');
      // The instance's sockets closed with it; a request the gateway answers after that was read
      // by nginx after it saw them close, so requests sent from then on meet the failed-over gateway.
      const probe = await send('read', BUYERS[0] as string, 'getEvents (probe)', () =>
        browserOf(BUYERS[0] as string).call('getEvents'),
      );
      expect(probe.record.status).toBe(200);
      failedOver = true;
    };
    const carts = Promise.all(BUYERS.map(cartLane)).then(() => {
      cartDone = true;
    });
    await Promise.all([carts, ...BUYERS.map(messageLane), killer()]);

    // What the database holds of each marker: a count per cart item, the rows per message content.
    const ownerKey = (name: string) => `u:${users.get(name)}`;
    const cartRows = new Map<string, number>();
    for (const row of (
      await db.query<{ owner_key: string; identifier: string; n: number }>(
        'SELECT owner_key, identifier, count(*)::int AS n FROM cart_items WHERE owner_key = ANY($1) GROUP BY owner_key, identifier',
        [BUYERS.map(ownerKey)],
      )
    ).rows)
      cartRows.set(`${row.owner_key} ${row.identifier}`, row.n);
    const messageRows = new Map<string, { id: number; from_id: number; to_id: number }[]>();
    for (const row of (
      await db.query<{ id: number; from_id: number; to_id: number; content: string }>(
        'SELECT id, from_id, to_id, content FROM chat_messages WHERE content LIKE $1',
        [`${MARKER} %`],
      )
    ).rows)
      messageRows.set(row.content, [...(messageRows.get(row.content) ?? []), row]);
    const cartKey = (r: Sent) => `${ownerKey(r.user)} ${r.marker}`;
    /** How many times the request's write is there. */
    const applied = (r: Sent) =>
      r.kind === 'cart' ? (cartRows.get(cartKey(r)) ?? 0) : (messageRows.get(r.marker)?.length ?? 0);

    const problems: string[] = [];
    const show = (r: Sent) =>
      `${phaseOf(r)} ${r.kind} ${r.user} "${r.marker}": ${r.status ?? r.error} from ${r.instance}, applied ${r.kind === 'read' ? '-' : applied(r)}`;
    for (const r of sent) {
      const phase = phaseOf(r);
      if (r.kind === 'read') {
        // A read that reached an instance as it died is sent to the other one: always answered.
        if (r.status !== 200) problems.push(`read not answered: ${show(r)}`);
      } else if (is2xx(r)) {
        // Acknowledged: there exactly once. (A cart row is unique by its key, so a second run of
        // an add would show as a 409 "already in cart", which fails below.)
        if (applied(r) !== 1) problems.push(`acknowledged, not there exactly once: ${show(r)}`);
        if (r.kind === 'message') {
          const [row] = messageRows.get(r.marker) ?? [];
          if (row?.id !== r.id || row.from_id !== users.get(r.user) || row.to_id !== users.get(partnerOf(r.user)))
            problems.push(`acknowledged as id ${r.id}, stored as ${JSON.stringify(row)}: ${show(r)}`);
        }
      } else if (refused(r)) {
        // Refused: not applied, or applied once by an instance that committed and died before
        // answering (the client cannot tell which); the gateway never sends a POST that reached
        // an instance to another, so never twice.
        if (applied(r) > 1) problems.push(`refused, applied more than once: ${show(r)}`);
        if (phase === 'before') problems.push(`refused before the kill: ${show(r)}`);
      } else problems.push(`neither served nor refused: ${show(r)}`);
      if (phase === 'after' && !(is2xx(r) && r.instance === 'api-2'))
        problems.push(`sent after the failover, not served by api-2: ${show(r)}`);
    }
    // No row the load did not ask for (a write applied under another marker, or made up).
    const cartMarkers = new Set(sent.filter((r) => r.kind === 'cart').map(cartKey));
    for (const key of cartRows.keys()) if (!cartMarkers.has(key)) problems.push(`cart row nobody added: ${key}`);
    const contents = new Set(sent.filter((r) => r.kind === 'message').map((r) => r.marker));
    for (const content of messageRows.keys())
      if (!contents.has(content)) problems.push(`message nobody sent: ${content}`);

    // Per phase and kind, how many requests had which outcome (and, for a write, how often it is there).
    const tally = new Map<string, number>();
    for (const r of sent) {
      const key = `${phaseOf(r).padEnd(9)} ${r.kind.padEnd(7)} ${r.status ?? r.error}${r.kind === 'read' ? '' : `, applied ${applied(r)}`}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }
    const count = (kind: Kind, phase: Phase | null, test: (r: Sent) => boolean = () => true) =>
      sent.filter((r) => r.kind === kind && (phase === null || phaseOf(r) === phase) && test(r)).length;
    const inFlight = sent.filter((r) => phaseOf(r) === 'in flight');
    console.log(
      [
        `[kill] ${sent.length} requests; killed with ${writesAtKill} writes in flight; in flight at the kill: ${inFlight.length} requests, ${inFlight.filter((r) => r.kind !== 'read').length} writes`,
        ...[...tally].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `  ${key}: ${n}`),
      ].join('\n'),
    );

    expect(killed, 'the kill never landed while writes were in flight').toBe(true);
    expect(problems).toEqual([]);
    // Both instances served before the kill, so the killed one had its share of the load.
    expect(new Set(sent.filter((r) => phaseOf(r) === 'before').map((r) => r.instance))).toEqual(
      new Set(['api-1', 'api-2']),
    );
    // A run in which too little happened proves nothing: the stated minimums.
    expect(inFlight.filter((r) => r.kind !== 'read').length).toBeGreaterThanOrEqual(KILL_WITH_WRITES_IN_FLIGHT);
    expect(count('cart', null, is2xx)).toBeGreaterThanOrEqual(MIN_ACKNOWLEDGED.cart);
    expect(count('message', null, is2xx)).toBeGreaterThanOrEqual(MIN_ACKNOWLEDGED.message);
    expect(count('cart', 'after')).toBeGreaterThanOrEqual(MIN_AFTER_FAILOVER.cart);
    expect(count('message', 'after')).toBeGreaterThanOrEqual(MIN_AFTER_FAILOVER.message);

    // Through the gateway too: every session still holds, and each user's cart and sent messages
    // list exactly what the database holds, each once.
    for (const name of BUYERS) {
      const browser = browserOf(name);
      expect((await browser.call('checkAuthentication')).status).toBe(200);
      const cart = (await browser.call('getCart')).body.cart.map((item) => item.identifier);
      const cartHeld = [...cartRows.keys()].filter((key) => key.startsWith(`${ownerKey(name)} `));
      expect(cart.sort()).toEqual(cartHeld.map((key) => key.slice(ownerKey(name).length + 1)).sort());
      const { messages } = (await browser.call('getChatMessages', { profileName: partnerOf(name) })).body;
      const mine = (rows: { id: number; from_id: number }[]) => rows.filter((row) => row.from_id === users.get(name));
      const held = [...messageRows.values()].flatMap(mine).map((row) => row.id);
      const listed = messages.filter((m) => m.fromProfileName === name && m.content.startsWith(`${MARKER} `));
      expect(listed.map((m) => m.id)).toEqual(held.sort((a, b) => a - b));
    }

    // Started again, the killed instance serves its share once more, to sessions made before the kill.
    await instances[0]?.start();
    const served = new Set<string | null>();
    const statuses: number[] = [];
    // The gateway tries an instance it saw fail again after its fail_timeout (10 s).
    await vi.waitFor(
      async () => {
        const reply = await browserOf(BUYERS[statuses.length % BUYERS.length] as string).call('checkAuthentication');
        statuses.push(reply.status);
        served.add(reply.headers.get(INSTANCE));
        expect([...served].sort()).toEqual(['api-1', 'api-2']);
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  }, 120_000);
});
