import type { Context } from 'hono';
import { z } from 'zod';
import type { CartSummary } from '@marketplace/shared/contract';
import { guestCartKey } from '../../auth/sessions.js';
import { type CodeTerms, codeRefusal, MixedCurrencies, priceCart, type PricedLine } from '../../domain/pricing.js';
import type { AppEnv, SessionUser } from '../../http/env.js';
import { HttpError } from '../../http/errors.js';
import { fields, noFields, type Router } from '../../http/route.js';
import { userCartKey } from '../../repositories/cart.js';
import type { RepositorySet } from '../../repositories/index.js';
import type { CartLine } from '../../repositories/purchases/cart.js';
import type { Services } from '../../services.js';
import { cartSummaryView } from '../../views/purchases.js';

/** The lines checkout can sell: for sale, and not owned by the buyer already. */
export const buyable = (lines: CartLine[]) => lines.filter((line) => line.forSale && !line.owned);

/** Prices the lines with the code, or answers 409 for a cart of more than one currency. */
export function priced<L extends PricedLine>(lines: readonly L[], code: CodeTerms | null) {
  try {
    return priceCart(lines, code);
  } catch (error) {
    if (error instanceof MixedCurrencies) throw new HttpError(409, error.message);
    throw error;
  }
}

/** A user's cart key names the user: their owned items are not priced as buyable. */
function userIdOfKey(key: string): number | null {
  const match = /^u:(\d+)$/.exec(key);
  return match ? Number(match[1]) : null;
}

/** The cart's totals as the server prices them now, with the code it carries (when it still applies). */
async function cartSummaryOf(repos: RepositorySet, key: string | null, now = new Date()): Promise<CartSummary> {
  const lines = key ? buyable(await repos.purchases.cartLines(key, userIdOfKey(key))) : [];
  const applied = key ? await repos.purchases.cartCode(key) : null;
  const problem = applied ? codeRefusal(applied.terms, lines, now) : null;
  const usable = applied && !problem ? applied : null;
  return cartSummaryView(priced(lines, usable?.terms ?? null), lines.length, usable, problem);
}

/** The cart's summary and its discount code, for a visitor's cart as for a user's. */
export function registerCartPricingRoutes(r: Router, { repos, config }: Services): void {
  const ownerKey = (c: Context<AppEnv>, user: SessionUser | null, create: boolean) =>
    user ? userCartKey(user.id) : guestCartKey(c, config, create);

  r.visitor('getCartSummary', noFields, async (_input, { c, user }) => ({
    summary: await cartSummaryOf(repos, ownerKey(c, user, false)),
  }));

  r.visitor('applyDiscountCode', z.object({ code: fields.text(40) }), async ({ code }, { c, user }) => {
    const key = ownerKey(c, user, true) as string;
    const found = await repos.purchases.findCode(code);
    if (!found) throw new HttpError(400, `There is no discount code ${code.toUpperCase()}`, 'code');
    const lines = buyable(await repos.purchases.cartLines(key, user?.id ?? null));
    const refusal = codeRefusal(found.terms, lines, new Date());
    if (refusal) throw new HttpError(400, refusal, 'code');
    await repos.purchases.setCartCode(key, found.terms.id);
    return { summary: await cartSummaryOf(repos, key) };
  });

  r.visitor('removeDiscountCode', noFields, async (_input, { c, user }) => {
    const key = ownerKey(c, user, false);
    if (key) await repos.purchases.clearCartCode(key);
    return { summary: await cartSummaryOf(repos, key) };
  });
}
