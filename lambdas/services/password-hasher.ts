import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt at the OWASP Password Storage Cheat Sheet parameters (N=2^17, r=8, p=1: 128 MiB per hash),
 * per-user 16-byte salt. Stored as `scrypt$N$r$p$salt$hash` so parameters can be raised later and old
 * hashes still verify.
 */
const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LEN = 32;
const MAX_MEM = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LEN, { N: n, r, p, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/**
 * New hashes (registration, password change, reset, admin create) run at most this many at once per
 * process: a burst of registrations that passed their per-source limits queues here instead of
 * taking every core and 128 MiB each. Checks of a password (sign-in, signatures) never wait for them.
 * In AWS a Lambda instance serves one request at a time, so this only matters for the local server.
 */
const MAX_CONCURRENT_NEW_HASHES = 2;
let hashing = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(run: () => Promise<T>): Promise<T> {
  if (hashing >= MAX_CONCURRENT_NEW_HASHES) await new Promise<void>((go) => waiting.push(go));
  else hashing += 1;
  try {
    return await run();
  } finally {
    // the slot passes straight to the next waiter, or is freed
    const next = waiting.shift();
    if (next) next();
    else hashing -= 1;
  }
}

export function hashPassword(password: string): Promise<string> {
  return withHashSlot(async () => {
    const salt = randomBytes(16);
    const key = await derive(password, salt, N, R, P);
    return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
  });
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password, compared against when the email is unknown so timing reveals nothing. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  if (!dummy) {
    const attempt = hashPassword(randomBytes(16).toString('hex'));
    dummy = attempt;
    // a failed hash is not kept for the container's life: the next call makes a new one
    attempt.catch(() => {
      if (dummy === attempt) dummy = undefined;
    });
  }
  return dummy;
}
