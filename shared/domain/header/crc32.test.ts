import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32';

describe('crc32 (node:zlib)', () => {
  it('gives the standard check value 0xCBF43926 for "123456789"', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
  it('gives 0 for no bytes', () => {
    expect(crc32(new Uint8Array())).toBe(0);
  });
  it('reads a view at its offset, not its whole buffer', () => {
    const all = new TextEncoder().encode('xx123456789');
    expect(crc32(all.subarray(2))).toBe(0xcbf43926);
  });
});
