import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { LOGIN_THROTTLE_RULES, LoginThrottle } from '../auth/loginThrottle.js';
import { verifyPassword, hashPassword } from '../auth/passwords.js';
import { clearGuestCart, endSession, guestCartKey, sessionToken, startSession } from '../auth/sessions.js';
import { clientAddress } from '../http/client.js';
import { HttpError, notLoggedIn } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import type { ChosenRole } from '../repositories/users.js';
import { endLiveAccess, type Services } from '../services.js';

export function registerAuthRoutes(r: Router, services: Services): void {
  const { repos, config, live } = services;
  /** Moves a visitor's cart into the account they just signed into. */
  const adoptGuestCart = (c: Parameters<typeof guestCartKey>[0], userId: number) => {
    const guestKey = guestCartKey(c, config, false);
    if (!guestKey) return;
    repos.cart.adopt(guestKey, userId);
    clearGuestCart(c, config);
  };

  const throttle = new LoginThrottle({ ...LOGIN_THROTTLE_RULES, slowMsPerFailure: config.loginFailureDelayMs });
  r.visitor(
    'login',
    z.object({ login: fields.text(254), password: z.string().min(1, 'must not be empty').max(200) }),
    async ({ login, password }, { c }) => {
      const row = repos.users.forLogin(login);
      // An email and a profile name of one user are one account; guesses at unknown names count too.
      const account = row ? `user:${row.id}` : `name:${login.toLowerCase()}`;
      const client = clientAddress(c, config);
      const wait = throttle.retryAfterSeconds(account, client);
      if (wait > 0)
        throw new HttpError(429, `Too many failed logins: try again in ${wait} s`, undefined, {
          'Retry-After': String(wait),
        });
      if (!row || !(await verifyPassword(password, row.passwordHash))) {
        await sleep(throttle.failed(account, client));
        throw new HttpError(401, 'Wrong email, profile name or password');
      }
      throttle.succeeded(account, client);
      repos.transaction(() => {
        startSession(c, repos.sessions, config, row.id);
        adoptGuestCart(c, row.id);
      });
      return repos.users.info({ ...row, roles: repos.users.rolesOf(row.id) });
    },
  );

  r.visitor(
    'signup',
    z.object({
      username: fields.text(60),
      profileName: fields.profileName(),
      email: fields.email(),
      password: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
    }),
    async ({ username, profileName, email, password }, { c }) => {
      const taken = repos.users.takenField(profileName, email);
      if (taken)
        throw new HttpError(
          409,
          taken === 'profileName' ? 'This profile name is taken' : 'An account with this email exists',
          taken,
        );
      const passwordHash = await hashPassword(password);
      const id = repos.transaction(() => {
        const userId = repos.users.create({ profileName, username, email, passwordHash });
        startSession(c, repos.sessions, config, userId);
        adoptGuestCart(c, userId);
        return userId;
      });
      c.status(201);
      return repos.users.info({ profileName, username, profilePicturePath: null, roles: repos.users.rolesOf(id) });
    },
  );

  r.visitor('logout', noFields, async (_input, { c, user }) => {
    const token = sessionToken(c);
    // The session's broker logins first: they are found through the session's rows.
    if (token) await endLiveAccess(services, token);
    endSession(c, repos.sessions, config, token);
    // SPEC.md section 4: the browser treats 401 as a successful logout too.
    if (!user) throw notLoggedIn();
    return { loggedOut: true as const };
  });

  // One login per page (each page has its one connection); all end with the session.
  r.user('getLiveCredentials', noFields, async (_input, { user }) => {
    const login = {
      username: `web-${randomBytes(12).toString('base64url')}`,
      password: randomBytes(32).toString('base64url'),
    };
    repos.liveClients.add(login.username, user.token, login.password);
    try {
      await live.admit({ ...login, profileName: user.profileName });
    } catch (error) {
      console.error(`[live] could not admit a broker login: ${error instanceof Error ? error.message : String(error)}`);
      throw new HttpError(503, 'Live updates are unavailable right now');
    }
    return login;
  });

  r.user('checkAuthentication', noFields, () => ({ authenticated: true as const }));

  r.user('getUserInfo', noFields, (_input, { user }) => repos.users.info(user));

  r.user(
    'updateRoles',
    z.object({ driver: fields.boolean(), media: fields.boolean() }),
    ({ driver, media }, { user }) => {
      if (!driver && !media) throw new HttpError(400, 'Choose at least one of driver or media', 'driver');
      // EVENT_ORGANIZER is granted by the business, not chosen here, so it is kept as it is.
      const chosen: ChosenRole[] = [...(driver ? (['DRIVER'] as const) : []), ...(media ? (['MEDIA'] as const) : [])];
      repos.users.setChosenRoles(user.id, chosen);
      return repos.users.info({ ...user, roles: repos.users.rolesOf(user.id) });
    },
  );
}
