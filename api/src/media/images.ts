import sharp, { type Metadata, type OutputInfo } from 'sharp';

/** The widths pages ask for (SPEC's grids, the viewer, a large screen); none above the source's. */
export const IMAGE_WIDTHS = [320, 640, 1280, 1920] as const;

/**
 * The most pixels a source may have: a 100 MP camera's frame. A file declaring more (a
 * decompression bomb: 50,000 x 50,000 is 2.5 G pixels, 10 GB decoded) is refused from its header,
 * before anything is decoded; sharp's own limit stops one whose header lies.
 */
export const MAX_INPUT_PIXELS = 100_000_000;

/** The formats made at each width, best first (a `<picture>`'s order): AVIF, WebP, then JPEG for every browser. */
const OUTPUTS = [
  { format: 'avif', contentType: 'image/avif', extension: 'avif' },
  { format: 'webp', contentType: 'image/webp', extension: 'webp' },
  { format: 'jpeg', contentType: 'image/jpeg', extension: 'jpg' },
] as const;

/** What is made of a source: at which widths, in which formats, and whether cut to a square. */
export interface PictureSet {
  widths: readonly number[];
  formats: readonly (typeof OUTPUTS)[number]['format'][];
  square: boolean;
}

/** A page's picture (grids, the viewer, covers): every width in every format, for a `<picture>`. */
export const PAGE_PICTURES: PictureSet = { widths: IMAGE_WIDTHS, formats: ['avif', 'webp', 'jpeg'], square: false };

/**
 * A profile picture: a square (pages show it in a circle), one JPEG, since the contract names one
 * URL (`profilePicture`) and every browser shows JPEG. 192 px: the largest shown is 72 CSS px
 * (the account page), sharp up to a 2.5x screen.
 */
export const AVATAR_PICTURES: PictureSet = { widths: [192], formats: ['jpeg'], square: true };

/** What each uploadable type is called by sharp, and in words for a refusal. */
const DECLARED: Record<string, { format: string; label: string }> = {
  'image/jpeg': { format: 'jpeg', label: 'JPEG' },
  'image/png': { format: 'png', label: 'PNG' },
  'image/webp': { format: 'webp', label: 'WebP' },
  'image/gif': { format: 'gif', label: 'GIF' },
};

export interface ImageOutput {
  /** The output's name within its target's folder, e.g. '640.webp'. */
  name: string;
  contentType: string;
  width: number;
  bytes: Buffer;
}

export type ImageResult =
  | { ok: true; width: number; height: number; placeholder: string; outputs: ImageOutput[] }
  | { ok: false; reason: string };

/** The widths made of a source `width` wide: the set's widths below it, and the source's own when it is narrower than the largest. */
export function widthsFor(width: number, widths: readonly number[] = IMAGE_WIDTHS): number[] {
  const largest = widths[widths.length - 1] ?? width;
  return width >= largest ? [...widths] : [...widths.filter((w) => w < width), width];
}

/**
 * Decodes an uploaded picture as the type it was declared and remakes it: turned upright by its
 * EXIF orientation, every metadata block dropped (a photographer's GPS position stays with the
 * original, which only the order's parties can download), at each of the set's widths in each of
 * its formats (a page's picture: AVIF, WebP and JPEG; a profile picture: a square JPEG), plus a
 * 16 px placeholder. A file that is not a picture of the declared type (SVG, HTML, a polyglot,
 * random bytes), is truncated, or has too many pixels is refused with the reason, and nothing is
 * made of it.
 */
export async function processImage(
  bytes: Uint8Array,
  declaredType: string,
  set: PictureSet = PAGE_PICTURES,
): Promise<ImageResult> {
  const declared = DECLARED[declaredType];
  if (!declared) return { ok: false, reason: `Files of type ${declaredType} are not accepted` };
  const notIt = { ok: false as const, reason: `This file is not a ${declared.label} image` };
  // `failOn: 'warning'` (sharp's strictest): a truncated or corrupt file is refused, not made into a grey half picture.
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' } as const;
  let header: Metadata;
  try {
    // The header only (nothing decoded), read without the limit so a bomb is told as one.
    header = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    return notIt;
  }
  // Whatever its name or declared type: an SVG (which may carry script), or any other format, is not it.
  if (header.format !== declared.format || !header.width || !header.height) return notIt;
  if (header.width * header.height > MAX_INPUT_PIXELS)
    return {
      ok: false,
      reason: `This image has ${header.width} x ${header.height} pixels; at most ${MAX_INPUT_PIXELS / 1_000_000} million are accepted`,
    };

  // Decoded once (the first frame of an animation), upright, then resized from memory for each output.
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, options).rotate().raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : '';
    return { ok: false, reason: `This ${declared.label} image could not be read${detail ? ` (${detail})` : ''}` };
  }
  const { height, channels } = decoded.info;
  const decodedWidth = decoded.info.width;
  const raw = () => sharp(decoded.data, { raw: { width: decodedWidth, height, channels } });
  // A square is cut from the middle; its side is what the widths are made of.
  const width = set.square ? Math.min(decodedWidth, height) : decodedWidth;
  const shaped = (w: number) => raw().resize(set.square ? { width: w, height: w, fit: 'cover' } : { width: w });

  const outputs: ImageOutput[] = [];
  for (const w of widthsFor(width, set.widths)) {
    for (const output of OUTPUTS.filter((o) => set.formats.includes(o.format))) {
      let image = shaped(w);
      image =
        output.format === 'avif'
          ? image.avif({ quality: 50, effort: 2 })
          : output.format === 'webp'
            ? image.webp({ quality: 75 })
            : // JPEG has no transparency: a transparent PNG is laid on white, not black.
              image.flatten({ background: '#ffffff' }).jpeg({ quality: 78, mozjpeg: true, progressive: true });
      outputs.push({
        name: `${w}.${output.extension}`,
        contentType: output.contentType,
        width: w,
        bytes: await image.toBuffer(),
      });
    }
  }
  const tiny = await shaped(16).flatten({ background: '#ffffff' }).webp({ quality: 40 }).toBuffer();
  return {
    ok: true,
    width,
    height: set.square ? width : height,
    placeholder: `data:image/webp;base64,${tiny.toString('base64')}`,
    outputs,
  };
}
