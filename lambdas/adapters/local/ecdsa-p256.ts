import { p256 } from '@noble/curves/nist.js';

/**
 * ECDSA on NIST P-256 over a digest the caller computed, by @noble/curves (audited, constant-time
 * scalar arithmetic). The Signer port takes a digest so that the local key and KMS (MessageType DIGEST)
 * behave alike; `prehash: false` signs those 32 bytes as they are. The nonce is deterministic (RFC 6979),
 * so no randomness can leak the key, and signatures are low-S (s ≤ n/2), as docs/package-format.md
 * requires and verifiers enforce. Tests check it against the RFC 6979 vectors, node:crypto and openssl.
 */

function checkDigest(digest: Uint8Array): void {
  if (digest.length !== 32) throw new Error(`expected a 32-byte SHA-256 digest, got ${digest.length} bytes`);
}

/** r and s of the low-S signature of `digest` by the 32-byte secret key `secretKey`. */
export function signDigestRaw(secretKey: Uint8Array, digest: Uint8Array): { r: bigint; s: bigint } {
  checkDigest(digest);
  const sig = p256.Signature.fromBytes(
    p256.sign(digest, secretKey, { prehash: false, lowS: true, format: 'compact' }),
    'compact',
  );
  return { r: sig.r, s: sig.s };
}

/** DER-encoded (SEQUENCE { INTEGER r, INTEGER s }) low-S signature of `digest`. */
export function signDigestP256(secretKey: Uint8Array, digest: Uint8Array): Uint8Array {
  checkDigest(digest);
  return p256.sign(digest, secretKey, { prehash: false, lowS: true, format: 'der' });
}
