import { ascii } from './ascii.js';

/** What an Exif segment's payload opens with, before its TIFF structure. */
export const EXIF_HEADER = 'Exif\0\0';

/** The orientation (1-8) in a TIFF structure's first IFD, or null when there is none or the structure is not sound. */
export function exifOrientation(tiff: Uint8Array): number | null {
  const b = Buffer.from(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  if (b.length < 8) return null;
  const order = ascii(b, 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const le = order === 'II';
  const u16 = (at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > b.length) return null;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > b.length) return null;
    // Orientation: a SHORT, one of them, held in the entry itself.
    if (u16(entry) === 0x0112) {
      if (u16(entry + 2) !== 3 || u32(entry + 4) !== 1) return null;
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/** An APP1 segment whose Exif holds the orientation only (big-endian TIFF, one IFD of one entry). */
export function orientationOnlyApp1(orientation: number): Uint8Array {
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  // The next IFD's offset: none (zero, already).
  const header = Buffer.alloc(4);
  header[0] = 0xff;
  header[1] = 0xe1;
  header.writeUInt16BE(2 + EXIF_HEADER.length + tiff.length, 2);
  return Buffer.concat([header, Buffer.from(EXIF_HEADER, 'latin1'), tiff]);
}
