import { availableParallelism } from 'node:os';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { watermarkSvg } from './watermark.js';

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

/** A format a picture is made in. */
export type ImageFormat = (typeof OUTPUTS)[number]['format'];

/** The content type of each format made. */
export const FORMAT_TYPES: Record<ImageFormat, string> = Object.fromEntries(
  OUTPUTS.map((output) => [output.format, output.contentType]),
) as Record<ImageFormat, string>;

/**
 * Encodes run at once: sharp gives each one libvips thread here (its default on glibc without
 * jemalloc), so a job uses the machine's cores only by running several; at most 2, so a job
 * leaves room to the API's requests beside it.
 */
const ENCODE_LANES = Math.max(1, Math.min(2, availableParallelism()));

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

/** Work for inLanes: `size` orders it (the largest first). */
interface Task<T> {
  size: number;
  run: () => Promise<T>;
}

/**
 * Runs `tasks` at most `lanes` at a time, the largest first (so the longest is not the one left
 * running alone at the end), and answers their results in the tasks' order; the first failure
 * rejects, once the tasks under way have ended, and no further task starts.
 */
async function inLanes<T>(tasks: readonly Task<T>[], lanes: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  const order = tasks.map((_, i) => i).sort((a, b) => (tasks[b]?.size ?? 0) - (tasks[a]?.size ?? 0));
  let failed = false;
  const lane = async () => {
    for (let next = order.shift(); next !== undefined && !failed; next = order.shift()) {
      const task = tasks[next];
      if (!task) continue;
      try {
        results[next] = await task.run();
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(lanes, tasks.length) }, lane));
  const failure = settled.find((s) => s.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}
