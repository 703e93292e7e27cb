import Cookies from 'js-cookie';
import {
  COOKIE_LOGGED_IN,
  COOKIE_LOGIN_REDIRECT,
  LOGGED_IN_COOKIE_DAYS_AT_LOGOUT,
  LOGGED_IN_COOKIE_DAYS_ON_AUTH_FAILURE,
  LOGIN_REDIRECT_COOKIE_DAYS,
  SESSION_DAYS,
} from './constants.js';
import { cookieIn, loggedInIn } from './platform/cookies.js';

/**
 * The parent domain of the page (SPEC.md section 4 "Logout": the cookie is set on the parent
 * domain), so every subdomain's app sees the same state; none for localhost, an IP or a host
 * that is itself the registrable domain. The registrable domain comes from the public suffix
 * list: `app.example.co.uk` is `.example.co.uk`, never `.co.uk`, which browsers refuse (the
 * cookie would then stay 'yes' after logout). The list is 48 KB compressed, so it is fetched
 * only when a cookie is set, not with the page.
 */
export async function parentDomain(hostname = location.hostname): Promise<string | undefined> {
  const { parse } = await import(/* webpackChunkName: "public-suffix-list" */ 'tldts');
  // Private suffixes count too (github.io, …): browsers refuse cookies on those as well.
  const { domain, isIp } = parse(hostname, { allowPrivateDomains: true });
  if (isIp || !domain || domain === hostname) return undefined;
  return `.${domain}`;
}

/**
 * SPEC.md section 5: logged in only when the cookie equals 'yes'; this page's cookies, or a
 * request's Cookie header (the page's server).
 */
export function isLoggedInCookie(cookieHeader?: string): boolean {
  // No page on a server (the shared package loads there too): no cookie unless given one.
  return loggedInIn(cookieHeader ?? globalThis.document?.cookie);
}

const LOGGED_IN_COOKIE_DAYS = {
  login: SESSION_DAYS,
  logout: LOGGED_IN_COOKIE_DAYS_AT_LOGOUT,
  authFailure: LOGGED_IN_COOKIE_DAYS_ON_AUTH_FAILURE,
};

/**
 * Writes the loggedIn cookie on the parent domain, and removes a copy of it on the page's own host
 * (one the API wrote without COOKIE_DOMAIN, when it answers on the page's host): with two, the
 * browser sends the older first, and a "yes" written at log in would outlive the "no" of a logout.
 */
export async function setLoggedInCookie(
  value: 'yes' | 'no',
  reason: keyof typeof LOGGED_IN_COOKIE_DAYS,
): Promise<void> {
  const domain = await parentDomain().catch(() => undefined);
  if (domain) Cookies.remove(COOKIE_LOGGED_IN, { path: '/' });
  Cookies.set(COOKIE_LOGGED_IN, value, { expires: LOGGED_IN_COOKIE_DAYS[reason], path: '/', sameSite: 'Lax', domain });
}

/** Remembers where to return after logging in (1 day). */
export function setLoginRedirect(path: string): void {
  Cookies.set(COOKIE_LOGIN_REDIRECT, path, { expires: LOGIN_REDIRECT_COOKIE_DAYS, path: '/', sameSite: 'Lax' });
}

/** Reads and clears the return path; only a site-relative path is honoured. */
export function takeLoginRedirect(): string | null {
  // Read as every cookie is read (platform/cookies.ts); js-cookie wrote it URI-encoded.
  const raw = cookieIn(document.cookie, COOKIE_LOGIN_REDIRECT);
  let value: string | null = null;
  try {
    value = raw === null ? null : decodeURIComponent(raw);
  } catch {
    // Not one js-cookie wrote: no way back is better than a wrong one.
  }
  Cookies.remove(COOKIE_LOGIN_REDIRECT, { path: '/' });
  return value && value.startsWith('/') && !value.startsWith('//') ? value : null;
}
