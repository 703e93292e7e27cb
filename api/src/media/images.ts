import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { ENCODE_LANES, inLanes, type Task } from './encodeLanes.js';
import {
  type ImageFormat,
  OUTPUTS,
  PAGE_PICTURES,
  type PictureSet,
  previewWidthsFor,
  widthsFor,
} from './pictureSets.js';
import { watermarkSvg } from './watermark.js';

/**
 * The most pixels a source may have: a 100 MP camera's frame. A file declaring more (a
 * decompression bomb: 50,000 x 50,000 is 2.5 G pixels, 10 GB decoded) is refused from its header,
 * before anything is decoded; sharp's own limit stops one whose header lies.
 */
export const MAX_INPUT_PIXELS = 100_000_000;

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
  | {
      ok: true;
      width: number;
      height: number;
      placeholder: string;
      outputs: ImageOutput[];
      /** The watermarked preview's pictures, when the set asks for one (else none). */
      previews: ImageOutput[];
      /** The set's formats left for a later run (its `defer`), none made at any width. */
      deferred: ImageFormat[];
    }
  | { ok: false; reason: string };

/**
 * Decodes an uploaded picture as the type it was declared and remakes it: turned upright by its
 * EXIF orientation, every metadata block dropped (a photographer's GPS position stays with the
 * original, which only the order's parties can download), at each of the set's widths in each of
 * its formats (a page's picture: AVIF, WebP and JPEG; a profile picture: a square JPEG), plus a
 * 16 px placeholder; with a preview (a photo for sale), also its watermarked preview in the same
 * formats. A file that is not a picture of the declared type (SVG, HTML, a polyglot, random
 * bytes), is truncated, or has too many pixels is refused with the reason, and nothing is made of it.
 * Encodes `lanes` at a time (work nobody waits for takes one, leaving the cores to work someone does).
 */
export async function processImage(
  bytes: Uint8Array,
  declaredType: string,
  set: PictureSet = PAGE_PICTURES,
  lanes: number = ENCODE_LANES,
): Promise<ImageResult> {
  // A test's stand-in for a decoder crashing on a file: the process decoding it dies at once.
  const crashMarker = process.env.MEDIA_DECODER_CRASH_MARKER;
  if (crashMarker && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(crashMarker))
    process.kill(process.pid, 'SIGKILL');
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

  // The upright picture's size (a camera's portrait is stored landscape with its orientation).
  const upright = header.autoOrient;
  // A square is cut from the middle; its side is what the widths are made of.
  const width = set.square ? Math.min(upright.width, upright.height) : upright.width;
  const height = set.square ? width : upright.height;
  const widths = widthsFor(width, set.widths);
  const deferred =
    set.defer && widths.some((w) => w >= (set.defer?.fromWidth ?? Infinity))
      ? set.formats.filter((f) => set.defer?.formats.includes(f))
      : [];
  const formats = OUTPUTS.filter((o) => set.formats.includes(o.format) && !deferred.includes(o.format));

  // Decoded once (the first frame of an animation), upright, at the largest size made: a JPEG is
  // decoded at a fraction of its size where that is still as large (every byte is still read, so a
  // truncated file is refused as when decoded whole). Then resized from memory for each output.
  const largest = Math.max(...set.widths);
  const decodedSize = set.square
    ? { width: largest, height: largest, fit: 'outside' as const, withoutEnlargement: true }
    : { width: largest, withoutEnlargement: true };
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, options).rotate().resize(decodedSize).raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    // libvips's own words name temporary files and its internals: they go to the log, and the
    // uploader (and anyone the order is shared with) is told in the product's words.
    console.error(`[media] a ${declared.label} image could not be decoded:`, error);
    return { ok: false, reason: `This ${declared.label} image could not be read` };
  }
  const { channels } = decoded.info;
  const fromMemory = (image: { data: Buffer; info: OutputInfo }) => () =>
    sharp(image.data, { raw: { width: image.info.width, height: image.info.height, channels: image.info.channels } });
  const raw = fromMemory(decoded);
  const shaped = (w: number) => raw().resize(set.square ? { width: w, height: w, fit: 'cover' } : { width: w });

  /** The encodes of one picture `w` wide in each format made, `image()` giving the picture afresh for each. */
  const encodes = (image: () => Promise<() => Sharp>, w: number): Task<ImageOutput>[] =>
    formats.map((output) => ({
      size: w,
      run: async () => {
        const picture = await image();
        const encoder =
          output.format === 'avif'
            ? picture().avif({ quality: 50, effort: 2 })
            : output.format === 'webp'
              ? // Effort 2: a third of the default's time, at the same size within a few percent.
                picture().webp({ quality: 75, effort: 2 })
              : // JPEG has no transparency: a transparent PNG is laid on white, not black.
                picture().flatten({ background: '#ffffff' }).jpeg({ quality: 78, mozjpeg: true, progressive: true });
        return {
          name: `${w}.${output.extension}`,
          contentType: output.contentType,
          width: w,
          bytes: await encoder.toBuffer(),
        };
      },
    }));

  /** Each width resized once, and encoded from that in each format. */
  const resizedOnce = (make: () => Sharp) => {
    let resized: Promise<() => Sharp> | undefined;
    return () => (resized ??= make().raw().toBuffer({ resolveWithObject: true }).then(fromMemory));
  };

  const outputTasks = widths.flatMap((w) =>
    encodes(
      resizedOnce(() => shaped(w)),
      w,
    ),
  );

  const previewTasks: Task<ImageOutput>[] = [];
  // A square (a profile picture) is nothing anyone buys.
  if (set.preview && !set.square) {
    const { longEdge, mark } = set.preview;
    // Compositing adds an alpha channel; a picture that had none is not given one.
    const opaque = channels === 1 || channels === 3;
    for (const w of previewWidthsFor(width, height, set.widths, longEdge)) {
      // Both sides given, so the mark is drawn at exactly the picture's size (sharp refuses a larger overlay).
      const h = Math.max(1, Math.round((w * height) / width));
      const overlay = watermarkSvg(w, h, mark);
      const marked = () => {
        const image = raw()
          .resize({ width: w, height: h, fit: 'fill' })
          .composite([{ input: overlay }]);
        return opaque ? image.removeAlpha() : image;
      };
      previewTasks.push(...encodes(resizedOnce(marked), w));
    }
  }
  const made = await inLanes([...outputTasks, ...previewTasks], lanes);
  const outputs = made.slice(0, outputTasks.length);
  const previews = made.slice(outputTasks.length);
  const tiny = await shaped(16).flatten({ background: '#ffffff' }).webp({ quality: 40 }).toBuffer();
  return {
    ok: true,
    width,
    height,
    placeholder: `data:image/webp;base64,${tiny.toString('base64')}`,
    outputs,
    previews,
    deferred,
  };
}
