import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHighS, toLowS } from '../../../shared/domain/ecdsa-low-s';
import { signDigestP256, signDigestRaw } from './ecdsa-p256';

const sha256 = (s: string | Uint8Array) => createHash('sha256').update(s).digest();
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

// RFC 6979 appendix A.2.5: P-256 with SHA-256
const RFC_KEY = Buffer.from('c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721', 'hex');
const secretOf = (privateKey: ReturnType<typeof generateKeyPairSync>['privateKey']) =>
  new Uint8Array(Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url'));

describe('ECDSA P-256 over a digest (@noble/curves)', () => {
  it('matches the RFC 6979 vector for "sample", in its low-S form', () => {
    // the RFC's s is 0xf7cb…cda8, above n/2: the low-S signature carries n − s
    expect(signDigestRaw(RFC_KEY, sha256('sample'))).toEqual({
      r: 0xefd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716n,
      s: N - 0xf7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8n,
    });
  });
  it('matches the RFC 6979 vector for "test" (already low-S)', () => {
    expect(signDigestRaw(RFC_KEY, sha256('test'))).toEqual({
      r: 0xf1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367n,
      s: 0x019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083n,
    });
  });
  it('is deterministic (RFC 6979): the same digest and key give the same bytes', () => {
    const d = sha256('manifest');
    expect(Buffer.from(signDigestP256(RFC_KEY, d))).toEqual(Buffer.from(signDigestP256(RFC_KEY, d)));
  });
  it('produces low-S DER signatures node:crypto verifies, for any message and key', () => {
    const keys = Array.from({ length: 4 }, () => generateKeyPairSync('ec', { namedCurve: 'P-256' }));
    fc.assert(
      fc.property(
        fc.constantFrom(...keys),
        fc.uint8Array({ maxLength: 200 }),
        ({ privateKey, publicKey }, message) => {
          const sig = signDigestP256(secretOf(privateKey), sha256(message));
          expect(isHighS(sig)).toBe(false);
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
  it('signs what openssl dgst -sha256 -verify accepts', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const dir = mkdtempSync(join(tmpdir(), 'ecdsa-'));
    const data = Buffer.from('{"format":"firmware-release-portal/package-manifest/1"}');
    writeFileSync(join(dir, 'data.bin'), data);
    writeFileSync(join(dir, 'sig.der'), signDigestP256(secretOf(privateKey), sha256(data)));
    writeFileSync(join(dir, 'key.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const out = execFileSync(
      'openssl',
      [
        'dgst',
        '-sha256',
        '-verify',
        join(dir, 'key.pem'),
        '-signature',
        join(dir, 'sig.der'),
        join(dir, 'data.bin'),
      ],
      { encoding: 'utf8' },
    );
    expect(out.trim()).toBe('Verified OK');
  });
  it('turns a high-S signature (as KMS may return) into its low-S twin, which still verifies', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const data = Buffer.from('kms');
    // node:crypto signs with random nonces and does not normalise: find a high-S one
    let high: Buffer | undefined;
    for (let i = 0; i < 64 && !high; i++) {
      const s = sign('sha256', data, { key: privateKey, dsaEncoding: 'der' });
      if (isHighS(s)) high = s;
    }
    expect(high, 'a high-S signature among 64 random ones').toBeDefined();
    const low = toLowS(high!);
    expect(isHighS(low)).toBe(false);
    expect(Buffer.from(low)).not.toEqual(high);
    expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'der' }, low)).toBe(true);
    expect(Buffer.from(toLowS(low))).toEqual(Buffer.from(low));
  });
  it('refuses anything but a 32-byte digest', () => {
    expect(() => signDigestP256(RFC_KEY, new Uint8Array(31))).toThrow(/32-byte SHA-256 digest/);
  });
});
