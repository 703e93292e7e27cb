/** XML's five special characters, so the mark's text cannot close the SVG's text element. */
const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

/**
 * An SVG the size of a picture (`width` x `height`), for sharp to composite over it: `text`
 * repeated in diagonal rows across the whole frame, so no crop of the picture is free of it. Its
 * size follows the picture's long edge, so the mark reads alike at every width. White text with
 * a dark outline shows on light and dark photos; the rule under each row is drawn without a font,
 * so a machine whose fontconfig finds no font (librsvg then draws no text) still marks the picture.
 */
export function watermarkSvg(width: number, height: number, text: string): Buffer {
  const size = Math.max(10, Math.round(Math.max(width, height) / 24));
  // A tile fits the text (about 0.6 em per character) with a gap; the rows stand 3 em apart.
  const tileWidth = Math.round(size * (text.length * 0.6 + 2));
  const tileHeight = Math.round(size * 3);
  const n = (value: number) => value.toFixed(1);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><pattern id="mark" width="${tileWidth}" height="${tileHeight}" patternUnits="userSpaceOnUse" patternTransform="rotate(-30)">` +
      `<text x="${n(size / 2)}" y="${n(size * 1.2)}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-weight="bold" font-size="${size}" fill="#ffffff" fill-opacity="0.5" stroke="#000000" stroke-opacity="0.3" stroke-width="${n(size / 20)}" paint-order="stroke">${escapeXml(text)}</text>` +
      `<rect x="0" y="${n(size * 1.6)}" width="${tileWidth}" height="${n(Math.max(1, size / 12))}" fill="#ffffff" fill-opacity="0.35"/>` +
      `</pattern></defs><rect width="100%" height="100%" fill="url(#mark)"/></svg>`,
  );
}
