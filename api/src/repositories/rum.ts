import type { Beacon, Owner } from '@marketplace/shared/platform';
import type { Db } from '../db/database.js';
import { nowIso } from './sql.js';

/** Past this many stored errors a page load's further errors are counted, not kept. */
const ERRORS_KEPT_PER_LOAD = 50;

/** The figures of one remote at one version over a window: what a release is judged on. */
export interface VersionFigures {
  remote: string;
  version: string;
  /** Page loads that used this version (rendered it, or tried to). */
  loads: number;
  /** Of those, the loads in which this remote had at least one error. */
  errorLoads: number;
  errorRate: number;
  /** 75th percentiles of those loads' page vitals (null when none reported it). */
  p75: { lcp: number | null; inp: number | null; cls: number | null; ttfb: number | null };
  /** Share of those loads whose LCP element was this remote's. */
  lcpOwnedShare: number;
}

/** One time bucket of a version's figures, for the chart. */
export interface SeriesPoint {
  remote: string;
  version: string;
  /** Bucket start, ISO. */
  start: string;
  loads: number;
  errorRate: number;
  p75Lcp: number | null;
}

interface FigureRow {
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

function figuresOf(remote: string, version: string, rows: FigureRow[]): VersionFigures {
  const errorLoads = rows.filter((r) => r.remote_errors > 0).length;
  return {
    remote,
    version,
    loads: rows.length,
    errorLoads,
    errorRate: rows.length ? errorLoads / rows.length : 0,
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
  const upsertLoad = db.prepare(
    `INSERT INTO rum_loads (load_id, received_at) VALUES (?, ?) ON CONFLICT (load_id) DO NOTHING`,
  );
  const setVital = {
    LCP: db.prepare('UPDATE rum_loads SET lcp = ?, lcp_owner = ? WHERE load_id = ?'),
    INP: db.prepare('UPDATE rum_loads SET inp = ?, inp_owner = ? WHERE load_id = ?'),
    CLS: db.prepare('UPDATE rum_loads SET cls = ?, cls_owner = ? WHERE load_id = ?'),
    TTFB: db.prepare('UPDATE rum_loads SET ttfb = ? WHERE load_id = ?'),
  };
  const upsertRemote = db.prepare(
    `INSERT INTO rum_load_remotes (load_id, remote, version) VALUES (?, ?, ?) ON CONFLICT (load_id, remote) DO NOTHING`,
  );
  const countRemoteError = db.prepare(
    'UPDATE rum_load_remotes SET errors = errors + 1 WHERE load_id = ? AND remote = ? RETURNING version',
  );
  const countLoadError = db.prepare('UPDATE rum_loads SET errors = errors + 1 WHERE load_id = ? RETURNING errors');
  const keepError = db.prepare(
    'INSERT INTO rum_errors (load_id, owner, version, kind, message, received_at) VALUES (?, ?, ?, ?, ?, ?)',
  );

  return {
    /**
     * Merges one beacon into its page load, in one transaction: the load is created on its first
     * beacon; each vital is replaced by the latest value (the page sends them as they stand); each
     * rendered remote keeps the version it was first reported with; errors are added.
     */
    record(beacon: Beacon): void {
      const at = nowIso();
      db.transaction(() => {
        upsertLoad.run(beacon.load, at);
        for (const [remote, version] of Object.entries(beacon.versions)) upsertRemote.run(beacon.load, remote, version);
        const { LCP, INP, CLS, TTFB } = beacon.vitals;
        if (LCP) setVital.LCP.run(LCP.value, LCP.owner, beacon.load);
        if (INP) setVital.INP.run(INP.value, INP.owner, beacon.load);
        if (CLS) setVital.CLS.run(CLS.value, CLS.owner, beacon.load);
        if (TTFB) setVital.TTFB.run(TTFB.value, beacon.load);
        for (const error of beacon.errors) {
          const remote = countRemoteError.get(beacon.load, error.owner) as { version: string } | undefined;
          const { errors } = countLoadError.get(beacon.load) as { errors: number };
          if (errors <= ERRORS_KEPT_PER_LOAD)
            keepError.run(beacon.load, error.owner, remote?.version ?? null, error.kind, error.message, at);
        }
      })();
    },

    /** Per remote and version, the figures of the page loads received since `since` (ISO). */
    figures(since: string): VersionFigures[] {
      const rows = this.rows(since);
      return [...groupBy(rows, (r) => `${r.remote}\0${r.version}`).values()].map((group) =>
        figuresOf(group[0]?.remote ?? '', group[0]?.version ?? '', group),
      );
    },

    /** The same figures in buckets of `bucketMinutes`, oldest first, for a chart over time. */
    series(since: string, bucketMinutes: number): SeriesPoint[] {
      const bucketMs = bucketMinutes * 60_000;
      const rows = this.rows(since);
      const buckets = groupBy(
        rows,
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

    /** The last errors received for a remote's version, newest first (what broke, in its words). */
    recentErrors(remote: Owner, version: string, limit = 5): { kind: string; message: string }[] {
      return db
        .prepare('SELECT kind, message FROM rum_errors WHERE owner = ? AND version = ? ORDER BY id DESC LIMIT ?')
        .all(remote, version, limit) as { kind: string; message: string }[];
    },

    /** Removes the page loads received before `before` (ISO), with their remotes and errors. */
    prune(before: string): number {
      return db.prepare('DELETE FROM rum_loads WHERE received_at < ?').run(before).changes;
    },

    /** One row per (page load, rendered remote) since `since`. */
    rows(since: string): FigureRow[] {
      return db
        .prepare(
          `SELECT r.remote, r.version, r.errors AS remote_errors, l.received_at, l.lcp, l.lcp_owner, l.inp, l.cls, l.ttfb
           FROM rum_load_remotes r JOIN rum_loads l ON l.load_id = r.load_id
           WHERE l.received_at >= ?
           ORDER BY l.received_at`,
        )
        .all(since) as FigureRow[];
    },
  };
}
