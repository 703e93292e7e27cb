import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { COOKIE_LOGGED_IN, LOGGED_IN_COOKIE_DAYS_AT_LOGOUT } from '@marketplace/shared/constants';
import type { Role } from '@marketplace/shared/contract';
import type { ApiConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { AppEnv, SessionUser } from '../http/env.js';
import { rolesOf } from '../model.js';

export const SESSION_COOKIE = 'session';
export const GUEST_CART_COOKIE = 'guestCart';
const SESSION_DAYS = 30;
const DAY_SECONDS = 86_400;

export function parseCookieHeader(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

export function userForToken(db: Db, token: string | undefined): SessionUser | null {
  if (!token) return null;
  const row = db
    .prepare(
      `SELECT u.id, u.profile_name, u.username, u.profile_picture FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token = ? AND s.expires_at > ?`,
    )
    .get(token, new Date().toISOString()) as
    | { id: number; profile_name: string; username: string; profile_picture: string | null }
    | undefined;
  if (!row) return null;
  return {
    id: row.id,
    profileName: row.profile_name,
    username: row.username,
    profilePicturePath: row.profile_picture,
    roles: rolesOf(db, row.id) as Role[],
    token,
  };
}

function cookieOptions(config: ApiConfig) {
  return {
    path: '/',
    secure: config.cookieSecure,
    sameSite: 'Lax' as const,
    ...(config.cookieDomain ? { domain: config.cookieDomain } : {}),
  };
}

/**
 * Starts a session: the HttpOnly session cookie, and the readable loggedIn=yes cookie the
 * browser side keys its logged-in state on (SPEC.md section 5).
 */
export function startSession(c: Context<AppEnv>, db: Db, config: ApiConfig, userId: number): string {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const expires = new Date(now.getTime() + SESSION_DAYS * DAY_SECONDS * 1000);
  db.prepare('INSERT INTO sessions (token, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
    token,
    userId,
    now.toISOString(),
    expires.toISOString(),
  );
  setCookie(c, SESSION_COOKIE, token, { ...cookieOptions(config), httpOnly: true, maxAge: SESSION_DAYS * DAY_SECONDS });
  setCookie(c, COOKIE_LOGGED_IN, 'yes', { ...cookieOptions(config), maxAge: SESSION_DAYS * DAY_SECONDS });
  return token;
}

export function endSession(c: Context<AppEnv>, db: Db, config: ApiConfig, token: string | undefined): void {
  if (token) db.prepare('DELETE FROM sessions WHERE token = ?').run(token);
  deleteCookie(c, SESSION_COOKIE, cookieOptions(config));
  setCookie(c, COOKIE_LOGGED_IN, 'no', { ...cookieOptions(config), maxAge: LOGGED_IN_COOKIE_DAYS_AT_LOGOUT * DAY_SECONDS });
}

export function sessionToken(c: Context<AppEnv>): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

/** A visitor's cart lives under a random HttpOnly cookie until they log in. */
export function guestCartKey(c: Context<AppEnv>, config: ApiConfig, create: boolean): string | null {
  let token = getCookie(c, GUEST_CART_COOKIE);
  if (!token && create) {
    token = randomBytes(18).toString('base64url');
    setCookie(c, GUEST_CART_COOKIE, token, { ...cookieOptions(config), httpOnly: true, maxAge: SESSION_DAYS * DAY_SECONDS });
  }
  return token ? `g:${token}` : null;
}

export function clearGuestCart(c: Context<AppEnv>, config: ApiConfig): void {
  deleteCookie(c, GUEST_CART_COOKIE, cookieOptions(config));
}
