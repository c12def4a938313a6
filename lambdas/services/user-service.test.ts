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
    record: async () => undefined,
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
    delete: async (u) => byId.delete(u.id),
    discard: async (u) => {
      claimed.delete(u.email);
      return byId.delete(u.id);
    },
    async confirmRegistration(next, expectedVersion) {
      const cur = byId.get(next.id);
      if (!cur || cur.version !== expectedVersion) return 'conflict';
      byId.set(next.id, { ...next, unconfirmedUntil: undefined });
      return 'ok';
    },
    updateAll: async (changes) => {
      for (const c of changes) byId.set(c.next.id, c.next);
      return true;
    },
    putEmailToken: async () => undefined,
    getEmailToken: async () => null,
    markEmailTokenUsed: async () => true,
    getThrottle: async () => ({ failures: 0, lastFailureAt: null }),
    recordFailure: async () => ({ failures: 1, firstInWindow: true }),
    forgiveFailures: async () => undefined,
    clearThrottle: async () => undefined,
    takeQuota: async () => ({ ok: true }),
    returnQuota: async () => undefined,
  };
}

function service(allowedEmailDomains: string[], users = memoryUsers()) {
  return new UserService(
    users,
    new TokenService('x'.repeat(40), 3600),
    { send: async () => undefined },
    { now: () => new Date('2026-11-21T12:00:00Z') },
    { tempPasswordMinutes: 30, maxFailuresPerSource: 100, appUrl: 'http://localhost', allowedEmailDomains },
    // no package waits for anyone here
    { packagesWaitingFor: async () => [] },
  );
}

const newcomer = (email: string) =>
  ({ name: 'New Comer', email, password: 'Long-Enough-1', userRole: 'TECHNICAL_LEADER' }) as const;

describe('registration email domains', () => {
  it('refuses an email outside the allowed company domains', async () => {
    await expect(service(['medical.example']).register(newcomer('someone@gmail.com'), 'src')).rejects.toThrow(
      'Use your company email address: only addresses at @medical.example can be registered',
    );
  });
  it('accepts an email of an allowed domain', async () => {
    const u = await service(['medical.example']).register(newcomer('someone@medical.example'), 'src');
    expect(u.email).toBe('someone@medical.example');
  });
  it('accepts any domain when no list is configured', async () => {
    const u = await service([]).register(newcomer('someone@anywhere.example'), 'src');
    expect(u.userRole).toBe('TECHNICAL_LEADER');
  });
});

const admin = (id: string): UserRecord => ({
  id,
  name: `Admin ${id}`,
  email: `${id}@medical.example`,
  userRole: 'ADMIN',
  passwordHash: 'x',
  tokenVersion: 1,
  emailConfirmed: true,
  roleStatus: 'GRANTED',
  createdAt: '2026-11-21T12:00:00Z',
  updatedAt: '2026-11-21T12:00:00Z',
  version: 1,
});

describe('administrators', () => {
  it('refuses to delete the last administrator, even when a second admin confirms', async () => {
    // the caller's own record is gone (deleted meanwhile by the other admin), so b would be the last one;
    // c proposed b's deletion an hour ago (decision 336), and a's confirmation would delete b
    const users = memoryUsers();
    const proposedAt = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const deletionProposal = {
      proposedById: 'c',
      proposedByName: 'C',
      proposedByEmail: 'c@medical.example',
      proposedAt,
      reason: 'left the company',
    };
    await users.create({ ...admin('b'), deletionProposal });
    await expect(
      service([], users).deleteUsers(admin('a'), { ids: ['b'], password: 'pw', reason: 'left' }),
    ).rejects.toThrow('The last administrator cannot be deleted');
    expect(await users.getById('b')).not.toBeNull();
  });
  it('refuses the plain list naming an administrator: that deletion takes two signing admins', async () => {
    const users = memoryUsers();
    await users.create(admin('b'));
    await users.create(admin('c'));
    await expect(service([], users).deleteUsers(admin('a'), ['b'])).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/takes two administrators/),
    });
    expect(await users.getById('b')).not.toBeNull();
  });
  it('refuses an administrator changing their own role', async () => {
    const users = memoryUsers();
    await users.create(admin('a'));
    await expect(
      service([], users).updateAccount(admin('a'), {
        name: 'A',
        email: 'a@medical.example',
        userRole: 'TECHNICAL_LEADER',
      }),
    ).rejects.toThrow('An administrator cannot change their own role');
  });
});
