import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signDigestP256, signDigestRaw } from './ecdsa-p256';

const sha256 = (s: string | Uint8Array) => createHash('sha256').update(s).digest();

// RFC 6979 appendix A.2.5: P-256 with SHA-256
const RFC_KEY = 0xc9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721n;

describe('ECDSA P-256 over a digest', () => {
  it('matches the RFC 6979 vector for "sample"', () => {
    expect(signDigestRaw(RFC_KEY, sha256('sample'))).toEqual({
      r: 0xefd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716n,
      s: 0xf7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8n,
    });
  });
  it('matches the RFC 6979 vector for "test"', () => {
    expect(signDigestRaw(RFC_KEY, sha256('test'))).toEqual({
      r: 0xf1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367n,
      s: 0x019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083n,
    });
  });
  it('produces DER signatures node:crypto verifies, for any message and key', () => {
    const keys = Array.from({ length: 4 }, () => generateKeyPairSync('ec', { namedCurve: 'P-256' }));
    fc.assert(
      fc.property(
        fc.constantFrom(...keys),
        fc.uint8Array({ maxLength: 200 }),
        ({ privateKey, publicKey }, message) => {
          const d = BigInt(
            `0x${Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url').toString('hex')}`,
          );
          const sig = signDigestP256(d, sha256(message));
          expect(verify('sha256', message, { key: publicKey, dsaEncoding: 'der' }, sig)).toBe(true);
          expect(
            verify(
              'sha256',
              Buffer.concat([message, Buffer.of(1)]),
              { key: publicKey, dsaEncoding: 'der' },
              sig,
            ),
          ).toBe(false);
        },
      ),
      { numRuns: 30 },
    );
    expect(createPublicKey(keys[0]!.privateKey).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });
  it('refuses anything but a 32-byte digest', () => {
    expect(() => signDigestP256(RFC_KEY, new Uint8Array(31))).toThrow(/32-byte SHA-256 digest/);
  });
});
