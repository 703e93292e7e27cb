import {
  BEACON_MAX_PER_LOAD,
  type Beacon,
  type SeriesPoint,
  type TopError,
  type VersionFigures,
} from '@marketplace/shared/platform';
import type { Db } from '../db/database.js';
import { inTransaction, nowIso } from './sql.js';

/** Past this many stored errors a page load's further errors are counted, not kept. */
const ERRORS_KEPT_PER_LOAD = 50;

interface FigureRow {
  load_id: string;
  browser: string | null;
  render: string | null;
  remote: string;
  version: string;
  remote_errors: number;
  received_at: string;
  lcp: number | null;
  lcp_owner: string | null;
  inp: number | null;
  cls: number | null;
  ttfb: number | null;
}

/** The nearest-rank 75th percentile, as field tools report Web Vitals; null for no values. */
export function p75(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.75 * sorted.length) - 1] ?? null;
}

const present = (values: (number | null)[]) => values.filter((v): v is number => v !== null);

/** Whether `a` came before `b`: by arrival, then by id. */
const earlier = (a: FigureRow, b: FigureRow) =>
  a.received_at < b.received_at || (a.received_at === b.received_at && a.load_id < b.load_id);

/** The first row of each group `key` puts `rows` in. */
function firstOf(rows: FigureRow[], key: (row: FigureRow) => string): FigureRow[] {
  const first = new Map<string, FigureRow>();
  for (const row of rows) {
    const k = key(row);
    const kept = first.get(k);
    if (!kept || earlier(row, kept)) first.set(k, row);
  }
  return [...first.values()];
}

/**
 * The page loads a canary is judged on, among `rows`: one per server render, its first (nginx
 * serves a kept page to every visitor of its address for a few seconds: their loads share the
 * render and its failures, which would otherwise count as many), then each browser's first of
 * those: one outcome per browser, however often it loads or fails. Which loads count depends on
 * the order they came in, never on how they fared. A load without a render (rendered in the
 * browser) is its own; one without a browser (a token signed before there were) stands for a
 * browser of its own.
 */
export function firstLoadPerBrowser(rows: FigureRow[]): FigureRow[] {
  const perRender = firstOf(rows, (row) => row.render ?? `load:${row.load_id}`);
  return firstOf(perRender, (row) => row.browser ?? `load:${row.load_id}`);
}

