import sharp from 'sharp';

/**
 * A camera-like photo for the benches: grain over a few shapes (a flat picture would compress
 * unlike a photo), as JPEG at `quality`. `seed` moves the shapes and the tint, so each is its own.
 */
export function cameraPhoto({
  width,
  height,
  seed,
  quality,
  grain = 18,
}: {
  width: number;
  height: number;
  seed: number;
  quality: number;
  /** The noise's standard deviation: more grain, more bytes. */
  grain?: number;
}) {
  const unit = width / 6000;
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 60 + seed * 9, g: 90, b: 130 },
      noise: { type: 'gaussian', mean: 0, sigma: grain },
    },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${Math.round((2000 + seed * 150) * unit)}" cy="${Math.round(height / 2)}" r="${Math.round(1300 * unit)}" fill="#e0a030"/><rect x="${Math.round(400 * unit)}" y="${Math.round(height * 0.65)}" width="${Math.round(5200 * unit)}" height="${Math.round(height * 0.22)}" fill="#305030"/></svg>`,
        ),
      },
    ])
    .jpeg({ quality })
    .toBuffer();
}
