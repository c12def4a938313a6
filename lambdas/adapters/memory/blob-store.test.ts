import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryBlobStore } from './blob-store';

describe('MemoryBlobStore.putStream', () => {
  it('stores a body that lends its chunks (one buffer refilled after each) exactly', async () => {
    const bytes = randomBytes(100_000);
    const lent = Buffer.alloc(7_000);
    async function* lending(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += lent.length) {
        const piece = bytes.subarray(at, at + lent.length);
        // the XML builder's way: the same memory each time, written again once the next chunk is asked for
        lent.set(piece);
        yield lent.subarray(0, piece.length);
        lent.fill(0xee);
      }
    }
    const store = new MemoryBlobStore();
    expect(await store.putStream('b', 'k', lending())).toEqual({ sizeBytes: bytes.length });
    expect(store.objects.get('b/k')?.bytes.equals(bytes)).toBe(true);
  });
});