function figuresOf(remote: string, version: string, rows: FigureRow[]): Omit<VersionFigures, 'topError'> {
  const errorLoads = rows.filter((r) => r.remote_errors > 0).length;
  const browsers = firstLoadPerBrowser(rows);
  return {
    remote,
    version,
    loads: rows.length,
    errorLoads,
    errorRate: rows.length ? errorLoads / rows.length : 0,
    browsers: browsers.length,
    errorBrowsers: browsers.filter((r) => r.remote_errors > 0).length,
    p75: {
      lcp: p75(present(rows.map((r) => r.lcp))),
      inp: p75(present(rows.map((r) => r.inp))),
      cls: p75(present(rows.map((r) => r.cls))),
      ttfb: p75(present(rows.map((r) => r.ttfb))),
    },
    lcpOwnedShare: rows.length ? rows.filter((r) => r.lcp_owner === remote).length / rows.length : 0,
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export type RumRepository = ReturnType<typeof rumRepository>;

/** Real-user beacons (shared/src/platform/beacon.ts), merged per page load, and the figures read from them. */
export function rumRepository(db: Db) {
  /** One row per (page load, rendered remote) since `since`. */
  const rows = (since: string): Promise<FigureRow[]> =>
    db
      .selectFrom('rum_load_remotes as r')
      .innerJoin('rum_loads as l', 'l.load_id', 'r.load_id')
      .select([
        'l.load_id',
        'l.browser',
        'l.render',
        'r.remote',
        'r.version',
        'r.errors as remote_errors',
        'l.received_at',
        'l.lcp',
        'l.lcp_owner',
        'l.inp',
        'l.cls',
        'l.ttfb',
      ])
      .where('l.received_at', '>=', since)
      .orderBy('l.received_at')
      .orderBy('l.load_id')
      .execute();

  /**
   * Per remote and version (`remote\0version`), the commonest error of its page loads received
   * since `since`; of errors as common, the one seen last.
   */
  const topErrors = async (since: string): Promise<Map<string, TopError>> => {
    const pairs = await db
      .selectFrom('rum_errors as e')
      .innerJoin('rum_loads as l', 'l.load_id', 'e.load_id')
      .select((eb) => [
        'e.owner',
        'e.version',
        'e.message',
        'e.frame',
        eb.fn.countAll<number>().as('n'),
        eb.fn.max('e.id').as('latest'),
      ])
      .where('l.received_at', '>=', since)
      .where('e.version', 'is not', null)
      .groupBy(['e.owner', 'e.version', 'e.message', 'e.frame'])
      .orderBy('n', 'desc')
      .orderBy('latest', 'desc')
      .execute();
    const top = new Map<string, TopError>();
    for (const { owner, version, message, frame, n } of pairs) {
      const key = `${owner}\0${version}`;
      const first = top.get(key);
      if (first) first.total += n;
      else top.set(key, { message, frame, count: n, total: n });
    }
    return top;
  };

  return {
    rows,

    /** Whether a page load has been counted (its first beacon was stored). */
    async known(load: string): Promise<boolean> {
      return (
        (await db.selectFrom('rum_loads').select('load_id').where('load_id', '=', load).executeTakeFirst()) !==
        undefined
      );
    },

    /**
     * The `remote@version`s that this beacon of `load` would add to the figures as units: those the
     * load has not reported yet and that `browser` has no other page load of (null: a load of its
     * own, each of its remotes new to it).
     */
    async newUnits(load: string, browser: string | null, versions: Beacon['versions']): Promise<string[]> {
      const named = Object.entries(versions);
      if (named.length === 0) return [];
      const reported = await db.selectFrom('rum_load_remotes').select('remote').where('load_id', '=', load).execute();
      const fresh = named.filter(([remote]) => !reported.some((r) => r.remote === remote));
      if (browser === null || fresh.length === 0) return fresh.map(([remote, version]) => `${remote}@${version}`);
      const seen = await db
        .selectFrom('rum_load_remotes as r')
        .innerJoin('rum_loads as l', 'l.load_id', 'r.load_id')
        .select(['r.remote', 'r.version'])
        .where('l.browser', '=', browser)
        .where('l.load_id', '!=', load)
        .execute();
      return fresh
        .filter(([remote, version]) => !seen.some((r) => r.remote === remote && r.version === version))
        .map(([remote, version]) => `${remote}@${version}`);
    },

    /**
     * Merges one beacon into its page load, in one transaction: the load is created on its first
     * beacon; each vital is replaced by the latest value (the page sends them as they stand); each
     * rendered remote keeps the version it was first reported with; errors are added. A final
     * beacon, or the load's BEACON_MAX_PER_LOAD-th, closes the load; a beacon of a closed load
     * changes nothing and answers 'closed'. The count and the close are one conditional update,
     * so two beacons at once on two instances cannot both pass a load's last one. `browser`, the
     * id its token signs, and the page's server render are kept from the load's first beacon.
     */
    async record(beacon: Beacon, browser: string | null = null): Promise<'recorded' | 'closed'> {
      const at = nowIso();
      const load = beacon.load;
      return inTransaction(db, async (trx) => {
        await trx
          .insertInto('rum_loads')
          .values({ load_id: load, received_at: at, browser, render: beacon.render ?? null })
          .onConflict((oc) => oc.column('load_id').doNothing())
          .execute();
        const open = await trx
          .updateTable('rum_loads')
          .set((eb) => ({
            beacons: eb('beacons', '+', 1),
            closed: beacon.final
              ? 1
              : eb
                  .case()
                  .when('beacons', '>=', BEACON_MAX_PER_LOAD - 1)
                  .then(1)
                  .else(0)
                  .end(),
          }))
          .where('load_id', '=', load)
          .where('closed', '=', 0)
          .returning('beacons')
          .executeTakeFirst();
        if (!open) return 'closed';
        const versions = Object.entries(beacon.versions);
        if (versions.length > 0)
          await trx
            .insertInto('rum_load_remotes')
            .values(versions.map(([remote, version]) => ({ load_id: load, remote, version })))
            .onConflict((oc) => oc.columns(['load_id', 'remote']).doNothing())
            .execute();
        const { LCP, INP, CLS, TTFB } = beacon.vitals;
        const vitals = {
          ...(LCP && { lcp: LCP.value, lcp_owner: LCP.owner }),
          ...(INP && { inp: INP.value, inp_owner: INP.owner }),
          ...(CLS && { cls: CLS.value, cls_owner: CLS.owner }),
          ...(TTFB && { ttfb: TTFB.value }),
        };
        if (Object.keys(vitals).length > 0)
          await trx.updateTable('rum_loads').set(vitals).where('load_id', '=', load).execute();
        for (const error of beacon.errors) {
          const remote = await trx
            .updateTable('rum_load_remotes')
            .set((eb) => ({ errors: eb('errors', '+', 1) }))
            .where('load_id', '=', load)
            .where('remote', '=', error.owner)
            .returning('version')
            .executeTakeFirst();
          const { errors } = await trx
            .updateTable('rum_loads')
            .set((eb) => ({ errors: eb('errors', '+', 1) }))
            .where('load_id', '=', load)
            .returning('errors')
            .executeTakeFirstOrThrow();
          if (errors <= ERRORS_KEPT_PER_LOAD)
            await trx
              .insertInto('rum_errors')
              .values({
                load_id: load,
                owner: error.owner,
                version: remote?.version ?? null,
                kind: error.kind,
                message: error.message,
                frame: error.frame ?? null,
                received_at: at,
              })
              .execute();
        }
        return 'recorded';
      });
    },

    /** Per remote and version, the figures of the page loads received since `since` (ISO). */
    async figures(since: string): Promise<VersionFigures[]> {
      const [loads, top] = await Promise.all([rows(since), topErrors(since)]);
      return [...groupBy(loads, (r) => `${r.remote}\0${r.version}`).entries()].map(([key, group]) => ({
        ...figuresOf(group[0]?.remote ?? '', group[0]?.version ?? '', group),
        topError: top.get(key) ?? null,
      }));
    },

    /** The same figures in buckets of `bucketMinutes`, oldest first, for a chart over time. */
    async series(since: string, bucketMinutes: number): Promise<SeriesPoint[]> {
      const bucketMs = bucketMinutes * 60_000;
      const buckets = groupBy(
        await rows(since),
        (r) => `${r.remote}\0${r.version}\0${Math.floor(Date.parse(r.received_at) / bucketMs) * bucketMs}`,
      );
      return [...buckets.entries()]
        .map(([key, group]) => {
          const [remote = '', version = '', start = '0'] = key.split('\0');
          const figures = figuresOf(remote, version, group);
          return {
            remote,
            version,
            start: new Date(Number(start)).toISOString(),
            loads: figures.loads,
            errorRate: figures.errorRate,
            p75Lcp: figures.p75.lcp,
          };
        })
        .sort((a, b) => a.start.localeCompare(b.start));
    },

    /** Removes the page loads received before `before` (ISO), with their remotes and errors. */
    async prune(before: string, batch = 1000): Promise<number> {
      const { numDeletedRows } = await db
        .deleteFrom('rum_loads')
        .where('load_id', 'in', (eb) =>
          eb.selectFrom('rum_loads').select('load_id').where('received_at', '<', before).limit(batch),
        )
        .executeTakeFirst();
      return Number(numDeletedRows);
    },
  };
}
