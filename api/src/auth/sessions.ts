import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { cookieIn, PLATFORM_COOKIES } from '@marketplace/shared/node/choice';
import { COOKIE_LOGGED_IN, LOGGED_IN_COOKIE_DAYS_AT_LOGOUT, SESSION_DAYS } from '@marketplace/shared/constants';
import type { ApiConfig } from '../config.js';
import type { AppEnv } from '../http/env.js';
import { guestCartKeyOf } from '../repositories/cart.js';
import { sessionKeyOf, type SessionsRepository } from '../repositories/sessions.js';

export const SESSION_COOKIE = PLATFORM_COOKIES.session;
export const GUEST_CART_COOKIE = PLATFORM_COOKIES.guestCart;
const DAY_SECONDS = 86_400;

/**
 * One of the platform's cookies in a request, read as every part of the platform reads cookies
 * (shared/node/choice.mjs: the first of the name). Its values are base64url: nothing to decode.
 */
export function cookieOf(c: Context<AppEnv>, name: string): string | undefined {
  return cookieIn(c.req.header('cookie'), name) ?? undefined;
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
export async function startSession(
  c: Context<AppEnv>,
  sessions: SessionsRepository,
  config: ApiConfig,
  userId: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await sessions.create(
    token,
    userId,
    now,
    new Date(now.getTime() + SESSION_DAYS * DAY_SECONDS * 1000),
    c.req.header('user-agent') ?? null,
  );
  setCookie(c, SESSION_COOKIE, token, { ...cookieOptions(config), httpOnly: true, maxAge: SESSION_DAYS * DAY_SECONDS });
  setCookie(c, COOKIE_LOGGED_IN, 'yes', { ...cookieOptions(config), maxAge: SESSION_DAYS * DAY_SECONDS });
  return token;
}

/** Ends the session `key` (sessionKey: the one of this request's cookie) and clears this browser's cookies. */
export async function endSession(
  c: Context<AppEnv>,
  sessions: SessionsRepository,
  config: ApiConfig,
  key: string | undefined,
): Promise<void> {
  if (key) await sessions.delete(key);
  deleteCookie(c, SESSION_COOKIE, cookieOptions(config));
  setCookie(c, COOKIE_LOGGED_IN, 'no', {
    ...cookieOptions(config),
    maxAge: LOGGED_IN_COOKIE_DAYS_AT_LOGOUT * DAY_SECONDS,
  });
}

/** The key (repositories/sessions.ts sessionKeyOf) of the session this request's cookie names, if it has one. */
export function sessionKey(c: Context<AppEnv>): string | undefined {
  const token = cookieOf(c, SESSION_COOKIE);
  return token ? sessionKeyOf(token) : undefined;
}

/** A visitor's cart lives under a random HttpOnly cookie until they log in. */
export function guestCartKey(c: Context<AppEnv>, config: ApiConfig, create: boolean): string | null {
  let token = cookieOf(c, GUEST_CART_COOKIE);
  if (!token && create) {
    token = randomBytes(18).toString('base64url');
    setCookie(c, GUEST_CART_COOKIE, token, {
      ...cookieOptions(config),
      httpOnly: true,
      maxAge: SESSION_DAYS * DAY_SECONDS,
    });
  }
  return token ? guestCartKeyOf(token) : null;
}

export function clearGuestCart(c: Context<AppEnv>, config: ApiConfig): void {
  deleteCookie(c, GUEST_CART_COOKIE, cookieOptions(config));
}
