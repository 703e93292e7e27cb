/**
 * The real-user figures' shape (issue 39: declared once): what the API's operator route
 * `/internal/rum/figures` answers (api/src/repositories/rum.ts computes it) and what the release
 * plane reads (releases/figures.mjs, the canary's judge, `pnpm releases` and its report).
 */

/** The figures of one remote at one version over a window: what a release is judged on. */
export interface VersionFigures {
  remote: string;
  version: string;
  /** Page loads that used this version (rendered it, or tried to). */
  loads: number;
  /** Of those, the loads in which this remote had at least one error. */
  errorLoads: number;
  errorRate: number;
  /**
   * Browsers that used this version, each counted once, by its first page load of it in the
   * window: the unit a canary is judged on (cohorts stick to a browser, and a browser that fails
   * often would otherwise weigh as many browsers).
   */
  browsers: number;
  /** Of those, the browsers whose first page load of this version had an error of this remote. */
  errorBrowsers: number;
  /** 75th percentiles of those loads' page vitals (null when none reported it). */
  p75: { lcp: number | null; inp: number | null; cls: number | null; ttfb: number | null };
  /** Share of those loads whose LCP element was this remote's. */
  lcpOwnedShare: number;
  /** The error this version had most often in those loads, what a rollback names; null for none. */
  topError: TopError | null;
}

/**
 * A version's commonest error: its message and frame (where in the remote's files it was thrown;
 * null for errors without one), the same pair `count` times of the `total` errors kept of the
 * version's loads.
 */
export interface TopError {
  message: string;
  frame: string | null;
  count: number;
  total: number;
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

/** The operator route's answer: the figures since a time, and the same in time buckets. */
export interface FiguresAnswer {
  since: string;
  figures: VersionFigures[];
  series: SeriesPoint[];
}
