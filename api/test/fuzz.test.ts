/**
 * Every call of the shared contract table, driven with generated hostile input (fast-check), as a
 * visitor and as a signed-in demo user: wrong types, empty, huge and odd unicode text, path
 * traversal, numbers out of range, duplicated, missing and unknown fields, wrong content types,
 * malformed and oversized bodies. For every request: never a 5xx, the server still answers
 * /health, and a refused request (4xx) leaves the database as it was.
 *
 * The calls come from the table (API_CALLS) and their fields from the schemas the routes register
 * (registerContractRoutes with a recording router), so a new call is fuzzed without editing this
 * file. FUZZ_RUNS sets the cases per call (200 by default, as in CI) and FUZZ_SEED the seed, for a
 * longer local run: `FUZZ_RUNS=2000 npx vitest run --project sqlite test/fuzz.test.ts`.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_CALLS, type CallName } from '@marketplace/shared/contract';
import { GUEST_CART_COOKIE, SESSION_COOKIE } from '../src/auth/sessions.js';
import { registerContractRoutes } from '../src/http/app.js';
import type { Router } from '../src/http/route.js';
import { sessionKeyOf } from '../src/repositories/sessions.js';
import { ENGINE, FOREIGN_ORIGIN, SHELL_ORIGIN, TestClient, useTestApi, type TestApi } from './harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** The demo user every signed-in case runs as: one with every role, so role checks let the input through. */
const USER = 'max';

// A failed login is slowed by this (ms per failure past the free ones): kept short so the login call's cases stay fast.
const t = useTestApi({ LOGIN_FAILURE_DELAY_MS: '1' });

// ---------------------------------------------------------------------------------------------
// The calls and their fields, as the routes register them.

interface FuzzedCall {
  name: CallName;
  method: 'GET' | 'POST';
  path: string;
  encoding: 'none' | 'query' | 'form' | 'multipart';
  needsUser: boolean;
  /** Every field the schema names (path parameters too), each with the schemas that read it. */
  fields: Map<string, z.ZodType[]>;
  pathParams: string[];
}

/** The object shapes a request schema reads: through pipes, unions and optional wrappers. */
function shapesOf(schema: z.ZodType): Record<string, z.ZodType>[] {
  if (schema instanceof z.ZodObject) return [schema.shape as Record<string, z.ZodType>];
  if (schema instanceof z.ZodPipe) return [...shapesOf(schema.in as z.ZodType), ...shapesOf(schema.out as z.ZodType)];
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap(shapesOf);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return shapesOf(schema.unwrap() as z.ZodType);
  return [];
}

/** The values an enum or literal field takes (through optional and pipe wrappers). */
function choicesOf(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodEnum) return (schema.options as unknown[]).map(String);
  if (schema instanceof z.ZodLiteral) return [...(schema.values as Set<unknown>)].map(String);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return choicesOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return choicesOf(schema.in as z.ZodType);
  return [];
}

