import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Role } from '@marketplace/shared/contract';
import { LOGIN_THROTTLE_RULES, LoginThrottle } from '../auth/loginThrottle.js';
import { verifyPassword, hashPassword } from '../auth/passwords.js';
import { clearGuestCart, endSession, guestCartKey, sessionToken, startSession, userForToken } from '../auth/sessions.js';
import { clientAddress } from '../http/client.js';
import { HttpError, notLoggedIn } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { nowIso, rolesOf, toUserInfo } from '../model.js';
import type { Services } from '../services.js';

export function registerAuthRoutes(r: Router, { db, config, live }: Services): void {
  /** Moves a visitor's cart into the account they just signed into. */
  const adoptGuestCart = (c: Parameters<typeof guestCartKey>[0], userId: number) => {
    const guestKey = guestCartKey(c, config, false);
    if (!guestKey) return;
    db.prepare('INSERT OR IGNORE INTO cart_items (owner_key, identifier, item_type, added_at) SELECT ?, identifier, item_type, added_at FROM cart_items WHERE owner_key = ?').run(
      `u:${userId}`,
      guestKey,
    );
    db.prepare('DELETE FROM cart_items WHERE owner_key = ?').run(guestKey);
    clearGuestCart(c, config);
  };

  const throttle = new LoginThrottle({ ...LOGIN_THROTTLE_RULES, slowMsPerFailure: config.loginFailureDelayMs });
  r.visitor('login', z.object({ login: fields.text(254), password: z.string().min(1, 'must not be empty').max(200) }), async ({ login, password }, { c }) => {
    const row = db
      .prepare('SELECT id, profile_name, username, profile_picture, password_hash FROM users WHERE email = ? OR profile_name = ?')
      .get(login.toLowerCase(), login.toLowerCase()) as
      | { id: number; profile_name: string; username: string; profile_picture: string | null; password_hash: string }
      | undefined;
    // An email and a profile name of one user are one account; guesses at unknown names count too.
    const account = row ? `user:${row.id}` : `name:${login.toLowerCase()}`;
    const client = clientAddress(c, config);
    const wait = throttle.retryAfterSeconds(account, client);
    if (wait > 0) throw new HttpError(429, `Too many failed logins: try again in ${wait} s`, undefined, { 'Retry-After': String(wait) });
    if (!row || !(await verifyPassword(password, row.password_hash))) {
      await sleep(throttle.failed(account, client));
      throw new HttpError(401, 'Wrong email, profile name or password');
    }
    throttle.succeeded(account, client);
    db.transaction(() => {
      startSession(c, db, config, row.id);
      adoptGuestCart(c, row.id);
    })();
    return toUserInfo(config, { profileName: row.profile_name, username: row.username, profilePicturePath: row.profile_picture, roles: rolesOf(db, row.id) });
  });

  r.visitor(
    'signup',
    z.object({
      username: fields.text(60),
      profileName: fields.profileName(),
      email: fields.email(),
      password: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
    }),
    async ({ username, profileName, email, password }, { c }) => {
      const taken = db.prepare('SELECT profile_name, email FROM users WHERE profile_name = ? OR email = ?').get(profileName, email.toLowerCase()) as
        | { profile_name: string; email: string }
        | undefined;
      if (taken) {
        const field = taken.profile_name === profileName ? 'profileName' : 'email';
        throw new HttpError(409, field === 'profileName' ? 'This profile name is taken' : 'An account with this email exists', field);
      }
      const passwordHash = await hashPassword(password);
      const id = db.transaction(() => {
        const userId = Number(
          db
            .prepare('INSERT INTO users (profile_name, username, email, password_hash, profile_picture, bio, created_at) VALUES (?, ?, ?, ?, NULL, \'\', ?)')
            .run(profileName, username, email.toLowerCase(), passwordHash, nowIso()).lastInsertRowid,
        );
        startSession(c, db, config, userId);
        adoptGuestCart(c, userId);
        return userId;
      })();
      c.status(201);
      return toUserInfo(config, { profileName, username, profilePicturePath: null, roles: rolesOf(db, id) });
    },
  );

  r.visitor('logout', noFields, (_input, { c, user }) => {
    const token = sessionToken(c);
    endSession(c, db, config, token);
    if (token) live.endSession(token);
    // SPEC.md section 4: the browser treats 401 as a successful logout too.
    if (!user) throw notLoggedIn();
    return { loggedOut: true as const };
  });

  r.user('checkAuthentication', noFields, () => ({ authenticated: true as const }));

  r.user('getUserInfo', noFields, (_input, { user }) => toUserInfo(config, user));

  r.user('updateRoles', z.object({ driver: fields.boolean(), media: fields.boolean() }), ({ driver, media }, { c, user }) => {
    if (!driver && !media) throw new HttpError(400, 'Choose at least one of driver or media', 'driver');
    // EVENT_ORGANIZER is granted by the business, not chosen here, so it is kept as it is.
    const chosen: Role[] = [...(driver ? (['DRIVER'] as const) : []), ...(media ? (['MEDIA'] as const) : [])];
    db.transaction(() => {
      db.prepare("DELETE FROM user_roles WHERE user_id = ? AND role IN ('DRIVER', 'MEDIA')").run(user.id);
      const insert = db.prepare('INSERT INTO user_roles (user_id, role) VALUES (?, ?)');
      for (const role of chosen) insert.run(user.id, role);
    })();
    const fresh = userForToken(db, sessionToken(c));
    return toUserInfo(config, fresh ?? user);
  });
}
