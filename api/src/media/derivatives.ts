import { randomBytes } from 'node:crypto';
import type { ResponsiveImage } from '@marketplace/shared/contract';

/** One file the media job made: its name in the target's folder ('640.webp'), where it is stored, its type and width. */
export interface Derivative {
  name: string;
  key: string;
  contentType: string;
  width: number;
}

/** What the media job made of an image, as stored with its target (order_targets.media). */
export interface ImageMedia {
  width: number;
  height: number;
  placeholder: string;
  derivatives: Derivative[];
}

/** The formats of a `<picture>`, best first; the last is every browser's (the `<img>`'s own). */
const PICTURE_TYPES = ['image/avif', 'image/webp', 'image/jpeg'] as const;

/**
 * Where one run of a job stores what it makes: a new folder each time (a random name), so a
 * second worker running the same job never overwrites what the first one's target serves.
 */
export const derivativeFolder = (orderId: string, targetIdentifier: string): string =>
  `orders/${orderId}/${targetIdentifier}/${randomBytes(9).toString('base64url')}`;

/**
 * The `<picture>` of a processed image, each derivative's URL made by `urlOf` (a signed link for
 * an order's file, a public URL for public media): one srcset per format, and the largest JPEG
 * as the `<img>`'s src.
 */
export function pictureOf(media: ImageMedia, urlOf: (derivative: Derivative) => string): ResponsiveImage {
  const ofType = (type: string) =>
    media.derivatives.filter((d) => d.contentType === type).sort((a, b) => a.width - b.width);
  const sources = PICTURE_TYPES.map((type) => ({
    type,
    srcset: ofType(type)
      .map((d) => `${urlOf(d)} ${d.width}w`)
      .join(', '),
  })).filter((source) => source.srcset);
  const fallback = ofType('image/jpeg').at(-1);
  return {
    width: media.width,
    height: media.height,
    placeholder: media.placeholder,
    sources,
    src: fallback ? urlOf(fallback) : '',
  };
}

/** The stored JSON read back; null when there is none (a target uploaded before the pipeline). */
export const parseMedia = (json: string | null): ImageMedia | null => (json ? (JSON.parse(json) as ImageMedia) : null);
