import type { DiscountCode, MediaPackage } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';

export type OffersRepository = ReturnType<typeof offersRepository>;

/** What a photographer offers: media packages and discount codes. */
export function offersRepository(db: Db) {
  return {
    /** Cheapest first. */
    mediaPackages(ownerId: number): MediaPackage[] {
      const rows = db
        .prepare(
          'SELECT id, name, description, price_cents, photo_count, video_minutes FROM media_packages WHERE owner_id = ? ORDER BY price_cents',
        )
        .all(ownerId) as {
        id: number;
        name: string;
        description: string;
        price_cents: number;
        photo_count: number;
        video_minutes: number;
      }[];
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        description: row.description,
        priceCents: row.price_cents,
        photoCount: row.photo_count,
        videoMinutes: row.video_minutes,
      }));
    },

    discountCodes(ownerId: number): DiscountCode[] {
      const rows = db
        .prepare(
          'SELECT id, code, percent_off, expires_at, times_used FROM discount_codes WHERE owner_id = ? ORDER BY code',
        )
        .all(ownerId) as {
        id: number;
        code: string;
        percent_off: number;
        expires_at: string | null;
        times_used: number;
      }[];
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
