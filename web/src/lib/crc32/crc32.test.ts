import { crc32 as zlibCrc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32';

describe('the browser crc32', () => {
  it('gives the standard check value 0xCBF43926 for "123456789"', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
  it('gives 0 for no bytes', () => {
    expect(crc32(new Uint8Array())).toBe(0);
  });
  it('agrees with node:zlib crc32 on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        expect(crc32(bytes)).toBe(zlibCrc32(bytes));
      }),
    );
  });
});
