import { createHmac } from 'node:crypto';

/**
 * ECDSA on NIST P-256 over a digest the caller computed. Node 20's crypto.sign always hashes its input
 * (a digest-signing API arrives only in later Node versions), and the Signer port takes a digest so that
 * the local key and KMS (MessageType DIGEST) behave alike; this fills the gap for the local key only.
 * The nonce is deterministic (RFC 6979), so no randomness can leak the key. BigInt arithmetic is not
 * constant-time: acceptable for the developer key on one's own machine, not for production keys, which
 * live in KMS. Tests check it against the RFC 6979 vectors, node:crypto and openssl.
 */

const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const A = P - 3n;
const G = {
  x: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  y: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
};

type Point = { x: bigint; y: bigint } | null;

const mod = (a: bigint, m: bigint) => {
  const r = a % m;
  return r < 0n ? r + m : r;
};

function inverse(a: bigint, m: bigint): bigint {
  let [r0, r1] = [mod(a, m), m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new Error('not invertible');
  return mod(s0, m);
}

function add(p: Point, q: Point): Point {
  if (!p) return q;
  if (!q) return p;
  if (p.x === q.x) {
    if (mod(p.y + q.y, P) === 0n) return null;
    const l = mod((3n * p.x * p.x + A) * inverse(2n * p.y, P), P);
    const x = mod(l * l - 2n * p.x, P);
    return { x, y: mod(l * (p.x - x) - p.y, P) };
  }
  const l = mod((q.y - p.y) * inverse(q.x - p.x, P), P);
  const x = mod(l * l - p.x - q.x, P);
  return { x, y: mod(l * (p.x - x) - p.y, P) };
}

function multiply(k: bigint, p: Point): Point {
  let result: Point = null;
  let addend = p;
  for (let e = k; e > 0n; e >>= 1n) {
    if (e & 1n) result = add(result, addend);
    addend = add(addend, addend);
  }
  return result;
}

const toBigInt = (b: Uint8Array) => (b.length ? BigInt(`0x${Buffer.from(b).toString('hex')}`) : 0n);
const to32 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

/** RFC 6979 §3.2 nonces for P-256 with HMAC-SHA-256 (qlen = hlen = 256, so bits2int is a plain read). */
function* nonces(d: bigint, digest: Uint8Array): Generator<bigint> {
  const x = to32(d);
  const h = to32(mod(toBigInt(digest), N));
  const hmac = (key: Buffer, ...parts: Uint8Array[]) => {
    const m = createHmac('sha256', key);
    for (const p of parts) m.update(p);
    return m.digest();
  };
  let v = Buffer.alloc(32, 1);
  let k = Buffer.alloc(32, 0);
  k = hmac(k, v, Buffer.of(0), x, h);
  v = hmac(k, v);
  k = hmac(k, v, Buffer.of(1), x, h);
  v = hmac(k, v);
  for (;;) {
    v = hmac(k, v);
    const t = toBigInt(v);
    if (t >= 1n && t < N) yield t;
    k = hmac(k, v, Buffer.of(0));
    v = hmac(k, v);
  }
}

function derInteger(n: bigint): Buffer {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  // a set high bit would read as negative: DER needs a leading zero byte
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.of(0), bytes]);
  return Buffer.concat([Buffer.of(0x02, bytes.length), bytes]);
}

/** DER SEQUENCE { INTEGER r, INTEGER s }, the form openssl and KMS use. */
export function derSignature(r: bigint, s: bigint): Uint8Array {
  const body = Buffer.concat([derInteger(r), derInteger(s)]);
  return Buffer.concat([Buffer.of(0x30, body.length), body]);
}

/** The (r, s) pair of an ECDSA P-256 signature of a 32-byte digest with private scalar `d`. */
export function signDigestRaw(d: bigint, digest: Uint8Array): { r: bigint; s: bigint } {
  if (digest.length !== 32) throw new Error(`expected a 32-byte SHA-256 digest, got ${digest.length} bytes`);
  if (d < 1n || d >= N) throw new Error('private key out of range');
  const e = toBigInt(digest);
  for (const k of nonces(d, digest)) {
    const point = multiply(k, G);
    if (!point) continue;
    const r = mod(point.x, N);
    if (r === 0n) continue;
    const s = mod(inverse(k, N) * (e + r * d), N);
    if (s === 0n) continue;
    return { r, s };
  }
  throw new Error('unreachable');
}

/** DER-encoded ECDSA P-256 signature of a 32-byte digest with private scalar `d`. */
export function signDigestP256(d: bigint, digest: Uint8Array): Uint8Array {
  const { r, s } = signDigestRaw(d, digest);
  return derSignature(r, s);
}
