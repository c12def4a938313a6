import type { UserRecord } from '../../lambdas/ports/user-repository';
import { fresh } from './fresh-ids';

/** An account of its own for a contract case (users, passkeys, company identities). */
export function user(more: Partial<UserRecord> = {}): UserRecord {
  const id = fresh('u');
  return {
    id,
    name: 'Dana Example',
    email: `${id}@Example.com`,
    userRole: 'RELIABILITY_ENGINEER',
    passwordHash: 'scrypt$1024$8$1$c2FsdA$aGFzaA',
    tokenVersion: 0,
    emailConfirmed: true,
    roleStatus: 'GRANTED',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    version: 1,
    ...more,
  };
}
