import { describe, expect, it, vi } from 'vitest';
import { MSG } from '../../../shared/messages';
import { makeUsers, SCRYPT_TIMEOUT_MS } from '../../testing/users.fixtures';

/** Counts the password hashes of a registration (the real hasher still runs). */
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock('../password-hasher', async (importOriginal) => {
  const real = await importOriginal<typeof import('../password-hasher')>();
  return {
    ...real,
    hashPassword: (password: string) => {
      hashes.count += 1;
      return real.hashPassword(password);
    },
  };
});

const newcomer = (email: string) =>
  ({ name: 'New Comer', email, password: 'Long-Enough-1', userRole: 'TECHNICAL_LEADER' }) as const;

describe('registration checks before hashing', { timeout: SCRYPT_TIMEOUT_MS }, () => {
  it('refuses a foreign domain, a taken address and a source over its limit without hashing a password', async () => {
    const { service, account } = makeUsers({
      allowedEmailDomains: ['medical.example'],
      registerLimits: { perSource: 3, windowSeconds: 900 },
    });
    const taken = await account('TECHNICAL_LEADER');
    hashes.count = 0;
    await expect(service.register(newcomer('someone@gmail.com'), 'src')).rejects.toMatchObject({
      statusCode: 400,
    });
    await expect(service.register(newcomer(taken.email), 'src')).rejects.toMatchObject({
      statusCode: 409,
      message: MSG.registerConflict,
    });
    expect(hashes.count).toBe(0);
    await service.register(newcomer('first@medical.example'), 'src');
    expect(hashes.count).toBe(1);
    // the taken address above counted for the source (the foreign domain did not): this is the third
    await service.register(newcomer('third@medical.example'), 'src');
    expect(hashes.count).toBe(2);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        expect(service.register(newcomer(`burst${i}@medical.example`), 'src')).rejects.toMatchObject({
          statusCode: 429,
        }),
      ),
    );
    expect(hashes.count).toBe(2);
  });
});
