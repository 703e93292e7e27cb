import { z } from 'zod';
import { PAGES } from '@marketplace/shared/platform';
import { formatMoney } from '@marketplace/shared/format';
import { CURRENCY } from '../domain/orders.js';
import { codeDiscount, codeRefusal } from '../domain/pricing.js';
import { HttpError, notFound } from '../http/errors.js';
import { fields, type Router } from '../http/route.js';
import { notifyUser, type Services } from '../services.js';

/** How far ahead an event may be booked. */
const BOOKING_HORIZON_DAYS = 2 * 365;

/** The event's own fields: needed for a new event, taken from the client's event when one is named. */
const NEW_EVENT_FIELDS = ['eventName', 'eventDate', 'location'] as const;

const BOOKING = z
  .object({
    photographer: fields.profileName(),
    packageId: fields.id(),
    /** One of the client's own events (as its organizer), instead of a new one. */
    eventIdentifier: fields.optionalText(120),
    eventName: fields.text(120).optional(),
    eventDate: z
      .string()
      .max(40)
      .refine((text) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) && !Number.isNaN(Date.parse(text)), {
        message: 'must be a date and time',
      })
      .transform((text) => new Date(text).toISOString())
      .optional(),
    location: fields.text(200).optional(),
    guests: z
      .string()
      .regex(/^\d{1,5}$/, 'must be a whole number of guests')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 10_000, 'must be from 1 to 10,000'),
    requirements: fields.optionalText(2000).transform((text) => text ?? ''),
    discountCode: fields.optionalText(40),
  })
  .superRefine((booking, ctx) => {
    if (booking.eventIdentifier) return;
    for (const field of NEW_EVENT_FIELDS)
      if (booking[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'must not be empty' });
  });

/** A client books a photographer from their page: a new event order, a request for the photographer to answer. */
export function registerBookingRoutes(r: Router, services: Services): void {
  const { repos } = services;

  /** The event booked: the client's own, named by its identifier, or the new one the form describes. */
  const eventOf = async (
    booking: z.output<typeof BOOKING>,
    clientId: number,
  ): Promise<{ name: string; startsAt: string; location: string }> => {
    if (!booking.eventIdentifier) {
      const { eventName, eventDate, location } = booking;
      // The schema made these present for a new event.
      if (eventName === undefined || eventDate === undefined || location === undefined)
        throw new HttpError(400, 'Describe the event: its name, date and place', 'eventName');
      return { name: eventName, startsAt: eventDate, location };
    }
    const own = await repos.content.ownEvent(booking.eventIdentifier);
    if (!own || own.organizerId !== clientId)
      throw new HttpError(400, 'Choose one of your own events, or describe a new one', 'eventIdentifier');
    return own;
  };

  r.user('bookPhotographer', BOOKING, async (booking, { user }) => {
    const photographer = await repos.users.byProfileName(booking.photographer);
    if (!photographer) throw notFound('Photographer');
    if (photographer.id === user.id) throw new HttpError(400, 'You cannot book yourself', 'photographer');
    const offered = await repos.offers.mediaPackage(photographer.id, booking.packageId);
    if (!offered) throw new HttpError(400, 'This package is not offered by this photographer', 'packageId');
    if (!offered.active)
      throw new HttpError(409, 'This package has been withdrawn by the photographer: choose another', 'packageId');
    const event = await eventOf(booking, user.id);
    const now = Date.now();
    const starts = Date.parse(event.startsAt);
    // Beside the field the client chose the event by.
    const when = booking.eventIdentifier ? 'eventIdentifier' : 'eventDate';
    if (starts <= now) throw new HttpError(400, 'The event must be in the future', when);
    if (starts > now + BOOKING_HORIZON_DAYS * 86_400_000)
      throw new HttpError(400, 'The event must be within two years', when);

    // The price is the package's now, less the photographer's own code: the order keeps both.
    let totalCents = offered.priceCents;
    let discountCode: string | null = null;
    if (booking.discountCode) {
      const found = await repos.purchases.findCode(booking.discountCode);
      if (!found)
        throw new HttpError(400, `There is no discount code ${booking.discountCode.toUpperCase()}`, 'discountCode');
      const line = {
        identifier: 'booking',
        sellerId: photographer.id,
        priceCents: offered.priceCents,
        currency: CURRENCY,
      };
      const refusal = codeRefusal(found.terms, [line], new Date(now));
      if (refusal) {
        throw new HttpError(
          400,
          found.terms.sellerId === photographer.id ? refusal : `The code ${found.terms.code} is another photographer's`,
          'discountCode',
        );
      }
      totalCents -= codeDiscount(offered.priceCents, found.terms);
      discountCode = found.terms.code;
    }

    const orderId = await repos.transaction(async (tx) => {
      const created = await tx.orders.create({
        clientId: user.id,
        photographerId: photographer.id,
        eventName: event.name,
        eventDate: event.startsAt,
        location: event.location,
        packageName: offered.name,
        requirementInfo: {
          summary: booking.requirements,
          items: [{ label: 'Guests', value: String(booking.guests) }],
        },
        discountCode,
        totalCents,
      });
      await notifyUser(
        tx,
        photographer.id,
        `${user.username} asked you to photograph ${event.name} (${offered.name}, ${formatMoney(totalCents, CURRENCY)}).`,
        PAGES.eventOrder.href({ orderId: created }),
      );
      return created;
    });
    return { orderId };
  });
}
