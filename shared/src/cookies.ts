import Cookies from 'js-cookie';
import {
  COOKIE_LOGGED_IN,
  COOKIE_LOGIN_REDIRECT,
  LOGGED_IN_COOKIE_DAYS_AT_LOGOUT,
  LOGGED_IN_COOKIE_DAYS_ON_AUTH_FAILURE,
  LOGIN_REDIRECT_COOKIE_DAYS,
} from './constants.js';

/**
 * The parent domain of the page (SPEC.md section 4 "Logout": the cookie is set on the parent
 * domain), so every subdomain's app sees the same state; none for localhost or an IP.
 */
export function parentDomain(hostname = location.hostname): string | undefined {
  if (hostname === 'localhost' || /^[\d.]+$/.test(hostname) || hostname.includes(':')) return undefined;
  const parts = hostname.split('.');
  return parts.length > 2 ? `.${parts.slice(-2).join('.')}` : undefined;
}

/** SPEC.md section 5: logged in only when the cookie equals 'yes'. */
export function isLoggedInCookie(): boolean {
  return Cookies.get(COOKIE_LOGGED_IN) === 'yes';
}

export function setLoggedInCookie(value: 'yes' | 'no', reason: 'logout' | 'authFailure'): void {
  const expires = reason === 'logout' ? LOGGED_IN_COOKIE_DAYS_AT_LOGOUT : LOGGED_IN_COOKIE_DAYS_ON_AUTH_FAILURE;
  Cookies.set(COOKIE_LOGGED_IN, value, { expires, path: '/', sameSite: 'Lax', domain: parentDomain() });
}

/** Remembers where to return after logging in (1 day). */
export function setLoginRedirect(path: string): void {
  Cookies.set(COOKIE_LOGIN_REDIRECT, path, { expires: LOGIN_REDIRECT_COOKIE_DAYS, path: '/', sameSite: 'Lax' });
}

/** Reads and clears the return path; only a site-relative path is honoured. */
export function takeLoginRedirect(): string | null {
  const value = Cookies.get(COOKIE_LOGIN_REDIRECT) ?? null;
  Cookies.remove(COOKIE_LOGIN_REDIRECT, { path: '/' });
  return value && value.startsWith('/') && !value.startsWith('//') ? value : null;
}