function recordCalls(api: TestApi): FuzzedCall[] {
  const registered = new Map<CallName, { schema: z.ZodType; needsUser: boolean }>();
  const router: Router = {
    visitor: (name, schema) => void registered.set(name, { schema, needsUser: false }),
    user: (name, schema) => void registered.set(name, { schema, needsUser: true }),
  };
  registerContractRoutes(router, api.api.services);
  return (Object.keys(API_CALLS) as CallName[]).map((name) => {
    const spec = API_CALLS[name];
    const route = registered.get(name);
    if (!route) throw new Error(`${name} is in the contract table but no route registers it`);
    const pathParams = [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    const fields = new Map<string, z.ZodType[]>();
    for (const shape of shapesOf(route.schema))
      for (const [key, schema] of Object.entries(shape)) fields.set(key, [...(fields.get(key) ?? []), schema]);
    for (const param of pathParams) if (!fields.has(param)) fields.set(param, []);
    return { name, ...spec, needsUser: route.needsUser, fields, pathParams };
  });
}

/**
 * A value the field accepts, so the other fields' hostile values get past it to the handler:
 * the demo data's own (by field name) first, then the enum's choices, then common shapes.
 */
function baselineOf(field: string, schemas: z.ZodType[], demo: Record<string, string>): string | undefined {
  const candidates = [
    demo[field],
    ...schemas.flatMap(choicesOf),
    'Fuzzed text',
    'true',
    '12',
    'mia',
    'fuzz@example.com',
    '2027-05-01T18:30',
    '2027-05-01',
    'image/jpeg',
    'Fuzzed-Pass-2027!',
  ].filter((v): v is string => v !== undefined);
  if (schemas.length === 0) return candidates[0];
  return candidates.find((value) => schemas.some((schema) => schema.safeParse(value).success));
}

// ---------------------------------------------------------------------------------------------
// Hostile input.

const HUGE = 'a'.repeat(100 * 1024);
const HOSTILE_TEXT = [
  '',
  ' ',
  '   \t\n',
  '\u0000',
  'mia\u0000',
  '\u202eevil\u202c',
  'שלום עולם',
  '👩‍👩‍👧‍👦🔥',
  '\ud800',
  'x\udfffy',
  'e\u0301\u0301\u0301',
  '\ufeff',
  '\u200b',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2f..%2f',
  '%',
  '%zz',
  '%E0%A4%A',
  '%ff',
  '%00',
  '/etc/passwd',
  'file:///etc/passwd',
  'true',
  'false',
  'null',
  'undefined',
  '[]',
  '{"$ne":null}',
  '[object Object]',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '%_%',
  '<script>alert(1)</script>',
  '\r\nSet-Cookie: session=x',
  '2027-02-30T10:00',
  '0000-01-01T00:00',
  '9999-12-31T23:59:59Z',
  '2027-05-01T25:61',
  'a'.repeat(255),
  'a'.repeat(256),
  'é'.repeat(2001),
  'x'.repeat(10_000),
  HUGE,
  '€'.repeat(40_000),
];

/** Numbers out of every range a field takes: negative, fractional, past 32 and 53 bits, not numbers. */
const HOSTILE_NUMBERS = [
  '-1',
  '0',
  '00',
  '1.5',
  '1e3',
  '1e309',
  '2147483647',
  '2147483648',
  '4294967296',
  '999999999',
  '9999999999',
  '999999999999',
  '9007199254740992',
  '-9007199254740993',
  '9'.repeat(400),
  'NaN',
  'Infinity',
  '0x1f',
  ' 7 ',
];

const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double(), fc.bigInt()).map(String) },
);

/** One field of a request: its value kept, left out, replaced, sent twice, or sent as a file. */
type FieldValue =
  | { kind: 'keep' }
  | { kind: 'missing' }
  | { kind: 'text'; value: string }
  | { kind: 'many'; values: string[] }
  | { kind: 'file'; value: string };

/** A field's hostile values; a field whose valid value is a number gets mostly numbers out of range. */
const fieldValue = (numeric: boolean): fc.Arbitrary<FieldValue> => {
  const text = numeric
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) }, { weight: 1, arbitrary: hostileText })
    : hostileText;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<FieldValue>({ kind: 'keep' }) },
    { weight: 1, arbitrary: fc.constant<FieldValue>({ kind: 'missing' }) },
    { weight: 4, arbitrary: text.map<FieldValue>((value) => ({ kind: 'text', value })) },
    {
      weight: 1,
      arbitrary: fc.array(text, { minLength: 2, maxLength: 3 }).map<FieldValue>((values) => ({
        kind: 'many',
        values,
      })),
    },
    { weight: 1, arbitrary: text.map<FieldValue>((value) => ({ kind: 'file', value })) },
  );
};

/** How the body travels: as the table says, or in a way the call does not take. */
const BODY_KINDS = [
  'encoded',
  'encoded',
  'encoded',
  'encoded',
  'encoded',
  'encoded',
  'json',
  'malformedJson',
  'otherEncoding',
  'noContentType',
  'textPlain',
  'multipartNoBoundary',
  'malformedMultipart',
  'badPercent',
  'utf16Charset',
  'oversized',
] as const;
type BodyKind = (typeof BODY_KINDS)[number];

