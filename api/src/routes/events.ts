import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { uploadLimit } from '../config.js';
import { coverSourceKey } from '../files/paths.js';
import type { SessionUser } from '../http/env.js';
import { forbidden, notFound } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import { isUniqueViolation } from '../repositories/sql.js';
import type { Services } from '../services.js';
import { contentViews } from '../views/content.js';

/** A cover is a picture: the media job makes it into the event's responsive images. */
const COVER_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/**
 * ISO 8601 with at least the minutes ("2027-05-01T18:30", with or without seconds and an offset)
 * naming a day the calendar has: Date.parse turns 30 February into 2 March.
 */
function isDateTime(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}/.exec(text);
  if (!match || Number.isNaN(Date.parse(text))) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const DRAFT = {
  name: fields.text(120),
  startsAt: z
    .string()
    .trim()
    .max(40)
    .refine(isDateTime, { message: 'must be a date and time' })
    .transform((text) => new Date(text).toISOString()),
  location: fields.text(200),
  description: fields.optionalText(2000).transform((text) => text ?? ''),
};

/**
 * An event's address from its name and year, as the seed's are ("Summer Jazz Night" in 2026:
 * `summer-jazz-night-2026`): lowercase ASCII letters and digits joined by single hyphens, so it
 * needs no escaping in a URL or a LIKE pattern.
 */
export function slugOf(name: string, startsAt: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  const year = startsAt.slice(0, 4);
  const stem = words || 'event';
  return stem.endsWith(year) ? stem : `${stem}-${year}`;
}

/** The first of `stem`, `stem-2`, `stem-3`... that no event has. */
const unused = (stem: string, taken: readonly string[]) => {
  const used = new Set(taken);
  if (!used.has(stem)) return stem;
  for (let n = 2; ; n++) if (!used.has(`${stem}-${n}`)) return `${stem}-${n}`;
};

/** An organizer's own events: written, published or withdrawn, and their covers uploaded through the media pipeline. */
export function registerEventRoutes(r: Router, services: Services): void {
  const { repos, files, media } = services;
  const view = contentViews(repos.urls);

  const requireOrganizer = (user: SessionUser) => {
    if (!user.roles.includes('EVENT_ORGANIZER')) throw forbidden('Events are for users with the EVENT_ORGANIZER role');
  };
  /** The organizer's event, or the reason it is not theirs to change. */
  const ownEvent = async (user: SessionUser, eventIdentifier: string) => {
    requireOrganizer(user);
    const event = await repos.content.ownEvent(eventIdentifier);
    // Another's event is not found, as one that does not exist: a draft's address stays unknown.
    if (!event || event.organizerId !== user.id) throw notFound('Event');
    return event;
  };

  /**
   * Whether an uploaded cover has arrived, and its media job queued if so. With an object store
   * the browser sends the file straight to the store, so the API learns of it by looking, as it
   * does for an order's uploads (files/uploads.ts settleUploads); sending a job that waits or runs
   * again changes nothing (media/queue.ts).
   */
  const settleCover = async (eventIdentifier: string, source: string | null): Promise<boolean> => {
    if (source === null || (await files.size(source)) === undefined) return false;
    if (!(await media.pending({ kind: 'cover', id: eventIdentifier })))
      await media.send({ kind: 'cover', id: eventIdentifier }).catch((error: unknown) => {
        console.error(`[media] could not queue the cover of ${eventIdentifier}: ${String(error)}`);
      });
    return true;
  };

  r.user('getMyEvents', noFields, async (_input, { user }) => {
    requireOrganizer(user);
    const events = await repos.content.eventsOrganizedBy(user.id);
    return {
      events: await Promise.all(
        events.map(async (event) => view.ownEvent(event, await settleCover(event.identifier, event.coverSource))),
      ),
    };
  });

  r.user('createEvent', z.object(DRAFT), async (draft, { user }) => {
    requireOrganizer(user);
    const stem = slugOf(draft.name, draft.startsAt);
    // Two organizers naming events alike at once: the second takes the next free identifier.
    for (let attempt = 1; ; attempt++) {
      const identifier = unused(stem, await repos.content.identifiersLike(stem));
      try {
        await repos.content.addEvent(user.id, identifier, draft);
      } catch (error) {
        if (isUniqueViolation(error) && attempt < 5) continue;
        throw error;
      }
      return { event: view.ownEvent(await ownEvent(user, identifier)) };
    }
  });

  r.user(
    'updateEvent',
    z.object({ eventIdentifier: fields.text(100), ...DRAFT }),
    async ({ eventIdentifier, ...draft }, { user }) => {
      await ownEvent(user, eventIdentifier);
      // The identifier stays: links to the event's page keep working after a rename.
      if (!(await repos.content.updateEvent(user.id, eventIdentifier, draft))) throw notFound('Event');
      return { event: view.ownEvent(await ownEvent(user, eventIdentifier)) };
    },
  );

  r.user(
    'setEventPublished',
    z.object({ eventIdentifier: fields.text(100), published: fields.boolean() }),
    async ({ eventIdentifier, published }, { user }) => {
      await ownEvent(user, eventIdentifier);
      if (!(await repos.content.setPublished(user.id, eventIdentifier, published))) throw notFound('Event');
      return { event: view.ownEvent(await ownEvent(user, eventIdentifier)) };
    },
  );

  r.user(
    'uploadEventCover',
    z.object({
      eventIdentifier: fields.text(100),
      contentType: z.enum(COVER_CONTENT_TYPES, { message: 'A cover is a PNG, JPEG, WebP or GIF picture' }),
    }),
    async ({ eventIdentifier, contentType }, { user }) => {
      await ownEvent(user, eventIdentifier);
      const token = randomBytes(18).toString('base64url');
      const key = coverSourceKey(eventIdentifier, token, contentType);
      const replaced = await repos.content.startCoverUpload(user.id, eventIdentifier, key);
      if (replaced === undefined) throw notFound('Event');
      // An earlier upload not yet processed: the newer one is the cover (the job finds the key changed).
      if (replaced) await files.remove(replaced);
      const post = await files.presignUpload(key, contentType, uploadLimit(services.config, contentType));
      return post
        ? { uploadUrl: post.url, uploadFields: post.fields }
        : { uploadUrl: repos.urls.upload(`cover/${eventIdentifier}`, token) };
    },
  );
}
