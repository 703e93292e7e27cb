import type { Db } from '../../db/database.js';
import type { CodeTerms } from '../../domain/pricing.js';
import { nowIso } from '../sql.js';

const codeColumns = [
  'd.id',
  'd.code',
  'd.owner_id',
  'd.percent_off',
  'd.amount_off_cents',
  'd.expires_at',
  'd.max_uses',
  'd.times_used',
  'd.active',
  'u.profile_name',
  'u.username',
] as const;

interface CodeRow {
  id: number;
  code: string;
  owner_id: number;
  percent_off: number;
  amount_off_cents: number | null;
  expires_at: string | null;
  max_uses: number | null;
  times_used: number;
  active: number;
  profile_name: string;
  username: string;
}

const toCode = (row: CodeRow) => ({
  terms: {
    id: row.id,
    code: row.code,
    sellerId: row.owner_id,
    percentOff: row.percent_off,
    amountOffCents: row.amount_off_cents === null ? null : Number(row.amount_off_cents),
    expiresAt: row.expires_at,
    maxUses: row.max_uses,
    timesUsed: Number(row.times_used),
    active: row.active === 1,
  } satisfies CodeTerms,
  sellerProfileName: row.profile_name,
  sellerName: row.username,
});

/** A discount code's terms, with the seller who offers it. */
export type DiscountCode = ReturnType<typeof toCode>;

/** Discount codes as buyers use them: found by their text, carried by a cart, counted when paid. */
export function discountCodesRepository(db: Db) {
  return {
    /** A code by what a buyer typed (any case), with its seller. */
    async findCode(code: string) {
      const row = await db
        .selectFrom('discount_codes as d')
        .innerJoin('users as u', 'u.id', 'd.owner_id')
        .select(codeColumns)
        .where((eb) => eb(eb.fn('upper', ['d.code']), '=', code.toUpperCase()))
        .executeTakeFirst();
      return row ? toCode(row) : null;
    },

    /** The code a cart carries, if any. */
    async cartCode(key: string) {
      const row = await db
        .selectFrom('cart_discount_codes as cd')
        .innerJoin('discount_codes as d', 'd.id', 'cd.code_id')
        .innerJoin('users as u', 'u.id', 'd.owner_id')
        .select(codeColumns)
        .where('cd.owner_key', '=', key)
        .executeTakeFirst();
      return row ? toCode(row) : null;
    },

    /** Puts `codeId` on the cart, in place of any other: applying a code twice leaves it once. */
    async setCartCode(key: string, codeId: number): Promise<void> {
      await db
        .insertInto('cart_discount_codes')
        .values({ owner_key: key, code_id: codeId, applied_at: nowIso() })
        .onConflict((oc) => oc.column('owner_key').doUpdateSet({ code_id: codeId }))
        .execute();
    },

    async clearCartCode(key: string): Promise<void> {
      await db.deleteFrom('cart_discount_codes').where('owner_key', '=', key).execute();
    },

    async countCodeUse(codeId: number): Promise<void> {
      await db
        .updateTable('discount_codes')
        .set((eb) => ({ times_used: eb('times_used', '+', 1) }))
        .where('id', '=', codeId)
        .execute();
    },

    /** A use of the owner's code by its text (an event order keeps the code it was booked with). */
    async countCodeUseOf(ownerId: number, code: string): Promise<void> {
      await db
        .updateTable('discount_codes')
        .set((eb) => ({ times_used: eb('times_used', '+', 1) }))
        .where('owner_id', '=', ownerId)
        .where('code', '=', code)
        .execute();
    },
  };
}