interface Case {
  asUser: boolean;
  fields: Record<string, FieldValue>;
  extra: [string, string][];
  body: BodyKind;
  /** Path parameters sent as typed (traversal stays traversal) rather than URL-encoded. */
  rawPath: boolean;
  origin: 'none' | 'shell' | 'foreign' | 'null';
  idempotencyKey: string | null;
  /** A visitor's forged session or cart cookie. */
  forgedCookie: string | null;
}

const asciiHeader = fc.string({ unit: 'binary-ascii', maxLength: 300 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));
const extraField = fc.tuple(
  fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'role', 'userId', 'isAdmin', ''), fc.string()),
  hostileText,
);

/**
 * The fields of a case: half the time one field hostile and the others valid (so the handler,
 * past validation, meets it), else each field mutated on its own.
 */
function fieldsOf(baseline: Record<string, string | undefined>): fc.Arbitrary<Record<string, FieldValue>> {
  const names = Object.keys(baseline);
  if (names.length === 0) return fc.constant({});
  const valueOf = (name: string) => fieldValue(/^\d+$/.test(baseline[name] ?? ''));
  const keep = (): Record<string, FieldValue> => Object.fromEntries(names.map((n) => [n, { kind: 'keep' }]));
  const each = fc.record(Object.fromEntries(names.map((n) => [n, valueOf(n)])));
  const one = fc.constantFrom(...names).chain((name) => valueOf(name).map((value) => ({ ...keep(), [name]: value })));
  return fc.oneof(one, each);
}

function caseOf(call: FuzzedCall, baseline: Record<string, string | undefined>): fc.Arbitrary<Case> {
  return fc.record({
    // A call for users is mostly fuzzed signed in (a visitor's 401 comes before the input is read).
    asUser: call.needsUser ? fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, fc.constant(false)) : fc.boolean(),
    fields: fieldsOf(baseline),
    extra: fc.array(extraField, { maxLength: 3 }),
    body: fc.constantFrom(...BODY_KINDS),
    rawPath: fc.boolean(),
    origin: fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom<Case['origin']>('none', 'shell') },
      { weight: 1, arbitrary: fc.constantFrom<Case['origin']>('foreign', 'null') },
    ),
    // Each in a quarter of the cases: a key costs the server two writes (its claim and its answer).
    idempotencyKey: fc.oneof(
      { weight: 3, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.oneof(fc.uuid(), asciiHeader) },
    ),
    forgedCookie: fc.oneof(
      { weight: 3, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: asciiHeader.map((s) => s.replace(/[;,\s]/g, '')) },
    ),
  });
}

