import { describe, expect, it } from 'vitest';
import type { AccessTokenRecord, AccessTokenRepository } from '../../lambdas/ports/access-token-repository';
import { fresh } from './fresh-ids';

const token = (userId: string, more: Partial<AccessTokenRecord> = {}): AccessTokenRecord => ({
  id: fresh('tok'),
  userId,
  userRole: 'DESIGN_ENGINEER_DEV',
  ownerEpoch: 0,
  name: 'CI upload',
  scopes: ['resources:upload'],
  secretHash: 'c'.repeat(64),
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-04-01T00:00:00.000Z',
  ...more,
});

/**
 * What AccessTokenRepository promises (lambdas/ports/access-token-repository.ts), run against each
 * adapter: an id is created once, a token is revoked once (the second revocation writes nothing), a use
 * is recorded and never fails the call, lists hold exactly the owner's tokens. `make` may hand out the
 * same store for every case: each case uses ids and owners of its own.
 */
export function accessTokenRepositoryContract(adapter: string, make: () => Promise<AccessTokenRepository>) {
  describe(`AccessTokenRepository contract: ${adapter}`, () => {
    it('creates a token once and reads it back as made; an unknown id is null', async () => {
      const repo = await make();
      const t = token(fresh('u'));
      await repo.create(t);
      expect(await repo.get(t.id)).toEqual(t);
      expect(await repo.get(fresh('missing'))).toBeNull();
      await expect(repo.create({ ...t, name: 'other' })).rejects.toThrow();
      expect(await repo.get(t.id)).toEqual(t);
    });

    it("lists a user's tokens, and every token", async () => {
      const repo = await make();
      const [me, other] = [fresh('u'), fresh('u')];
      const mine = [token(me), token(me, { createdAt: '2026-01-02T00:00:00.000Z' })];
      const theirs = token(other);
      for (const t of [...mine, theirs]) await repo.create(t);
      const byId = (ts: AccessTokenRecord[]) => [...ts].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(await repo.listByUser(me))).toEqual(byId(mine));
      expect(await repo.listByUser(fresh('nobody'))).toEqual([]);
      const all = (await repo.listAll()).map((t) => t.id);
      expect(all).toEqual(expect.arrayContaining([...mine, theirs].map((t) => t.id)));
    });

    it('revokes once; the second revocation changes nothing', async () => {
      const repo = await make();
      const t = token(fresh('u'));
      await repo.create(t);
      expect(await repo.revoke(t.id, '2026-01-05T00:00:00.000Z', 'admin-1')).toBe(true);
      expect(await repo.get(t.id)).toEqual({
        ...t,
        revokedAt: '2026-01-05T00:00:00.000Z',
        revokedBy: 'admin-1',
      });
      expect(await repo.revoke(t.id, '2026-01-06T00:00:00.000Z', 'admin-2')).toBe(false);
      expect((await repo.get(t.id))?.revokedBy).toBe('admin-1');
      expect(await repo.revoke(fresh('missing'), '2026-01-06T00:00:00.000Z', 'admin-2')).toBe(false);
      expect(await repo.get(fresh('missing'))).toBeNull();
    });

    it('records the last use, and a use of a missing token neither fails nor creates it', async () => {
      const repo = await make();
      const t = token(fresh('u'));
      await repo.create(t);
      await repo.touch(t.id, '2026-01-07T00:00:00.000Z');
      await repo.touch(t.id, '2026-01-08T00:00:00.000Z');
      expect(await repo.get(t.id)).toEqual({ ...t, lastUsedAt: '2026-01-08T00:00:00.000Z' });
      const ghost = fresh('missing');
      await repo.touch(ghost, '2026-01-08T00:00:00.000Z');
      expect(await repo.get(ghost)).toBeNull();
    });
  });
}
