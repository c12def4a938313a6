import { p256 } from '@noble/curves/nist.js';

/**
 * ECDSA P-256 signatures in their low-S form (s ≤ n/2), the one form this package format accepts
 * (docs/package-format.md §6): for ECDSA, (r, s) and (r, n − s) are both valid, so without a rule anyone
 * could turn one valid signature into a second, different, valid file. Signers normalise, verifiers refuse.
 */

const N = p256.Point.CURVE().n;

/** r and s of a DER signature; throws if it is not a DER-encoded pair of integers in 1..n−1. */
export function signatureParts(der: Uint8Array): { r: bigint; s: bigint } {
  const sig = p256.Signature.fromBytes(der, 'der');
  if (sig.r <= 0n || sig.r >= N || sig.s <= 0n || sig.s >= N) throw new Error('r or s is out of range');
  return { r: sig.r, s: sig.s };
}

/** Whether a DER signature has s > n/2 (the "high-S" twin of a valid signature). */
export function isHighS(der: Uint8Array): boolean {
  return signatureParts(der).s > N >> 1n;
}

/** The low-S form of a DER signature (s replaced by n − s when s > n/2). KMS does not promise low-S. */
export function toLowS(der: Uint8Array): Uint8Array {
  const { r, s } = signatureParts(der);
  return s > N >> 1n ? new p256.Signature(r, N - s).toBytes('der') : der;
}