/** The request a case sends: URL, method, headers, body. */
function requestOf(
  call: FuzzedCall,
  input: Case,
  baseline: Record<string, string | undefined>,
  bodyMaxBytes: number,
): { url: string; init: { method: string; body?: BodyInit; headers: Record<string, string> }; summary: string } {
  const entries: [string, string][] = [];
  const files: [string, string][] = [];
  let path = call.path;
  for (const [name, value] of Object.entries(input.fields)) {
    const base = baseline[name];
    const values =
      value.kind === 'keep'
        ? base === undefined
          ? []
          : [base]
        : value.kind === 'text'
          ? [value.value]
          : value.kind === 'many'
            ? value.values
            : [];
    if (call.pathParams.includes(name)) {
      // A path segment is always there (a missing one is the empty segment).
      const segment = value.kind === 'file' ? value.value : (values[0] ?? '');
      path = path.replace(
        `:${name}`,
        input.rawPath ? segment : encodeURIComponent(segment.replace(/\p{Surrogate}/gu, '\ufffd')),
      );
      continue;
    }
    if (value.kind === 'file') files.push([name, value.value]);
    else for (const v of values) entries.push([name, v]);
  }
  entries.push(...input.extra);

  const headers: Record<string, string> = {};
  if (input.origin === 'shell') headers.origin = SHELL_ORIGIN;
  if (input.origin === 'foreign') headers.origin = FOREIGN_ORIGIN;
  if (input.origin === 'null') headers.origin = 'null';
  if (input.idempotencyKey !== null && call.method === 'POST') headers['idempotency-key'] = input.idempotencyKey;

  const form = () => new URLSearchParams([...entries, ...files]);
  const multipart = () => {
    const data = new FormData();
    for (const [k, v] of entries) data.append(k, v);
    for (const [k, v] of files) data.append(k, new Blob([v], { type: 'text/plain' }), `${k}.txt`);
    return data;
  };
  let body: BodyInit | undefined;
  let url = path;
  if (call.method === 'GET') {
    let query = form().toString();
    // A query no browser would encode: bad percent escapes, empty and repeated keys.
    if (input.body === 'badPercent') query += '&%zz=%&=x&a=%E0%A4%A&b=%00&&=';
    if (query) url += `?${query}`;
  } else {
    const expected = call.encoding === 'multipart' ? 'multipart' : 'form';
    switch (input.body) {
      case 'encoded':
        body = call.encoding === 'none' ? undefined : expected === 'multipart' ? multipart() : form();
        break;
      case 'json':
        headers['content-type'] = 'application/json';
        body = JSON.stringify(Object.fromEntries([...entries, ...files]));
        break;
      case 'malformedJson':
        headers['content-type'] = 'application/json';
        body = `{"${entries[0]?.[0] ?? 'a'}": "\\ud800, ]`;
        break;
      case 'otherEncoding':
        body = expected === 'multipart' ? form() : multipart();
        break;
      case 'noContentType':
        body = new TextEncoder().encode(form().toString());
        break;
      case 'textPlain':
        body = form().toString();
        break;
      case 'multipartNoBoundary':
        headers['content-type'] = 'multipart/form-data';
        body = new TextEncoder().encode(form().toString());
        break;
      case 'malformedMultipart': {
        headers['content-type'] = 'multipart/form-data; boundary=fuzz';
        const [name, value] = entries[0] ?? ['a', 'b'];
        body = `--fuzz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n--fuzz\r\nContent-Disposition: form-data; name="${name}"; filename="../../etc/passwd"\r\n\r\nunterminated`;
        break;
      }
      case 'badPercent':
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = `${form().toString()}&%zz=%&=x&a=%E0%A4%A&b=%00&&=`;
        break;
      case 'utf16Charset':
        headers['content-type'] = 'application/x-www-form-urlencoded; charset=utf-16';
        body = form().toString();
        break;
      case 'oversized': {
        const padding = 'p'.repeat(bodyMaxBytes + 1024);
        const data = expected === 'multipart' ? multipart() : form();
        data.append('padding', padding);
        body = data;
        break;
      }
    }
  }
  const short = (s: string) =>
    s.length > 60 ? `${JSON.stringify(s.slice(0, 40))}…(${s.length} chars)` : JSON.stringify(s);
  const summary = `${call.method} ${short(url)} as ${input.asUser ? USER : 'visitor'}, body ${input.body}, fields ${JSON.stringify(
    Object.fromEntries(
      Object.entries(input.fields).map(([k, v]) => [
        k,
        v.kind === 'text' || v.kind === 'file'
          ? `${v.kind}:${short(v.value)}`
          : v.kind === 'many'
            ? v.values.map(short)
            : v.kind,
      ]),
    ),
  )}, extra ${JSON.stringify(input.extra.map(([k, v]) => [short(k), short(v)]))}, origin ${input.origin}`;
  return { url, init: { method: call.method, body, headers }, summary };
}

// ---------------------------------------------------------------------------------------------
// The database's state, as a refused request must leave it.

/**
 * Tables left out of the comparison, each because it changes on refused requests by design or
 * on its own clock:
 * - login_failures: a refused login is counted; that is the throttle.
 * - rate_windows: per-client counters count refused requests too.
 * - idempotency_keys: a key's first answer, a refusal too, is kept for its retries to replay.
 * - leases: held and renewed by the background loops (sweeps, relays) on their own clock.
 */
