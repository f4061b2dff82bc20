/**
 * CRC-32 (IEEE 802.3, the polynomial zlib and OKX use), fed a character at a time so the OKX book
 * checksum is computed straight from the levels' strings without building the joined text (no
 * allocation per update). Prices and sizes are ASCII, so a char code is its UTF-8 byte.
 */
const TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** The running register: start with `CRC32_START`, feed, then `crc32Finish` (signed, as OKX sends it). */
export const CRC32_START = -1;

export function crc32Feed(crc: number, text: string): number {
  let c = crc;
  for (let i = 0; i < text.length; i++) c = TABLE[(c ^ text.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return c;
}

export function crc32Finish(crc: number): number {
  return (crc ^ -1) | 0;
}

/** The signed CRC-32 of an ASCII string (what `zlib.crc32(Buffer.from(text)) | 0` gives). */
export function crc32(text: string): number {
  return crc32Finish(crc32Feed(CRC32_START, text));
}
