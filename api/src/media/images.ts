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

/** The widths made of a source `width` wide: the page widths below it, and the source's own when it is narrower than the largest. */
export function widthsFor(width: number): number[] {
  const largest = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1] ?? width;
  return width >= largest ? [...IMAGE_WIDTHS] : [...IMAGE_WIDTHS.filter((w) => w < width), width];
}

/**
 * Decodes an uploaded picture as the type it was declared and remakes it: turned upright by its
 * EXIF orientation, every metadata block dropped (a photographer's GPS position stays with the
 * original, which only the order's parties can download), at each width in AVIF, WebP and JPEG,
 * plus a 16 px placeholder. A file that is not a picture of the declared type (SVG, HTML, a
 * polyglot, random bytes), is truncated, or has too many pixels is refused with the reason, and
 * nothing is made of it.
 */
export async function processImage(bytes: Uint8Array, declaredType: string): Promise<ImageResult> {
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
  const { width, height, channels } = decoded.info;
  const raw = () => sharp(decoded.data, { raw: { width, height, channels } });

  const outputs: ImageOutput[] = [];
  for (const w of widthsFor(width)) {
    for (const output of OUTPUTS) {
      let image = raw().resize({ width: w });
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
  const tiny = await raw().resize({ width: 16 }).flatten({ background: '#ffffff' }).webp({ quality: 40 }).toBuffer();
  return { ok: true, width, height, placeholder: `data:image/webp;base64,${tiny.toString('base64')}`, outputs };
}
