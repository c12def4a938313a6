import { describe, expect, it } from 'vitest';
import type { EmailToken, UserRecord, UserRepository } from '../../lambdas/ports/user-repository';
import { fresh } from './fresh-ids';
import { user } from './user-records';

function link(userId: string, email: string): EmailToken {
  return {
    tokenHash: fresh('hash'),
    userId,
    email,
    purpose: 'REGISTER',
    createdAt: '2026-01-01T00:00:00.000Z',
    validUntil: '2099-01-01T00:00:00.000Z',
  };
}

/**
 * What UserRepository promises its services (lambdas/ports/user-repository.ts), run against each adapter:
 * an address (case ignored) is claimed once and for ever after a deletion, writes are conditional on the
 * version and refused whole, a mailed link is used once, throttle counters and quotas count exactly.
 * `make` may hand out the same store for every case: each case uses ids, addresses and keys of its own.
 */
export function userRepositoryContract(adapter: string, make: () => Promise<UserRepository>) {
  describe(`UserRepository contract: ${adapter}`, () => {
    it('creates a user, finds it by id and by address (case ignored), and claims the address once', async () => {
      const repo = await make();
      const u = user();
      expect(await repo.create(u)).toBe(true);
      expect(await repo.getById(u.id)).toEqual(u);
      expect(await repo.getByEmail(u.email.toUpperCase())).toEqual(u);
      expect(await repo.getById(fresh('missing'))).toBeNull();
      expect(await repo.getByEmail(`${fresh('missing')}@example.com`)).toBeNull();
      const twin = user({ email: u.email.toLowerCase() });
      expect(await repo.create(twin)).toBe(false);
      expect(await repo.getById(twin.id)).toBeNull();
    });

    it('lists users, and by role', async () => {
      const repo = await make();
      const a = user({ userRole: 'TECHNICAL_LEADER' });
      const b = user({ userRole: 'DESIGN_ENGINEER_DEV' });
      await repo.create(a);
      await repo.create(b);
      const all = (await repo.list()).map((u) => u.id);
      expect(all).toEqual(expect.arrayContaining([a.id, b.id]));
      const leaders = await repo.listByRole('TECHNICAL_LEADER');
      expect(leaders.map((u) => u.id)).toContain(a.id);
      expect(leaders.map((u) => u.id)).not.toContain(b.id);
      expect(leaders.find((u) => u.id === a.id)).toEqual(a);
    });

    it('updates only over the expected version, moving the address claim; a taken address is told first', async () => {
      const repo = await make();
      const u = user();
      const other = user();
      await repo.create(u);
      await repo.create(other);
      const renamed = { ...u, name: 'Dana Renamed', version: 2 };
      expect(await repo.update(renamed, 7, u.email)).toBe('conflict');
      expect(await repo.getById(u.id)).toEqual(u);
      expect(await repo.update(renamed, 1, u.email)).toBe('ok');
      expect(await repo.update({ ...renamed, version: 3 }, 1, u.email)).toBe('conflict');
      // an address another account holds: emailTaken, even with a stale version
      expect(
        await repo.update({ ...renamed, email: other.email.toUpperCase(), version: 3 }, 1, u.email),
      ).toBe('emailTaken');
      const moved = { ...renamed, email: `${fresh('new')}@example.com`, version: 3 };
      expect(await repo.update(moved, 2, u.email)).toBe('ok');
      expect(await repo.getByEmail(moved.email)).toEqual(moved);
      // the old address is free again: only a deleted account keeps its address
      expect(await repo.getByEmail(u.email)).toBeNull();
      expect(await repo.create(user({ email: u.email }))).toBe(true);
      // a member set to undefined is not stored
      const dropped = { ...moved, pendingEmail: undefined, version: 4 };
      expect(await repo.update(dropped, 3, moved.email)).toBe('ok');
      expect(Object.keys((await repo.getById(u.id)) ?? {})).not.toContain('pendingEmail');
    });

    it('deletes a user once; its address stays claimed for ever', async () => {
      const repo = await make();
      const u = user();
      await repo.create(u);
      expect(await repo.delete(u, '2026-01-05T00:00:00.000Z')).toBe(true);
      expect(await repo.getById(u.id)).toBeNull();
      expect(await repo.getByEmail(u.email)).toBeNull();
      expect(await repo.delete(u, '2026-01-05T00:00:00.000Z')).toBe(false);
      expect(await repo.create(user({ email: u.email.toUpperCase() }))).toBe(false);
    });

    it('confirms a registration over its version, and discards an unconfirmed one, freeing its address', async () => {
      const repo = await make();
      const pending = user({ emailConfirmed: false, unconfirmedUntil: '2099-01-01T00:00:00.000Z' });
      await repo.create(pending);
      const confirmed = { ...pending, emailConfirmed: true, version: 2 };
      expect(await repo.confirmRegistration(confirmed, 5)).toBe('conflict');
      expect(await repo.confirmRegistration(confirmed, 1)).toBe('ok');
      const stored = await repo.getById(pending.id);
      expect(stored?.emailConfirmed).toBe(true);
      expect(stored).not.toHaveProperty('unconfirmedUntil');

      const other = user({ emailConfirmed: false, unconfirmedUntil: '2099-01-01T00:00:00.000Z' });
      await repo.create(other);
      expect(await repo.discard({ ...other, version: 4 })).toBe(false);
      expect(await repo.getById(other.id)).not.toBeNull();
      expect(await repo.discard(other)).toBe(true);
      expect(await repo.getById(other.id)).toBeNull();
      expect(await repo.discard(other)).toBe(false);
      expect(await repo.create(user({ email: other.email }))).toBe(true);
    });

    it('replaces an expired registration of the same address only while it is unchanged', async () => {
      const repo = await make();
      const expired = user({ emailConfirmed: false, unconfirmedUntil: '2026-01-02T00:00:00.000Z' });
      await repo.create(expired);
      const again = user({ email: expired.email });
      expect(await repo.create(again, { ...expired, version: 9 })).toBe(false);
      expect(await repo.create(again, expired)).toBe(true);
      expect(await repo.getById(expired.id)).toBeNull();
      expect(await repo.getByEmail(expired.email)).toEqual(again);
      // a confirmed account is never replaced
      expect(await repo.create(user({ email: expired.email }), again)).toBe(false);
    });

    it('updates several users in one write, or none', async () => {
      const repo = await make();
      const a = user();
      const b = user();
      await repo.create(a);
      await repo.create(b);
      const next = (u: UserRecord) => ({ next: { ...u, tokenVersion: 1, version: 2 }, expectedVersion: 1 });
      expect(await repo.updateAll([next(a), { ...next(b), expectedVersion: 3 }])).toBe(false);
      expect(await repo.getById(a.id)).toEqual(a);
      expect(await repo.updateAll([next(a), next(b)])).toBe(true);
      expect((await repo.getById(b.id))?.tokenVersion).toBe(1);
    });

    it('uses a mailed link once, alone or with the write it confirms', async () => {
      const repo = await make();
      const u = user();
      await repo.create(u);
      const t = link(u.id, u.email);
      await repo.putEmailToken(t);
      expect(await repo.getEmailToken(t.tokenHash)).toEqual(t);
      expect(await repo.getEmailToken(fresh('hash'))).toBeNull();
      // a link's hash is never stored twice
      await expect(repo.putEmailToken(t)).rejects.toThrow();
      const at = '2026-01-06T00:00:00.000Z';
      expect(
        await repo.update({ ...u, version: 2 }, 1, u.email, { usedLink: { tokenHash: t.tokenHash, at } }),
      ).toBe('ok');
      expect((await repo.getEmailToken(t.tokenHash))?.usedAt).toBe(at);
      // used: the write that carries it again is refused whole
      expect(
        await repo.update({ ...u, version: 3 }, 2, u.email, { usedLink: { tokenHash: t.tokenHash, at } }),
      ).toBe('conflict');
      expect((await repo.getById(u.id))?.version).toBe(2);
      expect(await repo.markEmailTokenUsed(t.tokenHash, at)).toBe(false);
      const t2 = link(u.id, u.email);
      await repo.putEmailToken(t2);
      expect(await repo.markEmailTokenUsed(t2.tokenHash, at)).toBe(true);
      expect(await repo.markEmailTokenUsed(t2.tokenHash, at)).toBe(false);
      expect(await repo.markEmailTokenUsed(fresh('hash'), at)).toBe(false);
    });

    it('counts failures while they are remembered, forgives and clears them', async () => {
      const repo = await make();
      const key = fresh('login');
      const now = Date.now();
      const at = new Date(now).toISOString();
      const later = Math.floor(now / 1000) + 600;
      expect(await repo.getThrottle(key)).toEqual({ failures: 0, lastFailureAt: null });
      expect(await repo.recordFailure(key, at, later)).toEqual({ failures: 1, firstInWindow: true });
      expect(await repo.recordFailure(key, at, later)).toEqual({ failures: 2, firstInWindow: false });
      expect(await repo.getThrottle(key)).toEqual({ failures: 2, lastFailureAt: at });
      await repo.forgiveFailures(key);
      expect((await repo.getThrottle(key)).failures).toBe(0);
      // forgiven, not forgotten: the next failure is not the first of its window
      expect(await repo.recordFailure(key, at, later)).toEqual({ failures: 1, firstInWindow: false });
      await repo.clearThrottle(key);
      expect(await repo.getThrottle(key)).toEqual({ failures: 0, lastFailureAt: null });
      // a counter whose memory ended counts from one again (even before the store sweeps it)
      const stale = fresh('login');
      await repo.recordFailure(stale, at, Math.floor(now / 1000) - 10);
      expect(await repo.getThrottle(stale)).toEqual({ failures: 0, lastFailureAt: null });
      expect(await repo.recordFailure(stale, at, later)).toEqual({ failures: 1, firstInWindow: true });
      // forgiving or clearing a key that never failed is harmless
      await repo.forgiveFailures(fresh('login'));
      await repo.clearThrottle(fresh('login'));
    });

    it('takes a quota up to its limit per window, and gives a use back', async () => {
      const repo = await make();
      const key = fresh('quota');
      const at = new Date('2099-01-01T00:00:00.000Z');
      expect(await repo.takeQuota(key, 2, 60, at)).toEqual({ ok: true });
      expect(await repo.takeQuota(key, 2, 60, new Date(at.getTime() + 10_000))).toEqual({ ok: true });
      expect(await repo.takeQuota(key, 2, 60, new Date(at.getTime() + 20_000))).toEqual({
        ok: false,
        retryAfterSeconds: 40,
      });
      await repo.returnQuota(key);
      expect(await repo.takeQuota(key, 2, 60, new Date(at.getTime() + 20_000))).toEqual({ ok: true });
      // a new window opens once the last one ended
      expect(await repo.takeQuota(key, 2, 60, new Date(at.getTime() + 61_000))).toEqual({ ok: true });
      expect(await repo.takeQuota(fresh('quota'), 0, 60, at)).toEqual({ ok: false, retryAfterSeconds: 60 });
      // giving back a use never taken is harmless
      await repo.returnQuota(fresh('quota'));
    });
  });
}
