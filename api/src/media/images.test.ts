import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AVATAR_PICTURES, processImage, widthsFor } from './images.js';

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
