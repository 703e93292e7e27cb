import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { LOGIN_THROTTLE_RULES, LoginThrottle } from '../auth/loginThrottle.js';
import { verifyPassword, hashPassword } from '../auth/passwords.js';
import { clearGuestCart, endSession, guestCartKey, sessionKey, startSession } from '../auth/sessions.js';
import { clientAddress } from '../http/client.js';
import { HttpError, notLoggedIn } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import type { RepositorySet } from '../repositories/index.js';
import { isUniqueViolation } from '../repositories/sql.js';
import type { ChosenRole } from '../repositories/users/roles.js';
import { endSessionAndLiveAccess, type Services } from '../services.js';
import { userViews } from '../views/users.js';
import { newPassword, queueSignInMail, registerAccountSecurityRoutes } from './accountSecurity.js';

/** A hash no password is known to match, checked for names nobody has (made once, at first use). */
let unknownHash: Promise<string> | undefined;
const unknownAccountHash = () => (unknownHash ??= hashPassword(randomBytes(32).toString('base64url')));

export function registerAuthRoutes(r: Router, services: Services): void {
  const { repos, config } = services;
  const users = userViews(repos.urls);
  /** Moves a visitor's cart into the account they just signed into. */
  const adoptGuestCart = async (c: Parameters<typeof guestCartKey>[0], cart: RepositorySet['cart'], userId: number) => {
    const guestKey = guestCartKey(c, config, false);
    if (!guestKey) return;
    await cart.adopt(guestKey, userId);
    clearGuestCart(c, config);
  };

  const throttle = new LoginThrottle(repos.loginFailures, {
    ...LOGIN_THROTTLE_RULES,
    slowMsPerFailure: config.loginFailureDelayMs,
  });
  r.visitor(
    'login',
    z.object({ login: fields.text(254), password: z.string().min(1, 'must not be empty').max(200) }),
    async ({ login, password }, { c }) => {
      const row = await repos.users.forLogin(login);
      // An email and a profile name of one user are one account; guesses at unknown names count too.
      const account = row ? `user:${row.id}` : `name:${login.toLowerCase()}`;
      const admission = await throttle.admit(account, clientAddress(c, config));
      // The same words for a locked account, a client refused and a name nobody has.
      if ('refusedForSeconds' in admission) {
        const wait = admission.refusedForSeconds;
        throw new HttpError(429, `Too many failed logins: try again in ${wait} s, or reset your password`, undefined, {
          'Retry-After': String(wait),
        });
      }
      const { attempt } = admission;
      const refuse = async () => {
        await sleep(await attempt.failed());
        return new HttpError(401, 'Wrong email, profile name or password');
      };
      // A name nobody has costs one hash too, so the time of the answer does not tell it apart.
      const checked = await verifyPassword(password, row?.passwordHash ?? (await unknownAccountHash()));
      if (!row || !checked) throw await refuse();
      // The password was checked against the hash read before; the session is created only if that
      // hash is still the account's, read in the session's transaction (held: a reset or change
      // committing meanwhile is waited for, or finds the session and ends it), so a password that
      // was replaced while it was being checked starts no session.
      const started = await repos.transaction(async (tx) => {
        if ((await tx.users.passwordHashHeld(row.id)) !== row.passwordHash) return false;
        await startSession(c, tx.sessions, config, row.id);
        await adoptGuestCart(c, tx.cart, row.id);
        // The owner hears of every sign-in (unless they switched it off), with the session it started.
        await queueSignInMail(services, tx, c, row.id);
        return true;
      });
      if (!started) throw await refuse();
      await attempt.succeeded();
      return users.info({ ...row, roles: await repos.users.rolesOf(row.id) });
    },
  );

  r.visitor(
    'signup',
    z.object({
      username: fields.text(60),
      profileName: fields.profileName(),
      email: fields.email(),
      password: newPassword(),
    }),
    async ({ username, profileName, email, password }, { c }) => {
      const refuseTaken = (taken: 'profileName' | 'email') =>
        new HttpError(
          409,
          taken === 'profileName' ? 'This profile name is taken' : 'An account with this email exists',
          taken,
        );
      const taken = await repos.users.takenField(profileName, email);
      if (taken) throw refuseTaken(taken);
      const passwordHash = await hashPassword(password);
      let id: number;
      try {
        id = await repos.transaction(async (tx) => {
          const userId = await tx.users.create({ profileName, username, email, passwordHash });
          await startSession(c, tx.sessions, config, userId);
          await adoptGuestCart(c, tx.cart, userId);
          return userId;
        });
      } catch (error) {
        // Another request (on this instance or another) took the name or email since the check.
        if (!isUniqueViolation(error)) throw error;
        throw refuseTaken((await repos.users.takenField(profileName, email)) ?? 'profileName');
      }
      c.status(201);
      return users.info({
        profileName,
        username,
        profilePicturePath: null,
        roles: await repos.users.rolesOf(id),
      });
    },
  );

  r.visitor('logout', noFields, async (_input, { c, user }) => {
    const key = sessionKey(c);
    await endSessionAndLiveAccess(services, key, () => endSession(c, repos.sessions, config, key));
    // SPEC.md section 4: the browser treats 401 as a successful logout too.
    if (!user) throw notLoggedIn();
    return { loggedOut: true as const };
  });

  // A login the broker checks with the API (live/logins.ts, routes/brokerAuth.ts): signed, not
  // stored, and nothing is written to the broker; it names the session, which ends it.
  r.user('getLiveCredentials', noFields, async (_input, { user }) => {
    const identity = await repos.sessions.liveIdentityOf(user.token);
    if (!identity) throw notLoggedIn();
    return services.logins.issue(identity);
  });

  // Password reset and change, the list of sessions, the notification mails wanted.
  registerAccountSecurityRoutes(r, services, throttle);

  r.user('checkAuthentication', noFields, () => ({ authenticated: true as const }));

  r.user('getUserInfo', noFields, (_input, { user }) => users.info(user));

  r.user(
    'updateRoles',
    z.object({ driver: fields.boolean(), media: fields.boolean() }),
    async ({ driver, media }, { user }) => {
      if (!driver && !media) throw new HttpError(400, 'Choose at least one of driver or media', 'driver');
      // EVENT_ORGANIZER is granted by the business, not chosen here, so it is kept as it is.
      const chosen: ChosenRole[] = [...(driver ? (['DRIVER'] as const) : []), ...(media ? (['MEDIA'] as const) : [])];
      await repos.users.setChosenRoles(user.id, chosen);
      return users.info({ ...user, roles: await repos.users.rolesOf(user.id) });
    },
  );
}
