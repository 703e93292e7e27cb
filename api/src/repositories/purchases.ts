import { randomBytes } from 'node:crypto';
import type { Purchase, PurchaseLine, PurchaseStatus } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import type { CodeTerms } from '../domain/pricing.js';
import { nowIso, onPostgres } from './sql.js';

/** A cart line as checkout and the summary price it: the item now, and whether it can still be bought by this buyer. */
export interface CartLine {
  identifier: string;
  name: string;
  sellerId: number;
  sellerProfileName: string;
  sellerName: string;
  priceCents: number;
  currency: string;
  forSale: boolean;
  /** The buyer holds it already (a paid purchase of theirs). */
  owned: boolean;
}

/** A purchase as stored, with what the routes act on. */
export interface PurchaseRecord {
  id: number;
  purchaseNumber: string;
  buyerId: number;
  status: PurchaseStatus;
  currency: string;
  totalCents: number;
  discountCodeId: number | null;
  provider: string;
  providerSession: string | null;
  providerUrl: string | null;
  returnOrigin: string;
  expiresAt: string;
  lines: (PurchaseLine & { sellerId: number })[];
  view: Omit<Purchase, 'payUrl'>;
}

export interface NewPurchase {
  buyerId: number;
  openKey: string;
  currency: string;
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  code: CodeTerms | null;
  provider: string;
  returnOrigin: string;
  expiresAt: string;
  lines: {
    identifier: string;
    name: string;
    sellerId: number;
    priceCents: number;
    discountCents: number;
    amountCents: number;
  }[];
}

// Unambiguous to read aloud or type from a receipt: no 0/O, 1/I/L.
const NUMBER_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const newPurchaseNumber = () =>
  `P-${[...randomBytes(8)].map((b) => NUMBER_ALPHABET[b % NUMBER_ALPHABET.length]).join('')}`;

export type PurchasesRepository = ReturnType<typeof purchasesRepository>;