const EXCLUDED_TABLES = new Set(['login_failures', 'rate_windows', 'idempotency_keys', 'leases']);
/** Columns any request may write: a session's last use, refreshed when stale whatever the answer. */
const EXCLUDED_COLUMNS: Record<string, Set<string>> = { sessions: new Set(['last_seen_at']) };
/**
 * Queues that background workers update and prune on their own clock (sending mail and live
 * messages, running media jobs): a refused request must add no row, so only their highest id is
 * compared.
 */
const QUEUE_TABLES = new Set(['mail_outbox', 'live_outbox', 'media_jobs']);

interface Snapshot {
  /** Per table: its rows as text in a fixed order (a digest of them on PostgreSQL), or a queue's highest id. */
  tables: Map<string, string>;
}

/** The test's own objects in the API's database: the write counters below. */
const COUNTERS = 'fuzz_writes';

/**
 * Reads the state a refused request must leave as it was: every row of every table (not counts),
 * less the exclusions above. Reading every table twice per case is too slow for thousands of
 * cases (tens of ms on PostgreSQL), so each table gets a write counter, bumped by a trigger on
 * every row it inserts, updates or deletes, and a table is read again only when its counter moved
 * since it was last read. Most cases write nothing, so a snapshot is mostly one read of the
 * counters. The counters count attempts, not changes (PostgreSQL's are sequences, which no
 * rollback takes back and which no two transactions wait on each other for): a moved counter only
 * makes the table be read again, and its rows decide.
 */
async function stateReader(api: TestApi) {
  const db = api.api.database.db;
  const run = (text: string) => sql.raw(text).execute(db);
  const tables = (
    ENGINE === 'sqlite'
      ? await api.rows<{
          name: string;
        }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
      : await api.rows<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
  )
    .map((r) => r.name)
    .filter((name) => !EXCLUDED_TABLES.has(name) && name !== COUNTERS)
    .sort();
  const columnsOf = async (table: string) =>
    ENGINE === 'sqlite'
      ? (await api.rows<{ name: string }>`SELECT name FROM pragma_table_info(${table})`).map((r) => r.name)
      : (
          await api.rows<{ name: string }>`SELECT column_name AS name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = ${table}`
        ).map((r) => r.name);
  const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

  /** Per table: the query that reads it, and the one that reads its counter. */
  const reads = new Map<string, { rows: string; counter: string }>();
  if (ENGINE === 'postgres')
    await run(`CREATE FUNCTION ${COUNTERS}() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN PERFORM nextval(TG_ARGV[0]); RETURN NULL; END $$`);
  else await run(`CREATE TABLE ${COUNTERS} (t TEXT PRIMARY KEY, n INTEGER NOT NULL)`);
  for (const [i, table] of tables.entries()) {
    const label = literal(table);
    let rows: string;
    if (QUEUE_TABLES.has(table)) rows = `SELECT ${label} AS t, CAST(MAX(id) AS TEXT) AS v FROM ${ident(table)}`;
    else {
      const columns = (await columnsOf(table)).filter((c) => !EXCLUDED_COLUMNS[table]?.has(c)).sort();
      rows =
        ENGINE === 'sqlite'
          ? `SELECT ${label} AS t, (SELECT group_concat(r, char(10)) FROM (SELECT ${columns
              .map((c) => `quote(${ident(c)})`)
              .join(` || ',' || `)} AS r FROM ${ident(table)} ORDER BY r)) AS v`
          : `SELECT ${label} AS t, md5(coalesce((SELECT string_agg(r, E'\n' ORDER BY r) FROM (SELECT concat_ws(',', ${columns
              .map((c) => `quote_nullable(${ident(c)}::text)`)
              .join(', ')}) AS r FROM ${ident(table)}) x), '')) AS v`;
    }
    const trigger = `${COUNTERS}_${i}`;
    if (ENGINE === 'postgres') {
      await run(`CREATE SEQUENCE ${trigger}`);
      await run(`SELECT nextval('${trigger}')`);
      await run(`CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE ON ${ident(table)}
        FOR EACH ROW EXECUTE FUNCTION ${COUNTERS}('${trigger}')`);
      reads.set(table, { rows, counter: `SELECT ${label} AS t, CAST(last_value AS TEXT) AS n FROM ${trigger}` });
    } else {
      await run(`INSERT INTO ${COUNTERS} (t, n) VALUES (${label}, 0)`);
      for (const event of ['INSERT', 'UPDATE', 'DELETE'])
        await run(`CREATE TRIGGER ${trigger}_${event.toLowerCase()} AFTER ${event} ON ${ident(table)}
          BEGIN UPDATE ${COUNTERS} SET n = n + 1 WHERE t = ${label}; END`);
      reads.set(table, { rows, counter: '' });
    }
  }
  const counterQuery =
    ENGINE === 'postgres'
      ? [...reads.values()].map((r) => r.counter).join(' UNION ALL ')
      : `SELECT t, CAST(n AS TEXT) AS n FROM ${COUNTERS}`;

  const known = new Map<string, { count: string; value: string }>();
  return async (): Promise<Snapshot> => {
    const { rows: counts } = await sql.raw<{ t: string; n: string }>(counterQuery).execute(db);
    const stale = counts.filter(({ t, n }) => known.get(t)?.count !== n);
    if (stale.length > 0) {
      const query = stale.map(({ t }) => reads.get(t)?.rows ?? '').join(' UNION ALL ');
      const { rows } = await sql.raw<{ t: string; v: string | null }>(query).execute(db);
      const counted = new Map(stale.map(({ t, n }) => [t, n]));
      for (const { t, v } of rows) known.set(t, { count: counted.get(t) ?? '', value: v ?? '' });
    }
    return { tables: new Map([...known].map(([t, { value }]) => [t, value])) };
  };
}

