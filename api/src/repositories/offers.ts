import type { DiscountCode, MediaPackage } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';

export type OffersRepository = ReturnType<typeof offersRepository>;

/** What a photographer offers: media packages and discount codes. */
export function offersRepository(db: Db) {
  return {
    /** Cheapest first. */
    async mediaPackages(ownerId: number): Promise<MediaPackage[]> {
      const rows = await db
        .selectFrom('media_packages')
        .select(['id', 'name', 'description', 'price_cents', 'photo_count', 'video_minutes'])
        .where('owner_id', '=', ownerId)
        .orderBy('price_cents')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        description: row.description,
        priceCents: row.price_cents,
        photoCount: row.photo_count,
        videoMinutes: row.video_minutes,
      }));
    },

    /** One of the owner's packages, or undefined when the owner has no such package. */
    async mediaPackage(ownerId: number, packageId: number): Promise<MediaPackage | undefined> {
      return (await this.mediaPackages(ownerId)).find((candidate) => candidate.id === packageId);
    },

    async discountCodes(ownerId: number): Promise<DiscountCode[]> {
      const rows = await db
        .selectFrom('discount_codes')
        .select(['id', 'code', 'percent_off', 'expires_at', 'times_used'])
        .where('owner_id', '=', ownerId)
        .orderBy('code')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        code: row.code,
        percentOff: row.percent_off,
        expiresAt: row.expires_at,
        timesUsed: row.times_used,
      }));
    },
  };
}
