import { messageOf } from '@marketplace/shared/errors';
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'hono';
import { z } from 'zod';
import { MAIL_PREFERENCE_KINDS, PASSWORD_RESET_MINUTES, PASSWORD_RULE } from '@marketplace/shared/contract';
import { PAGES } from '@marketplace/shared/platform';
import type { LoginThrottle } from '../auth/loginThrottle.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { endSession, sessionKey, startSession } from '../auth/sessions.js';
import { clientAddress, clientGroup } from '../http/client.js';
import type { AppEnv } from '../http/env.js';
import { HttpError, notFound } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { deviceOf } from '../mail/device.js';
import { mailLink, queueMail } from '../mail/queue.js';
import type { RepositorySet } from '../repositories/index.js';
import { RateWindow } from '../rum/rateWindow.js';
import type { Services } from '../services.js';
import type { LiveIdentity } from '../live/logins.js';

/** The password rule of sign-up, reset and change (shared/src/contract/account.ts). */
export const newPassword = () =>
  z
    .string()
    .min(PASSWORD_RULE.min, `must be at least ${PASSWORD_RULE.min} characters`)
    .max(PASSWORD_RULE.max, `must be at most ${PASSWORD_RULE.max} characters`);

/** Reset mails one account may be sent per hour: more would let anyone flood its inbox. */
export const RESETS_PER_HOUR = 3;
/**
 * Reset requests one client (an IPv4 address, an IPv6 /64) may make per hour, whatever the
 * emails: more is someone mailing many inboxes, or probing. Counted before the email is looked
 * at, so a refusal says nothing of any account.
 */
export const RESET_REQUESTS_PER_CLIENT_HOUR = 10;

/** What is stored of a reset token: its sha256, so the table alone cannot reset anything. */
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Sessions (by key) removed in a transaction, whose pages' live connections are closed once it committed. */
type Ended = { key: string; identity: LiveIdentity | null }[];

/** Removes the user's sessions (but `except`, a key) on `tx`, and answers what the broker must be told after commit. */
async function removeSessions(tx: RepositorySet, userId: number, except?: string): Promise<Ended> {
  const ended: Ended = [];
  for (const key of await tx.sessions.keysOf(userId, except)) {
    ended.push({ key, identity: await tx.sessions.liveIdentityOf(key) });
    await tx.sessions.delete(key);
  }
  return ended;
}

/** Closes the live connections of sessions already removed (services.ts endSessionAndLiveAccess, in bulk). */
async function revokeLive({ live, logins }: Services, ended: Ended): Promise<void> {
  for (const { key, identity } of ended) {
    if (!identity) continue;
    try {
      await live.endSession({ token: key, username: logins.usernameOf(identity) });
    } catch (error) {
      console.error(`[live] could not revoke a session's broker logins: ${messageOf(error)}`);
    }
  }
}

/**
 * Accounts people can recover: a password reset by mail, a password change, the
 * list of sessions with logging each out, and which notification mails the user wants.
 */
