import { z } from 'zod';
import { formatMoney } from '@marketplace/shared/format';
import { CURRENCY } from '../domain/orders.js';
import type { SessionUser } from '../http/env.js';
import { HttpError, forbidden, notFound } from '../http/errors.js';
import { fields, noFields, type Router } from '../http/route.js';
import type { CodeValues } from '../repositories/offers.js';
import { isUniqueViolation } from '../repositories/sql.js';
import type { Services } from '../services.js';

/** The most a package costs or a code takes off: $100,000.00. */
export const MAX_OFFER_CENTS = 10_000_000;

/** A form's empty box is an absent value. */
const blankAsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

const wholeNumber = (min: number, max: number, message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);

const cents = () =>
  z
    .string()
    .trim()
    .regex(/^\d{1,12}$/, 'must be a whole number of cents')
    .transform(Number)
    .refine((n) => n >= 1, `must be more than ${formatMoney(0, CURRENCY)}`)
    .refine((n) => n <= MAX_OFFER_CENTS, `must be at most ${formatMoney(MAX_OFFER_CENTS, CURRENCY)}`);

const PACKAGE = z.object({
  name: fields.text(80),
  description: fields.optionalText(1000),
  priceCents: cents(),
  hours: wholeNumber(0, 100, 'must be a whole number of hours from 0 to 100'),
  photoCount: wholeNumber(0, 10_000, 'must be a whole number of photos from 0 to 10,000'),
  videoMinutes: blankAsAbsent(wholeNumber(0, 600, 'must be a whole number of minutes from 0 to 600')),
  active: fields.boolean().optional(),
});

const CODE = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{3,20}$/, 'must be 3 to 20 letters and digits, without spaces')
    .transform((text) => text.toUpperCase()),
  percentOff: blankAsAbsent(wholeNumber(1, 100, 'must be a whole percent from 1 to 100')),
  amountOffCents: blankAsAbsent(cents()),
  // A date alone is the end of that day (UTC); a date and time is that instant.
  expiresAt: blankAsAbsent(
    z
      .string()
      .trim()
      .max(40)
      .refine(
        (text) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}.*)?$/.test(text) && !Number.isNaN(Date.parse(text)),
        'must be a date',
      )
      .transform((text) => new Date(text.length === 10 ? `${text}T23:59:59.999Z` : text).toISOString()),
  ),
  maxUses: blankAsAbsent(wholeNumber(1, 1_000_000, 'must be a whole number of uses from 1 to 1,000,000')),
  active: fields.boolean().optional(),
});

const ID = z.object({ id: fields.id() });

/** A photographer's own media packages and discount codes: their lists, and create, edit, withdraw. */
export function registerOfferRoutes(r: Router, { repos }: Services): void {
  const requireMedia = (user: SessionUser, page: string) => {
    if (!user.roles.includes('MEDIA')) throw forbidden(`${page} are for users with the MEDIA role`);
  };
  const packages = (user: SessionUser) => requireMedia(user, 'Media packages');
  const codes = (user: SessionUser) => requireMedia(user, 'Discount codes');
  const noPackage = () => notFound('Media package');
  const noCode = () => notFound('Discount code');

  r.user('getMediaPackages', noFields, async (_input, { user }) => {
    packages(user);
    return { mediaPackages: await repos.offers.mediaPackages(user.id, { withdrawn: true }) };
  });

  r.user('createMediaPackage', PACKAGE, async (draft, { user }) => {
    packages(user);
    const mediaPackage = await repos.offers.createPackage(user.id, {
      ...draft,
      description: draft.description ?? '',
      videoMinutes: draft.videoMinutes ?? 0,
      active: draft.active ?? true,
    });
    return { mediaPackage };
  });

  r.user('updateMediaPackage', PACKAGE.extend(ID.shape), async ({ id, active, ...draft }, { user }) => {
    packages(user);
    const mediaPackage = await repos.offers.updatePackage(user.id, id, {
      ...draft,
      description: draft.description ?? '',
      videoMinutes: draft.videoMinutes ?? 0,
      ...(active === undefined ? {} : { active }),
    });
    if (!mediaPackage) throw noPackage();
    return { mediaPackage };
  });

  r.user('withdrawMediaPackage', ID, async ({ id }, { user }) => {
    packages(user);
    const mediaPackage = await repos.offers.updatePackage(user.id, id, { active: false });
    if (!mediaPackage) throw noPackage();
    return { mediaPackage };
  });

  r.user('getDiscountCodes', noFields, async (_input, { user }) => {
    codes(user);
    return { discountCodes: await repos.offers.discountCodes(user.id) };
  });

  /** The code's terms as stored, or the reason beside its field. */
  const termsOf = async (
    draft: z.output<typeof CODE>,
    exceptId: number | null,
  ): Promise<Omit<CodeValues, 'active'>> => {
    if (draft.percentOff !== undefined && draft.amountOffCents !== undefined)
      throw new HttpError(400, 'Give a percent or an amount off, not both', 'amountOffCents');
    if (draft.percentOff === undefined && draft.amountOffCents === undefined)
      throw new HttpError(400, 'Give a percent or an amount off', 'percentOff');
    if (draft.expiresAt !== undefined && draft.expiresAt <= new Date().toISOString())
      throw new HttpError(400, 'The expiry must be in the future', 'expiresAt');
    if (await repos.offers.codeTaken(draft.code, exceptId)) throw codeTaken(draft.code);
    return {
      code: draft.code,
      percentOff: draft.percentOff ?? 0,
      amountOffCents: draft.amountOffCents ?? null,
      expiresAt: draft.expiresAt ?? null,
      maxUses: draft.maxUses ?? null,
    };
  };
  // Buyers type a code without its seller, so no two codes share their text.
  const codeTaken = (code: string) => new HttpError(409, `The code ${code} is taken: choose another`, 'code');
  const storing = async <T>(code: string, store: () => Promise<T>): Promise<T> => {
    try {
      return await store();
    } catch (error) {
      // Another code took the text since the check.
      if (isUniqueViolation(error)) throw codeTaken(code);
      throw error;
    }
  };

  r.user('createDiscountCode', CODE, async (draft, { user }) => {
    codes(user);
    const terms = await termsOf(draft, null);
    const discountCode = await storing(terms.code, () =>
      repos.offers.createCode(user.id, { ...terms, active: draft.active ?? true }),
    );
    return { discountCode };
  });

  r.user('updateDiscountCode', CODE.extend(ID.shape), async ({ id, ...draft }, { user }) => {
    codes(user);
    if (!(await repos.offers.discountCode(user.id, id))) throw noCode();
    const terms = await termsOf(draft, id);
    const discountCode = await storing(terms.code, () =>
      repos.offers.updateCode(user.id, id, {
        ...terms,
        ...(draft.active === undefined ? {} : { active: draft.active }),
      }),
    );
    if (!discountCode) throw noCode();
    return { discountCode };
  });

  r.user('withdrawDiscountCode', ID, async ({ id }, { user }) => {
    codes(user);
    const discountCode = await repos.offers.updateCode(user.id, id, { active: false });
    if (!discountCode) throw noCode();
    return { discountCode };
  });
}
