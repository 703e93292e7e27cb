import { z } from 'zod';
import type { DiscountCode, MediaPackage, OwnProfile, Role } from '@marketplace/shared/contract';
import type { SessionUser } from '../http/env.js';
import { HttpError, forbidden } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { EVENT_SELECT, type EventRow, nowIso, toEventSummary, toUserInfo } from '../model.js';
import type { Services } from '../services.js';

/** The signed-in user's own pages: profile and settings, role pages, and the contact form. */
export function registerAccountRoutes(r: Router, { db, config }: Services): void {
  const requireRole = (user: SessionUser, role: Role, page: string) => {
    if (!user.roles.includes(role)) throw forbidden(`${page} are for users with the ${role} role`);
  };

  const ownProfile = (user: SessionUser): OwnProfile => {
    const row = db.prepare('SELECT username, email, bio, profile_picture, created_at FROM users WHERE id = ?').get(user.id) as {
      username: string;
      email: string;
      bio: string;
      profile_picture: string | null;
      created_at: string;
    };
    return {
      ...toUserInfo(config, { ...user, username: row.username, profilePicturePath: row.profile_picture }),
      email: row.email,
      bio: row.bio,
      createdAt: row.created_at,
    };
  };

  r.user('getOwnProfile', noFields, (_input, { user }) => ownProfile(user));

  r.user(
    'updateProfile',
    z.object({ username: fields.text(60).optional(), email: fields.email().optional(), bio: fields.optionalText(500) }),
    ({ username, email, bio }, { user }) => {
      if (username === undefined && email === undefined && bio === undefined) throw new HttpError(400, 'Nothing to change');
      if (email !== undefined) {
        const other = db.prepare('SELECT id FROM users WHERE email = ? AND id != ?').get(email.toLowerCase(), user.id);
        if (other) throw new HttpError(409, 'An account with this email exists', 'email');
      }
      db.prepare('UPDATE users SET username = COALESCE(?, username), email = COALESCE(?, email), bio = COALESCE(?, bio) WHERE id = ?').run(
        username ?? null,
        email?.toLowerCase() ?? null,
        bio ?? null,
        user.id,
      );
      return ownProfile(user);
    },
  );

  r.user('getMyEvents', noFields, (_input, { user }) => {
    requireRole(user, 'EVENT_ORGANIZER', 'Events');
    const rows = db.prepare(`${EVENT_SELECT} WHERE e.organizer_id = ? ORDER BY e.starts_at DESC`).all(user.id) as EventRow[];
    return { events: rows.map((row) => toEventSummary(config, row)) };
  });

  r.user('getMediaPackages', noFields, (_input, { user }) => {
    requireRole(user, 'MEDIA', 'Media packages');
    const rows = db
      .prepare('SELECT id, name, description, price_cents, photo_count, video_minutes FROM media_packages WHERE owner_id = ? ORDER BY price_cents')
      .all(user.id) as { id: number; name: string; description: string; price_cents: number; photo_count: number; video_minutes: number }[];
    const mediaPackages: MediaPackage[] = rows.map((row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      priceCents: row.price_cents,
      photoCount: row.photo_count,
      videoMinutes: row.video_minutes,
    }));
    return { mediaPackages };
  });

  r.user('getDiscountCodes', noFields, (_input, { user }) => {
    requireRole(user, 'MEDIA', 'Discount codes');
    const rows = db
      .prepare('SELECT id, code, percent_off, expires_at, times_used FROM discount_codes WHERE owner_id = ? ORDER BY code')
      .all(user.id) as { id: number; code: string; percent_off: number; expires_at: string | null; times_used: number }[];
    const discountCodes: DiscountCode[] = rows.map((row) => ({
      id: row.id,
      code: row.code,
      percentOff: row.percent_off,
      expiresAt: row.expires_at,
      timesUsed: row.times_used,
    }));
    return { discountCodes };
  });

  // Sent without credentials (SPEC.md section 7): anyone may write to the business.
  r.visitor(
    'submitContactInfo',
    z.object({ name: fields.text(100), email: fields.email(), subject: fields.text(200), message: fields.text(5000) }),
    ({ name, email, subject, message }) => {
      db.prepare('INSERT INTO contact_messages (name, email, subject, message, created_at) VALUES (?, ?, ?, ?, ?)').run(name, email, subject, message, nowIso());
      return { received: true as const };
    },
  );
}
