import { describe, expect, it } from 'vitest';
import type { Ceremony, PasskeyRecord, PasskeyRepository } from '../../lambdas/ports/passkey-repository';
import type { UserRepository } from '../../lambdas/ports/user-repository';
import { fresh } from './fresh-ids';
import { user } from './user-records';

/** The passkeys and the users they belong to (one table in DynamoDB: an account's record lists its passkeys). */
export interface PasskeyRepositorySubject {
  passkeys: PasskeyRepository;
  users: UserRepository;
}

const passkey = (userId: string): PasskeyRecord => ({
  id: fresh('cred'),
  userId,
  name: 'YubiKey',
  publicKey: 'pQECAyYgASFYIA',
  counter: 0,
  transports: ['usb'],
  createdAt: '2026-01-01T00:00:00.000Z',
});

const ceremony = (userId: string): Ceremony => ({
  idHash: fresh('ceremony'),
  purpose: 'signIn',
  userId,
  challenge: 'Y2hhbGxlbmdl',
  validUntil: '2099-01-01T00:00:00.000Z',
  tokenVersion: 3,
});

const proposal = {
  proposedById: 'admin',
  proposedByName: 'Ada',
  proposedByEmail: 'ada@example.com',
  proposedAt: '2026-01-02T00:00:00.000Z',
  reason: 'lost',
};

/**
 * What PasskeyRepository promises (lambdas/ports/passkey-repository.ts), run against each adapter: a
 * ceremony answers once, a credential is registered once (to anyone), the user record changes with the
 * passkey or nothing changes, a use moves the counter only from the value read. `make` may hand out the
 * same store for every case: each case uses users and credentials of its own.
 */
export function passkeyRepositoryContract(adapter: string, make: () => Promise<PasskeyRepositorySubject>) {
  describe(`PasskeyRepository contract: ${adapter}`, () => {
    it('answers a ceremony once', async () => {
      const { passkeys } = await make();
      const c = ceremony(fresh('u'));
      await passkeys.putCeremony(c);
      await expect(passkeys.putCeremony(c)).rejects.toThrow();
      expect(await passkeys.takeCeremony(c.idHash)).toEqual(c);
      expect(await passkeys.takeCeremony(c.idHash)).toBeNull();
      expect(await passkeys.takeCeremony(fresh('never'))).toBeNull();
    });

    it('adds a credential once, with the user record listing it, or nothing', async () => {
      const { passkeys, users } = await make();
      const u = user();
      await users.create(u);
      const p = passkey(u.id);
      const listing = { ...u, passkeyIds: [p.id], version: 2 };
      expect(await passkeys.add(p, listing, 5)).toBe('conflict');
      expect(await passkeys.get(p.id)).toBeNull();
      expect(await passkeys.add(p, listing, 1)).toBe('ok');
      expect(await passkeys.get(p.id)).toEqual(p);
      expect((await users.getById(u.id))?.passkeyIds).toEqual([p.id]);
      // the same credential for another account: taken, and that account is unchanged
      const other = user();
      await users.create(other);
      expect(
        await passkeys.add({ ...p, userId: other.id }, { ...other, passkeyIds: [p.id], version: 2 }, 1),
      ).toBe('taken');
      expect(await users.getById(other.id)).toEqual(other);
      expect((await passkeys.get(p.id))?.userId).toBe(u.id);
      const second = passkey(u.id);
      await passkeys.add(second, { ...listing, passkeyIds: [p.id, second.id], version: 3 }, 2);
      const missing = fresh('cred');
      expect((await passkeys.getAll([second.id, missing, p.id])).map((x) => x.id).sort()).toEqual(
        [p.id, second.id].sort(),
      );
      expect(await passkeys.getAll([])).toEqual([]);
    });

    it("removes a passkey only while it is the user's and the record unchanged", async () => {
      const { passkeys, users } = await make();
      const u = user();
      await users.create(u);
      const p = passkey(u.id);
      await passkeys.add(p, { ...u, passkeyIds: [p.id], version: 2 }, 1);
      const without = { ...u, passkeyIds: [], tokenVersion: 1, version: 3 };
      expect(await passkeys.remove({ id: p.id, userId: fresh('u') }, without, 2)).toBe(false);
      expect(await passkeys.remove(p, without, 1)).toBe(false);
      expect(await passkeys.get(p.id)).toEqual(p);
      expect((await users.getById(u.id))?.version).toBe(2);
      expect(await passkeys.remove(p, without, 2)).toBe(true);
      expect(await passkeys.get(p.id)).toBeNull();
      expect(await users.getById(u.id)).toMatchObject({ passkeyIds: [], tokenVersion: 1, version: 3 });
      expect(await passkeys.remove(p, { ...without, version: 4 }, 3)).toBe(false);
    });

    it('moves the counter only from the value read', async () => {
      const { passkeys, users } = await make();
      const u = user();
      await users.create(u);
      const p = passkey(u.id);
      await passkeys.add(p, { ...u, passkeyIds: [p.id], version: 2 }, 1);
      expect(await passkeys.recordUse(p.id, 0, 7, '2026-01-03T00:00:00.000Z')).toBe(true);
      expect(await passkeys.recordUse(p.id, 0, 8, '2026-01-04T00:00:00.000Z')).toBe(false);
      expect(await passkeys.get(p.id)).toEqual({ ...p, counter: 7, lastUsedAt: '2026-01-03T00:00:00.000Z' });
      expect(await passkeys.recordUse(fresh('cred'), 0, 1, '2026-01-04T00:00:00.000Z')).toBe(false);
    });

    it("renames and proposes removal of the user's own passkey; a proposal withdrawn is gone", async () => {
      const { passkeys, users } = await make();
      const u = user();
      await users.create(u);
      const p = passkey(u.id);
      await passkeys.add(p, { ...u, passkeyIds: [p.id], version: 2 }, 1);
      expect(await passkeys.update(p.id, fresh('u'), { name: 'stolen' })).toBe(false);
      expect(await passkeys.update(fresh('cred'), u.id, { name: 'ghost' })).toBe(false);
      expect(await passkeys.update(p.id, u.id, { name: 'Desk key' })).toBe(true);
      expect(await passkeys.update(p.id, u.id, { removalProposal: proposal })).toBe(true);
      expect(await passkeys.get(p.id)).toEqual({ ...p, name: 'Desk key', removalProposal: proposal });
      // a rename keeps the proposal; null withdraws it
      expect(await passkeys.update(p.id, u.id, { name: 'Old key' })).toBe(true);
      expect((await passkeys.get(p.id))?.removalProposal).toEqual(proposal);
      expect(await passkeys.update(p.id, u.id, { removalProposal: null })).toBe(true);
      expect(await passkeys.get(p.id)).toEqual({ ...p, name: 'Old key' });
    });
  });
}
