import { randomBytes } from 'node:crypto';
import type { ResponsiveImage } from '@marketplace/shared/contract';

/** One file the media job made: its name in the target's folder ('640.webp'), where it is stored, its type and width. */
export interface Derivative {
  name: string;
  key: string;
  contentType: string;
  width: number;
}

/**
 * What the media job made of a file, as stored with its target (order_targets.media) or its
 * photo, video or cover (content_items.media, events.cover_media): the pictures (of a photo, or a
 * video's poster frame) and, for a video, its HLS ladder.
 */
export interface TargetMedia {
  width: number;
  height: number;
  placeholder: string;
  /** The pictures every reader is shown: of a photo for sale, its watermarked preview. */
  derivatives: Derivative[];
  /**
   * A photo for sale's pictures without the watermark, under a private prefix (files/paths.ts),
   * reached by signed links given to its owner and its buyers only. Absent for everything else,
   * and for a photo made before previews were: its `derivatives` are unmarked, shown as they were.
   */
  unmarked?: Derivative[];
  /** A video's files: each rendition's playlist, init segment and segments, and the master playlist (`master.m3u8`). */
  video?: { durationSeconds: number; files: Derivative[] };
}

/** The master playlist of a video's ladder (media/videoLadder.ts writes it last). */
export const MASTER_PLAYLIST = 'master.m3u8';

/**
 * A playlist of the ladder as served: each URI in it (a rendition's playlist, the init segment
 * in EXT-X-MAP, a segment), relative to the playlist's own folder, made into the URL `urlOf`
 * gives for that file (an order's files are reached by signed links only, which a relative URI
 * would lose). A URI naming no file of the ladder is left out with its line.
 */
export function servedPlaylist(text: string, playlistName: string, urlOf: (name: string) => string | null): string {
  const folder = playlistName.includes('/') ? playlistName.slice(0, playlistName.lastIndexOf('/') + 1) : '';
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('#EXT-X-MAP:'))
        return line.replace(/URI="([^"]+)"/, (_, uri: string) => `URI="${urlOf(folder + uri) ?? ''}"`);
      if (!line || line.startsWith('#')) return line;
      return urlOf(folder + line.trim()) ?? '';
    })
    .join('\n');
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
export function pictureOf(media: TargetMedia, urlOf: (derivative: Derivative) => string): ResponsiveImage {
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

/** A photo for sale's unmarked pictures in the place of its preview; null when it has none (every other media). */
export const unmarkedOf = (media: TargetMedia): TargetMedia | null =>
  media.unmarked ? { ...media, derivatives: media.unmarked } : null;

/** The stored JSON read back; null when there is none (a target uploaded before the pipeline). */
export const parseMedia = (json: string | null): TargetMedia | null =>
  json ? (JSON.parse(json) as TargetMedia) : null;

/** The width of the picture a page takes where it shows no `<picture>` (a video's poster): a card's at twice the pixels. */
const THUMBNAIL_WIDTH = 640;

/** The JPEGs made, narrowest first. */
const jpegsOf = (media: TargetMedia) =>
  media.derivatives.filter((d) => d.contentType === 'image/jpeg').sort((a, b) => a.width - b.width);

/** The smallest JPEG made: a list's thumbnail. */
export const smallestJpeg = (media: TargetMedia): Derivative | undefined => jpegsOf(media)[0];

/** The largest JPEG made: what a creator downloads of their photo (the source keeps its metadata). */
export const largestJpeg = (media: TargetMedia): Derivative | undefined => jpegsOf(media).at(-1);

/** The JPEG for a thumbnail: the first at least THUMBNAIL_WIDTH wide, or the largest (a smaller source). */
export const thumbnailJpeg = (media: TargetMedia): Derivative | undefined =>
  jpegsOf(media).find((d) => d.width >= THUMBNAIL_WIDTH) ?? largestJpeg(media);
