import { cohortIn, cohortValue, PLATFORM_COOKIES } from '@marketplace/shared/platform';

/** Where a browser's cohort is kept: a first-party cookie, which the page's server reads too. */
export const COHORT_COOKIE = PLATFORM_COOKIES.cohort;
/** Kept a year, as long as a browser should stay on one side of a canary's share. */
const COHORT_MAX_AGE_S = 365 * 24 * 3600;

/** The page's cookies, as browserCohort reads and writes them. */
export interface CookieJar {
  cookie: string;
}

/**
 * This browser's cohort, 0-99, drawn once and kept in a cookie: a canary at N % serves the
 * browsers whose cohort is below N, so each stays on its version across reloads, and a page's
 * server can tell which version this browser gets. A cohort kept in localStorage by earlier
 * versions of the shell is moved into the cookie, so no browser changes sides.
 */
export function browserCohort(
  jar: CookieJar = document,
  storage: Pick<Storage, 'getItem'> = window.localStorage,
): number {
  const fromCookie = cohortIn(jar.cookie);
  if (fromCookie !== null) return fromCookie;
  const cohort = cohortValue(storage.getItem(COHORT_COOKIE)) ?? Math.floor(Math.random() * 100);
  jar.cookie = `${COHORT_COOKIE}=${cohort}; Path=/; Max-Age=${COHORT_MAX_AGE_S}; SameSite=Lax`;
  return cohort;
}

/**
 * The cohort this browser already has (its cookie, else one an earlier shell kept), without
 * drawing one; none where the browser refuses storage.
 */
export function keptCohort(jar: CookieJar = document, storage?: Pick<Storage, 'getItem'>): number | null {
  const fromCookie = cohortIn(jar.cookie);
  if (fromCookie !== null) return fromCookie;
  try {
    return cohortValue((storage ?? window.localStorage).getItem(COHORT_COOKIE));
  } catch {
    return null;
  }
}