export function registerAccountSecurityRoutes(r: Router, services: Services, throttle: LoginThrottle): void {
  const { repos, config } = services;
  const outbox = (tx: RepositorySet) => ({ repos: tx, config });
  const resetRequests = new RateWindow(repos.rateWindows, RESET_REQUESTS_PER_CLIENT_HOUR, 3600_000);
  /** The shell's origin the request came from, when it is one of ours: the link in the mail opens there. */
  const originOf = (c: Context<AppEnv>) => {
    const origin = c.req.header('origin');
    return origin && config.allowedOrigins.includes(origin) ? origin : undefined;
  };

  /** Queues the reset mail; run detached, so the answer takes as long whether or not the account exists. */
  const sendResetLink = async (email: string, origin: string | undefined) => {
    const userId = await repos.users.idByEmail(email);
    if (userId === undefined) return;
    const hour = Math.floor(Date.now() / 3600_000) * 3600_000;
    // Past the limit nothing is sent, and the answer (already given) was the one an unknown email gets.
    if ((await repos.rateWindows.hit(`password-reset:${userId}`, hour)) > RESETS_PER_HOUR) return;
    const token = randomBytes(32).toString('base64url');
    // In the fragment: a browser never sends it to a server (the page's, a proxy's logs) nor in a Referer.
    const link = mailLink(config, `${PAGES.resetPassword.href()}#token=${token}`, origin);
    await repos.transaction(async (tx) => {
      await tx.passwordResets.add(hashOf(token), userId, PASSWORD_RESET_MINUTES * 60_000);
      await queueMail(outbox(tx), userId, 'passwordReset', { link });
    });
  };

  r.visitor('requestPasswordReset', z.object({ email: fields.email() }), async ({ email }, { c }) => {
    const wait = await resetRequests.hit(`password-reset-client:${clientGroup(clientAddress(c, config))}`);
    if (wait > 0)
      throw new HttpError(429, `Too many reset requests: try again in ${wait} s`, undefined, {
        'Retry-After': String(wait),
      });
    const origin = originOf(c);
    void sendResetLink(email, origin).catch((error: unknown) =>
      console.error(`[mail] password reset: ${messageOf(error)}`),
    );
    // The same answer for every email: it tells nobody whether an account has it.
    return { requested: true as const };
  });

  r.visitor(
    'resetPassword',
    z.object({ token: z.string().min(1, 'must not be empty').max(200), password: newPassword() }),
    async ({ token, password }) => {
      const passwordHash = await hashPassword(password);
      const ended = await repos.transaction(async (tx) => {
        // One conditional update: a link works once, while it lasts; of two uses at once one wins.
        const userId = await tx.passwordResets.use(hashOf(token));
        if (userId === null) return null;
        await tx.users.setPasswordHash(userId, passwordHash);
        await tx.passwordResets.voidAll(userId);
        // Whoever knew the old password is logged out everywhere.
        return { userId, sessions: await removeSessions(tx, userId) };
      });
      if (!ended) throw new HttpError(400, 'This link is used, expired or not ours: ask for a new one', 'token');
      // The owner proved they hold the account's mail: failed logins no longer lock it.
      await throttle.unlock(`user:${ended.userId}`);
      await revokeLive(services, ended.sessions);
      return { reset: true as const };
    },
  );

  r.user(
    'changePassword',
    z.object({ currentPassword: z.string().min(1, 'must not be empty').max(200), newPassword: newPassword() }),
    async ({ currentPassword, newPassword: password }, { c, user }) => {
      // A session left open is not a free run at guessing the password: the login's limits apply.
      const admission = await throttle.admit(`user:${user.id}`, clientAddress(c, config));
      if ('refusedForSeconds' in admission)
        throw new HttpError(429, `Too many wrong passwords: try again in ${admission.refusedForSeconds} s`, undefined, {
          'Retry-After': String(admission.refusedForSeconds),
        });
      const stored = await repos.users.passwordHashOf(user.id);
      if (!stored || !(await verifyPassword(currentPassword, stored))) {
        await sleep(await admission.attempt.failed());
        throw new HttpError(400, 'This is not your current password', 'currentPassword');
      }
      await admission.attempt.succeeded();
      const passwordHash = await hashPassword(password);
      const ended = await repos.transaction(async (tx) => {
        await tx.users.setPasswordHash(user.id, passwordHash);
        await tx.passwordResets.voidAll(user.id);
        // Every session ends, this one too, and this browser gets a new one (a new cookie): a
        // copy of this session's token, taken before the change, dies with the others.
        const all = await removeSessions(tx, user.id);
        await startSession(c, tx.sessions, config, user.id);
        return all;
      });
      await revokeLive(services, ended);
      return { changed: true as const };
    },
  );

  r.user('getAccountSessions', noFields, async (_input, { user }) => ({
    sessions: (await repos.sessions.ofUser(user.id)).map((session) => ({
      id: session.id,
      device: deviceOf(session.userAgent),
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      current: session.key === user.token,
    })),
  }));

  r.user('endAccountSession', z.object({ sessionId: fields.text(64) }), async ({ sessionId }, { c, user }) => {
    const session = (await repos.sessions.ofUser(user.id)).find((s) => s.id === sessionId);
    if (!session) throw notFound('Session');
    const identity = await repos.sessions.liveIdentityOf(session.key);
    if (session.key === user.token) await endSession(c, repos.sessions, config, session.key);
    else await repos.sessions.delete(session.key);
    await revokeLive(services, [{ key: session.key, identity }]);
    return { ended: sessionId };
  });

  r.user('endAllAccountSessions', noFields, async (_input, { c, user }) => {
    const ended = await repos.transaction((tx) => removeSessions(tx, user.id));
    // This browser's cookies too: it is logged out like the others.
    await endSession(c, repos.sessions, config, sessionKey(c));
    await revokeLive(services, ended);
    return { ended: ended.length };
  });

  r.user('getMailPreferences', noFields, async (_input, { user }) => {
    const target = await repos.users.mailTarget(user.id);
    if (!target) throw notFound('Account');
    return target.preferences;
  });

  // Only the kinds named change: a page holding an older copy of the others (another tab) leaves them as they are.
  r.user(
    'updateMailPreferences',
    z
      .object({
        signIn: fields.boolean().optional(),
        receipts: fields.boolean().optional(),
        orderUpdates: fields.boolean().optional(),
      })
      .refine((change) => MAIL_PREFERENCE_KINDS.some((kind) => change[kind] !== undefined), {
        message: 'name at least one kind of mail',
        path: [MAIL_PREFERENCE_KINDS[0]],
      }),
    async (change, { user }) => {
      const saved = await repos.users.setMailPreferences(user.id, change);
      if (!saved) throw notFound('Account');
      return saved;
    },
  );
}

/** The new sign-in mail, queued with the session it announces (routes/auth.ts `login`). */
export async function queueSignInMail(
  services: Services,
  tx: RepositorySet,
  c: Context<AppEnv>,
  userId: number,
): Promise<void> {
  await queueMail({ repos: tx, config: services.config }, userId, 'signIn', {
    device: deviceOf(c.req.header('user-agent') ?? null),
    address: clientAddress(c, services.config),
    at: new Date(),
    settingsLink: mailLink(services.config, PAGES.settings.href()),
  });
}
