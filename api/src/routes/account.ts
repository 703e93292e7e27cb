import { z } from 'zod';
import type { SessionUser } from '../http/env.js';
import { HttpError } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { isUniqueViolation } from '../repositories/sql.js';
import type { Services } from '../services.js';
import { userViews } from '../views/users.js';
import { registerOfferRoutes } from './offers.js';

/** The signed-in user's own pages: profile and settings, role pages, and the contact form. */
export function registerAccountRoutes(r: Router, services: Services): void {
  const { repos } = services;
  const view = userViews(repos.urls);
  const ownProfile = async (user: SessionUser) => view.ownProfile(user, await repos.users.ownProfile(user.id));

  r.user('getOwnProfile', noFields, (_input, { user }) => ownProfile(user));

  r.user(
    'updateProfile',
    z.object({ username: fields.text(60).optional(), email: fields.email().optional(), bio: fields.optionalText(500) }),
    async (change, { user }) => {
      if (change.username === undefined && change.email === undefined && change.bio === undefined)
        throw new HttpError(400, 'Nothing to change');
      const emailTaken = () => new HttpError(409, 'An account with this email exists', 'email');
      if (change.email !== undefined && (await repos.users.emailTakenByOther(change.email, user.id)))
        throw emailTaken();
      try {
        await repos.users.updateProfile(user.id, change);
      } catch (error) {
        // Another account took the email since the check.
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
      return ownProfile(user);
    },
  );

  // Media packages and discount codes: their lists, and create, edit, withdraw.
  registerOfferRoutes(r, services);

  // Sent without credentials (SPEC.md section 7): anyone may write to the business.
  r.visitor(
    'submitContactInfo',
    z.object({ name: fields.text(100), email: fields.email(), subject: fields.text(200), message: fields.text(5000) }),
    async (message) => {
      await repos.contact.add(message);
      return { received: true as const };
    },
  );
}
