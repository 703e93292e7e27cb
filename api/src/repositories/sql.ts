/** What every repository's SQL needs: paging and the stored timestamps' format. */

/** One page of a list, and whether more exist. */
export interface Page<T> {
  items: T[];
  more: boolean;
}

/** The LIMIT and OFFSET that read one page plus one row, to tell whether more exist without a COUNT. */
export const pageWindow = (pageNo: number, limit: number): [number, number] => [limit + 1, pageNo * limit];

/** Cuts rows read with pageWindow down to the page. */
export function pageOf<T>(rows: T[], limit: number): Page<T> {
  return { items: rows.slice(0, limit), more: rows.length > limit };
}

/** Timestamps are stored as ISO 8601 UTC text, which sorts as time does. */
export const nowIso = () => new Date().toISOString();
