/** The widths pages ask for (SPEC's grids, the viewer, a large screen); none above the source's. */
export const IMAGE_WIDTHS = [320, 640, 1280, 1920] as const;

/** The formats made at each width, best first (a `<picture>`'s order): AVIF, WebP, then JPEG for every browser. */
export const OUTPUTS = [
  { format: 'avif', contentType: 'image/avif', extension: 'avif' },
  { format: 'webp', contentType: 'image/webp', extension: 'webp' },
  { format: 'jpeg', contentType: 'image/jpeg', extension: 'jpg' },
] as const;

/** A format a picture is made in. */
export type ImageFormat = (typeof OUTPUTS)[number]['format'];

/** The content type of each format made. */
export const FORMAT_TYPES: Record<ImageFormat, string> = Object.fromEntries(
  OUTPUTS.map((output) => [output.format, output.contentType]),
) as Record<ImageFormat, string>;

/** A watermarked preview: the pictures everyone is shown of a photo for sale until they buy it. */
export interface Preview {
  /** The most pixels on either side (a portrait's height too): enough to judge a photo on a screen, too few to print it. */
  longEdge: number;
  /** The text repeated across it (media/watermark.ts). */
  mark: string;
}

/** What is made of a source: at which widths, in which formats, whether cut to a square, and whether previewed. */
export interface PictureSet {
  widths: readonly number[];
  formats: readonly (typeof OUTPUTS)[number]['format'][];
  square: boolean;
  /** Also a watermarked preview at the set's widths that fit in it, in the same formats (`previews`). */
  preview?: Preview;
  /**
   * Formats left out of a picture at least `fromWidth` wide, for a later run to add (the result
   * names them in `deferred`): AVIF at 1280 px and more is most of a large photo's time, and the
   * other formats can be shown without it.
   */
  defer?: { formats: readonly ImageFormat[]; fromWidth: number };
}

/** A page's picture (grids, the viewer, covers): every width in every format, for a `<picture>`. */
export const PAGE_PICTURES: PictureSet = { widths: IMAGE_WIDTHS, formats: ['avif', 'webp', 'jpeg'], square: false };

/**
 * An order's picture (a target's): the page's, its AVIF made after the others when it is at
 * least 1280 px wide (media/jobs/target.ts records the target ready with its WebP and JPEG, and a job of
 * the queue's later lane adds the AVIF), so the order page shows it sooner.
 */
export const ORDER_PICTURES: PictureSet = { ...PAGE_PICTURES, defer: { formats: ['avif'], fromWidth: 1280 } };

/**
 * A photo for sale: the page's pictures, unmarked (for its owner and its buyers), and its
 * watermarked preview for everyone else, at most 1280 px on either side.
 */
export const SALE_PICTURES: PictureSet = {
  ...PAGE_PICTURES,
  preview: { longEdge: 1280, mark: 'EventMedia · preview' },
};

/**
 * A profile picture: a square (pages show it in a circle), one JPEG, since the contract names one
 * URL (`profilePicture`) and every browser shows JPEG. 192 px: the largest shown is 72 CSS px
 * (the account page), sharp up to a 2.5x screen.
 */
export const AVATAR_PICTURES: PictureSet = { widths: [192], formats: ['jpeg'], square: true };

/** The widths made of a source `width` wide: the set's widths below it, and the source's own when it is narrower than the largest. */
export function widthsFor(width: number, widths: readonly number[] = IMAGE_WIDTHS): number[] {
  const largest = widths[widths.length - 1] ?? width;
  return width >= largest ? [...widths] : [...widths.filter((w) => w < width), width];
}

/**
 * The widths of a preview of a `width` x `height` picture: the set's widths that fit in
 * `longEdge`, up to the widest whose height fits too (a portrait's), never above the source's.
 */
export function previewWidthsFor(width: number, height: number, widths: readonly number[], longEdge: number): number[] {
  // Rounded down, so the height sharp rounds to is at most longEdge.
  const widest = Math.min(width, Math.floor((longEdge * width) / Math.max(width, height)));
  const fitting = widths.filter((w) => w <= longEdge);
  return widthsFor(widest, fitting);
}
