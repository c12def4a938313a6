import { crc32 as zlibCrc32 } from 'node:zlib';

/**
 * zlib CRC-32 of `bytes` (IEEE 802.3, reflected polynomial 0xEDB88320, initial value and final XOR
 * 0xFFFFFFFF), as an unsigned 32-bit number: Node's own zlib.crc32 on the server and in scripts. The
 * browser build replaces this module with web/src/lib/crc32/crc32.ts (vite.config.ts), tested against zlib.
 */
export function crc32(bytes: Uint8Array): number {
  return zlibCrc32(bytes);
}