export function purchasesRepository(db: Db) {
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
  type CodeRow = {
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
  };
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

  const byWhere = async (column: 'purchase_number' | 'open_key', value: string): Promise<PurchaseRecord | null> => {
    let query = db.selectFrom('purchases').selectAll().where(column, '=', value);
    // The row a payment changes is read locked on PostgreSQL, so two events for it act in turn.
    if (db.isTransaction && onPostgres(db)) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) return null;
    const lines = await db
      .selectFrom('purchase_items as pi')
      .innerJoin('users as u', 'u.id', 'pi.seller_id')
      .select([
        'pi.content_identifier',
        'pi.name',
        'pi.seller_id',
        'pi.price_cents',
        'pi.discount_cents',
        'pi.amount_cents',
        'u.profile_name',
        'u.username',
      ])
      .where('pi.purchase_id', '=', row.id)
      .orderBy('pi.content_identifier')
      .execute();
    const items = lines.map((line) => ({
      identifier: line.content_identifier,
      name: line.name,
      sellerId: line.seller_id,
      sellerProfileName: line.profile_name,
      sellerName: line.username,
      priceCents: line.price_cents,
      discountCents: line.discount_cents,
      amountCents: line.amount_cents,
    }));
    return {
      id: row.id,
      purchaseNumber: row.purchase_number,
      buyerId: row.buyer_id,
      status: row.status,
      currency: row.currency,
      totalCents: row.total_cents,
      discountCodeId: row.discount_code_id,
      provider: row.provider,
      providerSession: row.provider_session,
      providerUrl: row.provider_url,
      returnOrigin: row.return_origin,
      expiresAt: row.expires_at,
      lines: items,
      view: {
        purchaseNumber: row.purchase_number,
        status: row.status,
        currency: row.currency,
        subtotalCents: row.subtotal_cents,
        discountCents: row.discount_cents,
        totalCents: row.total_cents,
        discountCode: row.discount_code,
        createdAt: row.created_at,
        paidAt: row.paid_at,
        expiresAt: row.expires_at,
        paymentReference: row.payment_reference,
        items: items.map(({ sellerId: _seller, ...line }) => line),
      },
    };
  };

  return {
    /** The cart's items as a buyer would pay for them now (`buyerId` null for a visitor's cart). */
    async cartLines(key: string, buyerId: number | null): Promise<CartLine[]> {
      const rows = await db
        .selectFrom('cart_items as c')
        .innerJoin('content_items as ci', 'ci.identifier', 'c.identifier')
        .innerJoin('users as u', 'u.id', 'ci.owner_id')
        .leftJoin('entitlements as en', (join) =>
          join.onRef('en.content_identifier', '=', 'c.identifier').on('en.user_id', '=', buyerId ?? -1),
        )
        .select([
          'c.identifier',
          'ci.name',
          'ci.owner_id',
          'ci.price_cents',
          'ci.currency',
          'ci.for_sale',
          'u.profile_name',
          'u.username',
          'en.purchase_id',
        ])
        .where('c.owner_key', '=', key)
        .orderBy('c.added_at')
        .orderBy('c.identifier')
        .execute();
      return rows.map((row) => ({
        identifier: row.identifier,
        name: row.name,
        sellerId: row.owner_id,
        sellerProfileName: row.profile_name,
        sellerName: row.username,
        priceCents: row.price_cents,
        currency: row.currency,
        forSale: row.for_sale === 1 && row.owner_id !== buyerId,
        owned: row.purchase_id !== null,
      }));
    },

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

    byNumber: (purchaseNumber: string) => byWhere('purchase_number', purchaseNumber),
    openFor: (openKey: string) => byWhere('open_key', openKey),

    /**
     * Stores a new open purchase for the cart, unless the cart has one already (another checkout
     * got there first: the cart's key is unique among open purchases). Answers its number, or
     * null when another open purchase holds the key.
     */
    async create(purchase: NewPurchase): Promise<string | null> {
      const purchaseNumber = newPurchaseNumber();
      const inserted = await db
        .insertInto('purchases')
        .values({
          purchase_number: purchaseNumber,
          buyer_id: purchase.buyerId,
          open_key: purchase.openKey,
          status: 'open',
          currency: purchase.currency,
          subtotal_cents: purchase.subtotalCents,
          discount_cents: purchase.discountCents,
          total_cents: purchase.totalCents,
          discount_code: purchase.code?.code ?? null,
          discount_code_id: purchase.code?.id ?? null,
          provider: purchase.provider,
          return_origin: purchase.returnOrigin,
          created_at: nowIso(),
          expires_at: purchase.expiresAt,
        })
        .onConflict((oc) => oc.column('open_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return null;
      await db
        .insertInto('purchase_items')
        .values(
          purchase.lines.map((line) => ({
            purchase_id: inserted.id,
            content_identifier: line.identifier,
            seller_id: line.sellerId,
            name: line.name,
            price_cents: line.priceCents,
            discount_cents: line.discountCents,
            amount_cents: line.amountCents,
          })),
        )
        .execute();
      return purchaseNumber;
    },

    /** Ends an open purchase unpaid (its time is up, or the cart changed): false when it was not open. */
    /** Ends the open purchase of `openKey` unpaid, if there is one. */
    async expireOpen(openKey: string): Promise<void> {
      await db
        .updateTable('purchases')
        .set({ status: 'expired', open_key: null })
        .where('open_key', '=', openKey)
        .where('status', '=', 'open')
        .execute();
    },

    async expire(id: number): Promise<boolean> {
      const { numUpdatedRows } = await db
        .updateTable('purchases')
        .set({ status: 'expired', open_key: null })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /** Open purchases past their time, up to `limit`, end unpaid; answers how many. */
    async expireDue(now: Date, limit: number): Promise<number> {
      const due = await db
        .selectFrom('purchases')
        .select('id')
        .where('status', '=', 'open')
        .where('expires_at', '<=', now.toISOString())
        .limit(limit)
        .execute();
      if (due.length === 0) return 0;
      const { numUpdatedRows } = await db
        .updateTable('purchases')
        .set({ status: 'expired', open_key: null })
        .where(
          'id',
          'in',
          due.map((row) => row.id),
        )
        .where('status', '=', 'open')
        .executeTakeFirst();
      return Number(numUpdatedRows);
    },

    /** Records the provider's payment page for an open purchase, once: answers what is recorded. */
    async setProviderSession(id: number, session: string, url: string): Promise<{ session: string; url: string }> {
      await db
        .updateTable('purchases')
        .set({ provider_session: session, provider_url: url })
        .where('id', '=', id)
        .where('provider_session', 'is', null)
        .execute();
      const row = await db
        .selectFrom('purchases')
        .select(['provider_session', 'provider_url'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return { session: row.provider_session ?? session, url: row.provider_url ?? url };
    },

    /**
     * Records a payment event by its id; false when it was recorded before (a replay, or the same
     * event delivered twice at once: the key decides, and the second waits for the first's commit).
     */
    async recordEvent(eventId: string, type: string, purchaseNumber: string | null, outcome: string): Promise<boolean> {
      const inserted = await db
        .insertInto('payment_events')
        .values({ event_id: eventId, type, purchase_number: purchaseNumber, outcome, received_at: nowIso() })
        .onConflict((oc) => oc.column('event_id').doNothing())
        .returning('event_id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async setEventOutcome(eventId: string, outcome: string): Promise<void> {
      await db.updateTable('payment_events').set({ outcome }).where('event_id', '=', eventId).execute();
    },

    /** Marks a purchase paid, unless it is paid (or flagged) already: false then. */
    async markPaid(id: number, paymentReference: string | null, now: Date): Promise<boolean> {
      const { numUpdatedRows } = await db
        .updateTable('purchases')
        .set({ status: 'paid', open_key: null, paid_at: now.toISOString(), payment_reference: paymentReference })
        .where('id', '=', id)
        .where('status', 'in', ['open', 'expired'])
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /** Holds a purchase whose payment does not match it, for a person: nothing is granted. */
    async flag(id: number, reason: string, paymentReference: string | null): Promise<boolean> {
      const { numUpdatedRows } = await db
        .updateTable('purchases')
        .set({ status: 'flagged', open_key: null, flag_reason: reason, payment_reference: paymentReference })
        .where('id', '=', id)
        .where('status', 'in', ['open', 'expired'])
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /** The buyer owns each line's item from now (an item held already stays as it was). */
    async grant(purchase: PurchaseRecord, now: Date): Promise<void> {
      await db
        .insertInto('entitlements')
        .values(
          purchase.lines.map((line) => ({
            user_id: purchase.buyerId,
            content_identifier: line.identifier,
            purchase_id: purchase.id,
            granted_at: now.toISOString(),
          })),
        )
        .onConflict((oc) => oc.columns(['user_id', 'content_identifier']).doNothing())
        .execute();
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

    /** Which of these items `userId` owns (an entitlement: a paid purchase of theirs granted it). */
    async ownedAmong(userId: number, identifiers: readonly string[]): Promise<Set<string>> {
      if (identifiers.length === 0) return new Set();
      const rows = await db
        .selectFrom('entitlements')
        .select('content_identifier')
        .where('user_id', '=', userId)
        .where('content_identifier', 'in', identifiers)
        .execute();
      return new Set(rows.map((row) => row.content_identifier));
    },

    /** A user's purchases that are not open or expired (paid, and any under review), newest first. */
    async numbersOf(buyerId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('purchases')
        .select('purchase_number')
        .where('buyer_id', '=', buyerId)
        .where('status', 'in', ['paid', 'flagged'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((row) => row.purchase_number);
    },

    /** What a user owns: each item with its file and the purchase that granted it, newest first. */
    async owned(userId: number) {
      return db
        .selectFrom('entitlements as en')
        .innerJoin('content_items as ci', 'ci.identifier', 'en.content_identifier')
        .innerJoin('purchases as p', 'p.id', 'en.purchase_id')
        .innerJoin('users as u', 'u.id', 'ci.owner_id')
        .leftJoin('events as e', 'e.id', 'ci.event_id')
        .select([
          'ci.identifier',
          'ci.name',
          'ci.content_type',
          'ci.file_path',
          'ci.filename',
          'ci.media',
          'ci.thumbnail_path',
          'e.name as event_name',
          'u.username as seller_name',
          'p.purchase_number',
          'en.granted_at',
        ])
        .where('en.user_id', '=', userId)
        .orderBy('en.granted_at', 'desc')
        .orderBy('ci.identifier')
        .execute();
    },

    /** An owned item's original file, for its download; null when the user does not own it. */
    async ownedFile(userId: number, identifier: string) {
      const row = await db
        .selectFrom('entitlements as en')
        .innerJoin('content_items as ci', 'ci.identifier', 'en.content_identifier')
        .select(['ci.file_path', 'ci.filename', 'ci.content_type'])
        .where('en.user_id', '=', userId)
        .where('en.content_identifier', '=', identifier)
        .executeTakeFirst();
      return row ?? null;
    },

    /** What a seller sold in paid purchases, newest first. */
    async sales(sellerId: number) {
      return db
        .selectFrom('purchase_items as pi')
        .innerJoin('purchases as p', 'p.id', 'pi.purchase_id')
        .innerJoin('users as b', 'b.id', 'p.buyer_id')
        .select([
          'p.purchase_number',
          'pi.content_identifier',
          'pi.name',
          'pi.amount_cents',
          'p.currency',
          'p.paid_at',
          'b.profile_name as buyer_profile_name',
        ])
        .where('pi.seller_id', '=', sellerId)
        .where('p.status', '=', 'paid')
        .orderBy('p.paid_at', 'desc')
        .orderBy('pi.content_identifier')
        .execute();
    },
  };
}
