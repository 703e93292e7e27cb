import type { Selectable } from 'kysely';
import type { DiscountCode, MediaPackage } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import type { Schema } from '../db/schema.js';

export type OffersRepository = ReturnType<typeof offersRepository>;

/** A package as its owner writes it, in the table's units. */
export interface PackageValues {
  name: string;
  description: string;
  priceCents: number;
  hours: number;
  photoCount: number;
  videoMinutes: number;
  active: boolean;
}

/** A code as its owner writes it: `amountOffCents` set makes it an amount code (percentOff 0). */
export interface CodeValues {
  code: string;
  percentOff: number;
  amountOffCents: number | null;
  expiresAt: string | null;
  maxUses: number | null;
  active: boolean;
}

const toPackage = (row: Selectable<Schema['media_packages']>): MediaPackage => ({
  id: row.id,
  name: row.name,
  description: row.description,
  priceCents: Number(row.price_cents),
  photoCount: Number(row.photo_count),
  videoMinutes: Number(row.video_minutes),
  hours: Number(row.hours),
  active: Number(row.active) === 1,
});

const toCode = (row: Selectable<Schema['discount_codes']>): DiscountCode => ({
  id: row.id,
  code: row.code,
  percentOff: Number(row.percent_off),
  amountOffCents: row.amount_off_cents === null ? null : Number(row.amount_off_cents),
  expiresAt: row.expires_at,
  maxUses: row.max_uses === null ? null : Number(row.max_uses),
  timesUsed: Number(row.times_used),
  active: Number(row.active) === 1,
});

const packageRow = (values: PackageValues) => ({
  name: values.name,
  description: values.description,
  price_cents: values.priceCents,
  hours: values.hours,
  photo_count: values.photoCount,
  video_minutes: values.videoMinutes,
  active: values.active ? 1 : 0,
});

const codeRow = (values: CodeValues) => ({
  code: values.code,
  percent_off: values.percentOff,
  amount_off_cents: values.amountOffCents,
  expires_at: values.expiresAt,
  max_uses: values.maxUses,
  active: values.active ? 1 : 0,
});

/** What a photographer offers: media packages and discount codes. */
export function offersRepository(db: Db) {
  const packageOf = async (ownerId: number, packageId: number) => {
    const row = await db
      .selectFrom('media_packages')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('id', '=', packageId)
      .executeTakeFirst();
    return row ? toPackage(row) : undefined;
  };
  const codeOf = async (ownerId: number, codeId: number) => {
    const row = await db
      .selectFrom('discount_codes')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('id', '=', codeId)
      .executeTakeFirst();
    return row ? toCode(row) : undefined;
  };

  return {
    /** Cheapest first: what the owner still offers, or with `withdrawn` (their own list) every package. */
    async mediaPackages(ownerId: number, { withdrawn = false } = {}): Promise<MediaPackage[]> {
      let query = db.selectFrom('media_packages').selectAll().where('owner_id', '=', ownerId);
      if (!withdrawn) query = query.where('active', '=', 1);
      const rows = await query.orderBy('price_cents').orderBy('id').execute();
      return rows.map(toPackage);
    },

    /** One of the owner's packages, withdrawn or not, or undefined when the owner has no such package. */
    mediaPackage: packageOf,

    async createPackage(ownerId: number, values: PackageValues): Promise<MediaPackage> {
      const { id } = await db
        .insertInto('media_packages')
        .values({ owner_id: ownerId, ...packageRow(values) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return (await packageOf(ownerId, id)) as MediaPackage;
    },

    /** Changes the owner's package; undefined when they have no such package. */
    async updatePackage(ownerId: number, packageId: number, values: Partial<PackageValues>) {
      const current = await packageOf(ownerId, packageId);
      if (!current) return undefined;
      await db
        .updateTable('media_packages')
        .set(packageRow({ ...current, ...values }))
        .where('owner_id', '=', ownerId)
        .where('id', '=', packageId)
        .execute();
      return packageOf(ownerId, packageId);
    },

    /** Every code of the owner, withdrawn ones too, by code. */
    async discountCodes(ownerId: number): Promise<DiscountCode[]> {
      const rows = await db
        .selectFrom('discount_codes')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .orderBy('code')
        .execute();
      return rows.map(toCode);
    },

    discountCode: codeOf,

    /** Whether a code other than `exceptId` has this text, in any case and of any owner. */
    async codeTaken(code: string, exceptId: number | null = null): Promise<boolean> {
      let query = db
        .selectFrom('discount_codes')
        .select('id')
        .where((eb) => eb(eb.fn('upper', ['code']), '=', code.toUpperCase()));
      if (exceptId !== null) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    async createCode(ownerId: number, values: CodeValues): Promise<DiscountCode> {
      const { id } = await db
        .insertInto('discount_codes')
        .values({ owner_id: ownerId, ...codeRow(values) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return (await codeOf(ownerId, id)) as DiscountCode;
    },

    /** Changes the owner's code (its uses stay); undefined when they have no such code. */
    async updateCode(ownerId: number, codeId: number, values: Partial<CodeValues>) {
      const current = await codeOf(ownerId, codeId);
      if (!current) return undefined;
      await db
        .updateTable('discount_codes')
        .set(codeRow({ ...current, ...values }))
        .where('owner_id', '=', ownerId)
        .where('id', '=', codeId)
        .execute();
      return codeOf(ownerId, codeId);
    },
  };
}
