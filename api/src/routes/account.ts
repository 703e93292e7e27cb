import { z } from 'zod';
import type { Role } from '@marketplace/shared/contract';
import type { SessionUser } from '../http/env.js';
import { HttpError, forbidden } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { isUniqueViolation } from '../repositories/sql.js';
import type { Services } from '../services.js';

/** The signed-in user's own pages: profile and settings, role pages, and the contact form. */
export function registerAccountRoutes(r: Router, { repos }: Services): void {
  const requireRole = (user: SessionUser, role: Role, page: string) => {
    if (!user.roles.includes(role)) throw forbidden(`${page} are for users with the ${role} role`);
  };

  r.user('getOwnProfile', noFields, (_input, { user }) => repos.users.ownProfile(user));

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
      return repos.users.ownProfile(user);
    },
  );

  r.user('getMyEvents', noFields, async (_input, { user }) => {
    requireRole(user, 'EVENT_ORGANIZER', 'Events');
    return { events: await repos.content.eventsOrganizedBy(user.id) };
  });

  r.user('getMediaPackages', noFields, async (_input, { user }) => {
    requireRole(user, 'MEDIA', 'Media packages');
    return { mediaPackages: await repos.offers.mediaPackages(user.id) };
  });

  r.user('getDiscountCodes', noFields, async (_input, { user }) => {
    requireRole(user, 'MEDIA', 'Discount codes');
    return { discountCodes: await repos.offers.discountCodes(user.id) };
  });

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
