/**
 * CRC-32 as zlib computes it (IEEE 802.3, reflected polynomial 0xEDB88320, initial value and final
 * XOR 0xFFFFFFFF), for the browser only: the server and scripts use node:zlib's crc32
 * (shared/domain/header/crc32.ts), and vite.config.ts puts this module in its place in the browser build
 * (mock mode computes header CRCs in the page). Headers are under 1 KB; a table-driven loop is enough.
 */
const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** zlib CRC-32 of `bytes`, as an unsigned 32-bit number. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
