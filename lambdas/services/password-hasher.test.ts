import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password-hasher';

// scrypt at production cost: slow on a busy machine, so no 5 s default (no speed is asserted)
describe('password hasher', { timeout: 60_000 }, () => {
  it('verifies the password it hashed and refuses another', async () => {
    const h = await hashPassword('Correct-Horse-1');
    expect(h.startsWith('scrypt$131072$8$1$')).toBe(true);
    expect(await verifyPassword('Correct-Horse-1', h)).toBe(true);
    expect(await verifyPassword('Correct-Horse-2', h)).toBe(false);
  });
  it('salts each hash differently', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });
  it('finishes every one of many concurrent hashes (they queue for a few slots) and each verifies', async () => {
    const passwords = Array.from({ length: 5 }, (_, i) => `Queued-Password-${i}`);
    const hashes = await Promise.all(passwords.map((p) => hashPassword(p)));
    expect(new Set(hashes).size).toBe(5);
    for (const [i, h] of hashes.entries()) expect(await verifyPassword(passwords[i]!, h)).toBe(true);
  }, 60_000);
  it('refuses a malformed stored hash', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
  });
});
