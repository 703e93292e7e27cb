import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Beacon } from '@marketplace/shared/platform';
import { RateWindow } from '../src/rum/rateWindow.js';
import { ADMIN_TOKEN, awayFromWindowEnd, FOREIGN_ORIGIN, SHELL_ORIGIN, startTestApi, useTestApi } from './harness.js';

// Real-user beacons (issue "Releases that watch themselves", item 2): sent by the shell with
// sendBeacon (text/plain), stored per page load, read back as figures per remote and version.
const t = useTestApi({ RUM_BEACONS_PER_MINUTE: '1000' });

const V1 = 'aaaaaaaaaaaa';
const V2 = 'bbbbbbbbbbbb';

const beacon = (over: Partial<Beacon> = {}): Beacon => ({
  load: randomUUID(),
  versions: { header: V1, media: V1 },
  vitals: { LCP: { value: 1200, owner: 'media' }, TTFB: { value: 80, owner: 'shell' } },
  errors: [],
  ...over,
});

const send = (url: string, body: unknown, origin = SHELL_ORIGIN) =>
  fetch(`${url}/rum`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

interface Figures {
  figures: {
    remote: string;
    version: string;
    loads: number;
    errorLoads: number;
    errorRate: number;
    p75: { lcp: number | null; inp: number | null; cls: number | null };
    lcpOwnedShare: number;
  }[];
  series: { remote: string; version: string; loads: number }[];
}

const figures = async (url: string, since = '2000-01-01T00:00:00.000Z'): Promise<Figures> => {
  const res = await fetch(`${url}/internal/rum/figures?since=${since}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Figures;
};
const of = (f: Figures, remote: string, version: string) =>
  f.figures.find((x) => x.remote === remote && x.version === version);

describe('the beacon endpoint', () => {
  it('stores a page load per remote version and merges later beacons of the same load', async () => {
    const first = beacon({ versions: { header: V2 } });
    expect((await send(t().url, first)).status).toBe(204);
    // The same load hidden again: a later LCP replaces the earlier one, a new remote and an error are added.
    const again: Beacon = {
      load: first.load,
      versions: { header: V2, account: V2 },
      vitals: { LCP: { value: 2000, owner: 'header' }, INP: { value: 120, owner: 'account' } },
      errors: [{ owner: 'account', kind: 'render', message: 'TypeError: x is undefined' }],
    };
    expect((await send(t().url, again)).status).toBe(204);
    const f = await figures(t().url);
    expect(of(f, 'header', V2)).toMatchObject({
      loads: 1,
      errorLoads: 0,
      p75: { lcp: 2000, inp: 120 },
      lcpOwnedShare: 1,
    });
    expect(of(f, 'account', V2)).toMatchObject({ loads: 1, errorLoads: 1, errorRate: 1 });
    const kept = await t().rows`SELECT owner, version, kind, message FROM rum_errors WHERE load_id = ${first.load}`;
    expect(kept).toEqual([{ owner: 'account', version: V2, kind: 'render', message: 'TypeError: x is undefined' }]);
  });

  it('keeps nothing personal: no address, user or page address, only the random load id', async () => {
    const clara = await t().as('clara');
    const b = beacon();
    const res = await fetch(`${t().url}/rum`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: SHELL_ORIGIN, cookie: clara.cookieHeader },
      body: JSON.stringify(b),
    });
    expect(res.status).toBe(204);
    const [row] = await t().rows<Record<string, unknown>>`SELECT * FROM rum_loads WHERE load_id = ${b.load}`;
    expect(JSON.stringify(row)).not.toMatch(/127\.0\.0\.1|clara|localhost/);
    expect(Object.keys(row ?? {})).toEqual([
      'load_id',
      'received_at',
      'lcp',
      'lcp_owner',
      'inp',
      'inp_owner',
      'cls',
      'cls_owner',
      'ttfb',
      'errors',
    ]);
  });

  it('computes p75 and error rates over the loads of each version', async () => {
    const remote = 'eventOrder';
    for (let i = 1; i <= 8; i++)
      await send(
        t().url,
        beacon({
          versions: { [remote]: V1 },
          vitals: { LCP: { value: i * 100, owner: remote } },
          errors: i <= 2 ? [{ owner: remote, kind: 'load', message: 'manifest 500' }] : [],
        }),
      );
    const f = of(await figures(t().url), remote, V1);
    // Nearest rank: the 6th of 8 sorted values.
    expect(f).toMatchObject({ loads: 8, errorLoads: 2, errorRate: 0.25, p75: { lcp: 600 } });
  });

  it('refuses malformed and oversized beacons with a reason, and stores nothing of them', async () => {
    const loads = async () => (await t().rows<{ n: number }>`SELECT COUNT(*) AS n FROM rum_loads`)[0]?.n;
    const before = await loads();
    const notJson = await send(t().url, '{"load":');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: 'A beacon is a JSON object' });
    const badVersion = await send(t().url, beacon({ versions: { header: '../../etc' } }));
    expect(badVersion.status).toBe(400);
    expect(((await badVersion.json()) as { error: string }).error).toMatch(/^Invalid beacon: versions\.header/);
    const unknownField = await send(t().url, { ...beacon(), email: 'clara@example.com' });
    expect(unknownField.status).toBe(400);
    const hugeValue = await send(t().url, beacon({ vitals: { LCP: { value: 1e12, owner: 'header' } } }));
    expect(hugeValue.status).toBe(400);
    const tooManyErrors = await send(
      t().url,
      beacon({
        errors: Array.from({ length: 21 }, () => ({
          owner: 'header' as const,
          kind: 'uncaught' as const,
          message: 'x',
        })),
      }),
    );
    expect(tooManyErrors.status).toBe(400);
    const oversized = await send(t().url, { ...beacon(), padding: 'x'.repeat(20_000) });
    expect(oversized.status).toBe(413);
    expect(await loads()).toBe(before);
  });

  it("refuses a beacon from a foreign page (it would be another site's figures)", async () => {
    expect((await send(t().url, beacon(), FOREIGN_ORIGIN)).status).toBe(403);
  });

  it('keeps the figures behind the admin token', async () => {
    expect((await fetch(`${t().url}/internal/rum/figures`)).status).toBe(401);
    const bad = await fetch(`${t().url}/internal/rum/figures?since=yesterday`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(bad.status).toBe(400);
  });
});

describe('flooding and the switch', () => {
  it('answers 429 with Retry-After once a client has sent its share for the minute', async () => {
    const api = await startTestApi({ RUM_BEACONS_PER_MINUTE: '3' });
    try {
      const statuses = [];
      await awayFromWindowEnd();
      for (let i = 0; i < 5; i++) statuses.push((await send(api.url, beacon())).status);
      expect(statuses).toEqual([204, 204, 204, 429, 429]);
      const refused = await send(api.url, beacon());
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await figures(api.url)).figures.find((f) => f.remote === 'header')?.loads).toBe(3);
    } finally {
      await api.close();
    }
  });

  it('stores nothing when collection is switched off', async () => {
    const api = await startTestApi({ RUM_COLLECT: 'off' });
    try {
      const res = await send(api.url, beacon());
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Real-user collection is switched off' });
      expect((await figures(api.url)).figures).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it('forgets page loads past their keeping time, with their remotes and errors', async () => {
    const api = await startTestApi({ RUM_BEACONS_PER_MINUTE: '100' });
    try {
      const old = beacon({ errors: [{ owner: 'header', kind: 'load', message: 'down' }] });
      await send(api.url, old);
      await api.rows`UPDATE rum_loads SET received_at = '2026-01-01T00:00:00.000Z' WHERE load_id = ${old.load}`;
      await send(api.url, beacon());
      const count = async (table: string) =>
        (await api.rows<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`)[0]?.n;
      expect(await api.api.services.repos.rum.prune('2026-06-01T00:00:00.000Z')).toBe(1);
      expect([await count('rum_loads'), await count('rum_load_remotes'), await count('rum_errors')]).toEqual([1, 2, 0]);
    } finally {
      await api.close();
    }
  });

  it('a rate window lets a key in again in its next window, and other keys meanwhile', async () => {
    let now = 0;
    const hits = new Map<string, number>();
    const counter = {
      hit: async (key: string, start: number) => {
        const n = (hits.get(`${key}@${start}`) ?? 0) + 1;
        hits.set(`${key}@${start}`, n);
        return n;
      },
    };
    const window = new RateWindow(counter, 2, 60_000, () => now);
    expect([await window.hit('a'), await window.hit('a'), await window.hit('a')]).toEqual([0, 0, 60]);
    expect(await window.hit('b')).toBe(0);
    now = 59_000;
    expect(await window.hit('a')).toBe(1);
    now = 60_000;
    expect(await window.hit('a')).toBe(0);
  });
});
