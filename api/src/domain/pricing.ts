/**
 * What a cart costs: each line's price, the discount a seller's code takes off that seller's
 * lines, and the totals, in integer minor units. Pure: the routes read prices and codes from the
 * database and never from a request.
 */

/** A line as priced: the item's price now, from the database. */
export interface PricedLine {
  identifier: string;
  sellerId: number;
  priceCents: number;
  currency: string;
}

/** A discount code as stored. */
export interface CodeTerms {
  id: number;
  code: string;
  sellerId: number;
  /** 1-100 for a percent code; 0 for an amount code. */
  percentOff: number;
  /** An amount code's cents off; null for a percent code. */
  amountOffCents: number | null;
  expiresAt: string | null;
  maxUses: number | null;
  timesUsed: number;
  active: boolean;
}

export interface CartPrice<L extends PricedLine> {
  currency: string;
  lines: (L & { discountCents: number; amountCents: number })[];
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
}

/** The currency a cart is priced in when it is empty. */
export const DEFAULT_CURRENCY = 'USD';

/**
 * Why `code` cannot be used on these lines now, in the buyer's words; null when it can. Unknown
 * codes are told apart by the caller (there is no code to judge).
 */
export function codeRefusal(code: CodeTerms, lines: readonly PricedLine[], now: Date): string | null {
  if (!code.active) return `The code ${code.code} is no longer active`;
  if (code.expiresAt !== null && code.expiresAt <= now.toISOString()) return `The code ${code.code} has expired`;
  if (code.maxUses !== null && code.timesUsed >= code.maxUses) return `The code ${code.code} has been used up`;
  if (!lines.some((line) => line.sellerId === code.sellerId))
    return `The code ${code.code} applies to its photographer's items only, and none are in your cart`;
  return null;
}

/** A line's discount: `percentOff` of its price, rounded half up to a whole minor unit. */
export const lineDiscount = (priceCents: number, percentOff: number): number =>
  Math.floor((priceCents * percentOff + 50) / 100);

/** What `code` takes off one thing of `priceCents` (a booking): its percent, or its amount capped at the price. */
export const codeDiscount = (priceCents: number, code: Pick<CodeTerms, 'percentOff' | 'amountOffCents'>): number =>
  code.amountOffCents !== null
    ? Math.min(Math.max(code.amountOffCents, 0), priceCents)
    : lineDiscount(priceCents, code.percentOff);

/**
 * Prices the lines, taking `code` (already judged usable) off its seller's lines only. Throws when
 * the lines are in more than one currency: one purchase is paid in one.
 */
export function priceCart<L extends PricedLine>(lines: readonly L[], code: CodeTerms | null): CartPrice<L> {
  const currencies = new Set(lines.map((line) => line.currency));
  if (currencies.size > 1) throw new MixedCurrencies([...currencies]);
  // An amount code comes off once, from the total of its seller's lines (never below zero), taken
  // from those lines in cart order so each line's discount is at most its price.
  let amountLeft = code?.amountOffCents ?? 0;
  const priced = lines.map((line) => {
    let discountCents = 0;
    if (code && line.sellerId === code.sellerId) {
      if (code.amountOffCents === null) discountCents = lineDiscount(line.priceCents, code.percentOff);
      else {
        discountCents = Math.min(Math.max(amountLeft, 0), line.priceCents);
        amountLeft -= discountCents;
      }
    }
    return { ...line, discountCents, amountCents: line.priceCents - discountCents };
  });
  const sum = (pick: (line: (typeof priced)[number]) => number) =>
    priced.reduce((total, line) => total + pick(line), 0);
  return {
    currency: lines[0]?.currency ?? DEFAULT_CURRENCY,
    lines: priced,
    subtotalCents: sum((line) => line.priceCents),
    discountCents: sum((line) => line.discountCents),
    totalCents: sum((line) => line.amountCents),
  };
}

export class MixedCurrencies extends Error {
  constructor(readonly currencies: string[]) {
    super(`Items priced in ${currencies.join(' and ')} cannot be bought together: check out one currency at a time`);
  }
}