function changedTables(before: Snapshot, after: Snapshot): string[] {
  return [...after.tables.keys()].filter((table) => before.tables.get(table) !== after.tables.get(table));
}

// ---------------------------------------------------------------------------------------------

describe('every call, fuzzed with hostile input', () => {
  let calls: FuzzedCall[] = [];
  let demo: Record<string, string> = {};
  let userId = 0;
  let snapshot: () => Promise<Snapshot>;

  beforeAll(async () => {
    const api = t();
    calls = recordCalls(api);
    const one = async <T>(rows: Promise<T[]>, what: string): Promise<T> => {
      const [row] = await rows;
      if (row === undefined) throw new Error(`demo data: no ${what}`);
      return row;
    };
    userId = (await one(api.rows<{ id: number }>`SELECT id FROM users WHERE profile_name = ${USER}`, USER)).id;
    const event = await one(
      api.rows<{ identifier: string }>`SELECT identifier FROM events WHERE organizer_id = ${userId}`,
      'event',
    );
    const item = await one(api.rows<{ identifier: string }>`SELECT identifier FROM content_items`, 'content item');
    const pkg = await one(
      api.rows<{ id: number }>`SELECT id FROM media_packages WHERE owner_id = ${userId}`,
      'package',
    );
    const code = await one(api.rows<{ code: string }>`SELECT code FROM discount_codes`, 'discount code');
    const note = await one(
      api.rows<{ id: number }>`SELECT id FROM notifications WHERE user_id = ${userId}`,
      'notification',
    );
    // The demo's own values by field name, so one hostile field reaches the handler past valid others.
    demo = {
      orderId: 'ord-2001',
      eventIdentifier: event.identifier,
      identifier: item.identifier,
      itemType: 'CONTENT',
      id: String(pkg.id),
      packageId: String(pkg.id),
      code: code.code,
      notificationId: String(note.id),
      profileName: 'mia',
      photographer: 'mia',
      login: 'fuzz-nobody',
    };
    snapshot = await stateReader(api);
  });

  /** A client signed in as USER: a session made directly, so no login (and its throttle) is needed. */
  const signedIn = async (api: TestApi) => {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await api.api.services.repos.sessions.create(token, userId, now, new Date(now.getTime() + 86_400_000), 'fuzz');
    const client = new TestClient(api.url);
    client.cookies.set(SESSION_COOKIE, token);
    return { client, token };
  };

  it('fuzzes every call of the contract table', () => {
    expect(calls.map((c) => c.name).sort()).toEqual(Object.keys(API_CALLS).sort());
  });

  it("sees a change to any table's rows, and not a session's last use", async () => {
    const api = t();
    const [{ bio } = { bio: '' }] = await api.rows<{ bio: string }>`SELECT bio FROM users WHERE id = ${userId}`;
    const before = await snapshot();
    await api.rows`UPDATE users SET bio = ${'changed by the fuzz test'} WHERE id = ${userId}`;
    await api.rows`UPDATE sessions SET last_seen_at = ${new Date().toISOString()}`;
    const changed = await snapshot();
    expect(changedTables(before, changed)).toEqual(['users']);
    // Rows as they were are the state as it was, however many writes happened in between.
    await api.rows`UPDATE users SET bio = ${bio} WHERE id = ${userId}`;
    expect(changedTables(before, await snapshot())).toEqual([]);
  });

  for (const [index, name] of (Object.keys(API_CALLS) as CallName[]).entries()) {
    it(`${name}: no 5xx, the server stays up, a refusal changes nothing`, { timeout: 600_000 }, async () => {
      const api = t();
      const call = calls.find((c) => c.name === name);
      if (!call) throw new Error(`no route for ${name}`);
      // An email of the call's own: a reset asked for an account's email is queued after the answer
      // (so it takes as long as for none), and would land during a later case; no account has this one.
      const own = { ...demo, email: `${name.toLowerCase()}@example.com` };
      const baseline = Object.fromEntries(
        [...call.fields].map(([field, schemas]) => [field, baselineOf(field, schemas, own)]),
      );
      let user = await signedIn(api);
      let checkSession = false;
      // The state after one case is the state before the next: between them only the test writes
      // (a new session, which drops it), and the API's own background work (relays, sweeps)
      // writes only to the queues and excluded tables.
      let last: Snapshot | null = null;
      const statuses = new Map<number, number>();

      await fc.assert(
        fc.asyncProperty(caseOf(call, baseline), async (input) => {
          if (input.asUser && checkSession) {
            // An accepted call may have ended the session (logout, "log out everywhere"): start another.
            const [alive] = await api.rows<{
              n: number;
            }>`SELECT COUNT(*) AS n FROM sessions WHERE token = ${sessionKeyOf(user.token)}`;
            if (Number(alive?.n ?? 0) === 0 || !user.client.cookies.has(SESSION_COOKIE)) {
              user = await signedIn(api);
              last = null;
            }
            checkSession = false;
          }
          const client = input.asUser ? user.client : new TestClient(api.url);
          if (!input.asUser && input.forgedCookie !== null) {
            client.cookies.set(SESSION_COOKIE, input.forgedCookie);
            client.cookies.set(GUEST_CART_COOKIE, input.forgedCookie);
          }
          const { url, init, summary } = requestOf(call, input, baseline, api.config.bodyMaxBytes);
          const before = last ?? (await snapshot());
          const res = await client.fetch(url, init);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status >= 500) throw new Error(`${res.status} ${JSON.stringify(res.body)} for ${summary}`);
          const health = await fetch(`${api.url}/health`);
          if (health.status !== 200) throw new Error(`/health answered ${health.status} after ${summary}`);
          const after = await snapshot();
          last = after;
          if (res.status >= 400) {
            const changed = changedTables(before, after);
            if (changed.length > 0)
              throw new Error(`${res.status} ${JSON.stringify(res.body)} changed ${changed.join(', ')} for ${summary}`);
          } else if (input.asUser) checkSession = true;
        }),
        { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
      );
      // What the cases met, for a reader of the run's log: some must get past validation to the handler.
      console.info(`[fuzz] ${name}: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    });
  }
});
