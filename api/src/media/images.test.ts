import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { processImage } from './images.js';
import { AVATAR_PICTURES, previewWidthsFor, SALE_PICTURES, widthsFor } from './pictureSets.js';

describe('widthsFor', () => {
  it('makes the page widths up to the source, never above it, and the source itself when it is narrower than the largest', () => {
    expect(widthsFor(6000)).toEqual([320, 640, 1280, 1920]);
    expect(widthsFor(1920)).toEqual([320, 640, 1280, 1920]);
    expect(widthsFor(1000)).toEqual([320, 640, 1000]);
    expect(widthsFor(640)).toEqual([320, 640]);
    expect(widthsFor(64)).toEqual([64]);
  });

  it("makes a set's own widths", () => {
    expect(widthsFor(1350, AVATAR_PICTURES.widths)).toEqual([192]);
    expect(widthsFor(128, AVATAR_PICTURES.widths)).toEqual([128]);
  });
});

describe('a profile picture', () => {
  it('is one square JPEG cut from the middle of a portrait photo, at most 192 px, without its metadata', async () => {
    // Blue, with a red band across the top and the bottom 150 px: a square from the middle has none of it.
    const band = { input: { create: { width: 600, height: 150, channels: 3 as const, background: '#ff0000' } } };
    const portrait = await sharp({ create: { width: 600, height: 900, channels: 3, background: '#0000ff' } })
      .composite([
        { ...band, top: 0, left: 0 },
        { ...band, top: 750, left: 0 },
      ])
      .withExif({ IFD0: { Make: 'Phone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
      .jpeg()
      .toBuffer();
    const made = await processImage(portrait, 'image/jpeg', AVATAR_PICTURES);
    if (!made.ok) throw new Error(made.reason);
    expect([made.width, made.height]).toEqual([600, 600]);
    expect(made.outputs.map((o) => [o.name, o.contentType, o.width])).toEqual([['192.jpg', 'image/jpeg', 192]]);
    const meta = await sharp(made.outputs[0]?.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 192, 192, undefined]);
    // Not squeezed, not cut from the top: its top and bottom rows are as blue as its middle.
    const { data } = await sharp(made.outputs[0]?.bytes).raw().toBuffer({ resolveWithObject: true });
    for (const row of [1, 96, 190]) {
      const at = row * 192 * 3 + 96 * 3;
      expect([data[at] ?? 0, data[at + 2] ?? 0], `row ${row}: red under 40, blue over 200`).toSatisfy(
        ([red, blue]: number[]) => (red ?? 255) < 40 && (blue ?? 0) > 200,
      );
    }
  });

  it('is refused, as every picture, when it is not the declared type', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(await processImage(svg, 'image/png', AVATAR_PICTURES)).toEqual({
      ok: false,
      reason: 'This file is not a PNG image',
    });
  });
});

describe('previewWidthsFor', () => {
  it('keeps both sides of a preview within its long edge: a landscape at the widths up to it, a portrait narrower', () => {
    expect(previewWidthsFor(4000, 2250, SALE_PICTURES.widths, 1280)).toEqual([320, 640, 1280]);
    expect(previewWidthsFor(2250, 4000, SALE_PICTURES.widths, 1280)).toEqual([320, 640, 720]);
    expect(previewWidthsFor(4000, 4000, SALE_PICTURES.widths, 1280)).toEqual([320, 640, 1280]);
    expect(previewWidthsFor(800, 600, SALE_PICTURES.widths, 1280)).toEqual([320, 640, 800]);
  });
});

describe('a photo for sale', () => {
  /** A photo of soft colour (a gradient), so what differs between two pictures of it is the mark, not JPEG's noise. */
  const photo = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#4a7fa8' } })
      .composite([
        {
          input: Buffer.from(
            `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#2d5a7b"/><stop offset="1" stop-color="#c9a46a"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
          ),
        },
      ])
      .jpeg({ quality: 95 })
      .toBuffer();

  it('is previewed at most 1280 px on its long edge, landscape or portrait, in every format, beside its unmarked pictures at the page widths', async () => {
    for (const [width, height, previewWidths, unmarkedWidths] of [
      [2400, 1350, [320, 640, 1280], [320, 640, 1280, 1920]],
      [1350, 2400, [320, 640, 720], [320, 640, 1280, 1350]],
    ] as const) {
      const made = await processImage(await photo(width, height), 'image/jpeg', SALE_PICTURES);
      if (!made.ok) throw new Error(made.reason);
      expect(made.outputs.filter((o) => o.contentType === 'image/jpeg').map((o) => o.width)).toEqual(unmarkedWidths);
      expect(made.previews.map((o) => o.name)).toEqual(
        previewWidths.flatMap((w) => [`${w}.avif`, `${w}.webp`, `${w}.jpg`]),
      );
      for (const preview of made.previews) {
        const meta = await sharp(preview.bytes).metadata();
        expect(meta.width, `${width}x${height} ${preview.name}`).toBe(preview.width);
        expect(Math.max(meta.width ?? 0, meta.height ?? 0), `${width}x${height} ${preview.name}`).toBeLessThanOrEqual(
          1280,
        );
      }
      // The largest preview reaches the long edge: as large as a preview may be, no larger.
      const largest = await sharp(made.previews.at(-1)?.bytes).metadata();
      expect(Math.max(largest.width ?? 0, largest.height ?? 0)).toBe(1280);
    }
  });

  it('is marked across the whole preview: its pixels differ from the unmarked picture of the same width in every part of the frame', async () => {
    const made = await processImage(await photo(1600, 900), 'image/jpeg', SALE_PICTURES);
    if (!made.ok) throw new Error(made.reason);
    const decoded = async (list: typeof made.outputs, name: string) =>
      sharp(list.find((o) => o.name === name)?.bytes)
        .raw()
        .toBuffer({ resolveWithObject: true });
    const preview = await decoded(made.previews, '640.jpg');
    const unmarked = await decoded(made.outputs, '640.jpg');
    const otherFormat = await decoded(made.outputs, '640.webp');
    expect([preview.info.width, preview.info.height, preview.info.channels]).toEqual([640, 360, 3]);
    expect([unmarked.info.width, unmarked.info.height]).toEqual([640, 360]);
    /** The share of pixels of each quarter of the frame that differ by more than JPEG's error could make. */
    const differing = (a: Buffer, b: Buffer) => {
      const quarters = [0, 0, 0, 0];
      for (let y = 0; y < 360; y++)
        for (let x = 0; x < 640; x++) {
          const at = (y * 640 + x) * 3;
          const delta = Math.max(...[0, 1, 2].map((c) => Math.abs((a[at + c] ?? 0) - (b[at + c] ?? 0))));
          const quarter = (y < 180 ? 0 : 2) + (x < 320 ? 0 : 1);
          if (delta > 40) quarters[quarter] = (quarters[quarter] ?? 0) + 1;
        }
      return quarters.map((n) => n / (320 * 180));
    };
    for (const share of differing(preview.data, unmarked.data)) expect(share).toBeGreaterThan(0.03);
    // The measure sees the mark, not the encoding: two unmarked encodings of the picture agree.
    for (const share of differing(otherFormat.data, unmarked.data)) expect(share).toBeLessThan(0.001);
  });

  it('keeps a transparent picture transparent and an opaque one opaque under its mark', async () => {
    const opaque = await processImage(await photo(700, 500), 'image/jpeg', SALE_PICTURES);
    const clear = await processImage(
      await sharp({ create: { width: 700, height: 500, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .png()
        .toBuffer(),
      'image/png',
      SALE_PICTURES,
    );
    if (!opaque.ok || !clear.ok) throw new Error('not made');
    const alpha = async (made: typeof opaque) =>
      (await sharp(made.previews.find((o) => o.name === '640.webp')?.bytes).metadata()).hasAlpha;
    expect([await alpha(opaque), await alpha(clear)]).toEqual([false, true]);
  });
});
