/** The bytes `bytes[from, to)` as text, one character a byte (a box type, a chunk's name, a signature). */
export const ascii = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.subarray(from, to)).toString('latin1');
