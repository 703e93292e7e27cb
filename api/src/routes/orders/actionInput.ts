import { z } from 'zod';
import { ORDER_ACTIONS, type OrderQuote } from '@marketplace/shared/contract';
import { formatMoney } from '@marketplace/shared/format';
import { CURRENCY } from '../../domain/orders.js';
import { fields } from '../../http/route.js';

/** An amount in minor units, sent as text: a whole number up to $100,000. */
const cents = () =>
  z
    .string()
    .regex(/^\d{1,8}$/, 'must be a whole number of cents')
    .transform(Number)
    .refine((n) => n <= 10_000_000, 'must be at most $100,000');

/** The lowest total a quote may ask: card payments of less cost more than they bring. */
const MIN_QUOTE_CENTS = 100;

const orderId = () => fields.text(40);
/** The changes a party makes here; paying goes through the provider (payEventOrder). */
const CHANGES = ORDER_ACTIONS.filter((action) => action !== 'pay');
/** A party's change of an order (changeEventOrder): the action, and the data it carries. */
export const ORDER_ACTION_INPUT = z
  .object({
    orderId: orderId(),
    action: z.enum(CHANGES, { message: `must be one of ${CHANGES.join(', ')}` }),
  })
  .passthrough()
  .pipe(
    z.discriminatedUnion('action', [
      z.object({ orderId: orderId(), action: z.literal('askRequirements'), message: fields.text(1000) }),
      z.object({ orderId: orderId(), action: z.literal('answerRequirements'), answer: fields.text(2000) }),
      z
        .object({
          orderId: orderId(),
          action: z.literal('sendQuote'),
          packagePriceCents: cents(),
          discountCents: cents(),
          extrasCents: cents(),
          extrasNote: fields.optionalText(200),
        })
        .refine((q) => q.discountCents <= q.packagePriceCents, {
          message: 'must not be more than the package price',
          path: ['discountCents'],
        })
        .refine((q) => q.packagePriceCents - q.discountCents + q.extrasCents >= MIN_QUOTE_CENTS, {
          message: `must come to a total of at least ${formatMoney(MIN_QUOTE_CENTS, CURRENCY)}`,
          path: ['packagePriceCents'],
        }),
      z.object({ orderId: orderId(), action: z.literal('decline'), reason: fields.text(500) }),
      z.object({ orderId: orderId(), action: z.literal('approve'), quoteSentAt: z.string().max(40).optional() }),
      z.object({ orderId: orderId(), action: z.enum(['deliver', 'cancel']) }),
    ]),
  );

/** The quote a photographer sends: its total of the parts, sent now. */
export function quoteOf(input: {
  packagePriceCents: number;
  discountCents: number;
  extrasCents: number;
  extrasNote?: string | undefined;
}): OrderQuote {
  return {
    currency: CURRENCY,
    packagePriceCents: input.packagePriceCents,
    discountCents: input.discountCents,
    extrasCents: input.extrasCents,
    extrasNote: input.extrasCents > 0 ? (input.extrasNote ?? '') : '',
    totalCents: input.packagePriceCents - input.discountCents + input.extrasCents,
    sentAt: new Date().toISOString(),
  };
}
