import { randomBytes } from 'node:crypto';
import type { PurchaseLine, PurchaseStatus } from '@marketplace/shared/contract';
import type { Db } from '../../db/database.js';
import type { CodeTerms } from '../../domain/pricing.js';
import { nowIso, onPostgres } from '../sql.js';

/** One line of a purchase: an item, its seller, and what the buyer pays for it. */
export type PurchaseRecordLine = PurchaseLine & { sellerId: number };

/** A purchase as stored. */
export interface PurchaseRecord {
  id: number;
  purchaseNumber: string;
  buyerId: number;
  status: PurchaseStatus;
  currency: string;
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  /** The code's text as the purchase was priced with it. */
  discountCode: string | null;
  discountCodeId: number | null;
  provider: string;
  providerSession: string | null;
  providerUrl: string | null;
  paymentReference: string | null;
  returnOrigin: string;
  createdAt: string;
  paidAt: string | null;
  expiresAt: string;
  /** By item identifier. */
  lines: PurchaseRecordLine[];
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
const newPurchaseNumber = () =>
  `P-${[...randomBytes(8)].map((b) => NUMBER_ALPHABET[b % NUMBER_ALPHABET.length]).join('')}`;

/** Purchases from open to paid, flagged or expired. */
export function purchaseRecordsRepository(db: Db) {
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
    return {
      id: row.id,
      purchaseNumber: row.purchase_number,
      buyerId: row.buyer_id,
      status: row.status,
      currency: row.currency,
      subtotalCents: row.subtotal_cents,
      discountCents: row.discount_cents,
      totalCents: row.total_cents,
      discountCode: row.discount_code,
      discountCodeId: row.discount_code_id,
      provider: row.provider,
      providerSession: row.provider_session,
      providerUrl: row.provider_url,
      paymentReference: row.payment_reference,
      returnOrigin: row.return_origin,
      createdAt: row.created_at,
      paidAt: row.paid_at,
      expiresAt: row.expires_at,
      lines: lines.map((line) => ({
        identifier: line.content_identifier,
        name: line.name,
        sellerId: line.seller_id,
        sellerProfileName: line.profile_name,
        sellerName: line.username,
        priceCents: line.price_cents,
        discountCents: line.discount_cents,
        amountCents: line.amount_cents,
      })),
    };
  };

  return {
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

    /** Ends the open purchase of `openKey` unpaid, if there is one. */
    async expireOpen(openKey: string): Promise<void> {
      await db
        .updateTable('purchases')
        .set({ status: 'expired', open_key: null })
        .where('open_key', '=', openKey)
        .where('status', '=', 'open')
        .execute();
    },

    /** Ends an open purchase unpaid (its time is up, or the cart changed): false when it was not open. */
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
  };
}
