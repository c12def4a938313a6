import { describe, expect, it } from 'vitest';
import type { UserRecord, UserRepository } from '../ports/user-repository';
import { TokenService } from './token-service';
import { UserService } from './user-service';

/** In-memory users: enough of the repository for the registration rules under test. */
function memoryUsers(): UserRepository {
  const byId = new Map<string, UserRecord>();
  const claimed = new Set<string>();
  return {
    async create(u) {
      if (claimed.has(u.email)) return false;
      claimed.add(u.email);
      byId.set(u.id, u);
      return true;
    },
    getById: async (id) => byId.get(id) ?? null,
    getByEmail: async (email) => [...byId.values()].find((u) => u.email === email) ?? null,
    list: async () => [...byId.values()],
    listByRole: async (role) => [...byId.values()].filter((u) => u.userRole === role),
    async update(next, expectedVersion) {
      const cur = byId.get(next.id);
      if (!cur || cur.version !== expectedVersion) return 'conflict';
      byId.set(next.id, next);
      return 'ok';
    },
    delete: async (ids) => ids,
    getThrottle: async () => ({ failures: 0, lastFailureAt: null }),
    recordFailure: async () => ({ failures: 1, firstInWindow: true }),
    forgiveFailures: async () => undefined,
    clearThrottle: async () => undefined,
    takeQuota: async () => ({ ok: true }),
    returnQuota: async () => undefined,
  };
}

function service(allowedEmailDomains: string[]) {
  return new UserService(
    memoryUsers(),
    new TokenService('x'.repeat(40), 3600),
    { send: async () => undefined },
    { append: async () => undefined, history: async () => ({ events: [], head: null }) },
    { now: () => new Date('2026-11-21T12:00:00Z') },
    { tempPasswordMinutes: 30, maxFailuresPerSource: 100, appUrl: 'http://localhost', allowedEmailDomains },
  );
}

const newcomer = (email: string) =>
  ({ name: 'New Comer', email, password: 'Long-Enough-1', userRole: 'TECHNICAL_LEADER' }) as const;

describe('registration email domains', () => {
  it('refuses an email outside the allowed company domains', async () => {
    await expect(service(['medical.example']).register(newcomer('someone@gmail.com'))).rejects.toThrow(
      'Use your company email address (@medical.example)',
    );
  });
  it('accepts an email of an allowed domain', async () => {
    const u = await service(['medical.example']).register(newcomer('someone@medical.example'));
    expect(u.email).toBe('someone@medical.example');
  });
  it('accepts any domain when no list is configured', async () => {
    const u = await service([]).register(newcomer('someone@anywhere.example'));
    expect(u.userRole).toBe('TECHNICAL_LEADER');
  });
});
