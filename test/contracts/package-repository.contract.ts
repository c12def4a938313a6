import { describe, expect, it } from 'vitest';
import type { PackageRecord } from '../../lambdas/ports/package-repository';
import type { PackageTombstone } from '../../shared/domain/package-deletion';
import { fresh } from './fresh-ids';
import { alone, entry, mail, type PackageRepositorySubject, record } from './package-records';
import { packageListCases } from './package-repository-lists';

export type { PackageRepositorySubject } from './package-records';

/**
 * What PackageRepository promises its services (lambdas/ports/package-repository.ts), run against each
 * adapter: names claimed once, references counted, writes conditional on version and status and refused
 * whole, votes counted once with the policy's reasons, lists newest first with cursors that continue
 * them, deletion idempotent. `make` may hand out the same store for every case: each case uses ids of
 * its own and reads lists only for them.
 */
export function packageRepositoryContract(adapter: string, make: () => Promise<PackageRepositorySubject>) {
  describe(`PackageRepository contract: ${adapter}`, () => {
    it('creates a package once, reads it back as written, and answers null for an unknown id', async () => {
      const s = await make();
      const res = fresh('res');
      await s.addResource(res);
      const pkg = record({ id: fresh('p'), name: fresh('Pump'), resourceId: res });
      expect(await s.repo.create(pkg)).toBe('ok');
      expect(await s.repo.get(pkg.id)).toEqual(pkg);
      expect(await s.repo.get(fresh('missing'))).toBeNull();
      expect(await s.resourceRefs(res)).toBe(1);
    });

    it('claims a name once, case ignored, and writes nothing for a refused creation', async () => {
      const s = await make();
      const res = fresh('res');
      await s.addResource(res);
      const name = fresh('Valve');
      expect(await s.repo.create(record({ id: fresh('p'), name, resourceId: res }))).toBe('ok');
      const second = record({ id: fresh('p'), name: name.toUpperCase(), resourceId: res });
      expect(await s.repo.create(second)).toBe('nameTaken');
      expect(await s.repo.get(second.id)).toBeNull();
      expect(await s.resourceRefs(res)).toBe(1);
    });

    it('refuses a package of a missing resource, leaving its name free', async () => {
      const s = await make();
      const name = fresh('Orphan');
      const orphan = record({ id: fresh('p'), name, resourceId: fresh('gone') });
      expect(await s.repo.create(orphan)).toBe('resourceGone');
      expect(await s.repo.get(orphan.id)).toBeNull();
      const res = fresh('res');
      await s.addResource(res);
      expect(await s.repo.create(record({ id: fresh('p'), name, resourceId: res }))).toBe('ok');
    });

    it('saves only over the expected version and status; a refused save changes nothing', async () => {
      const s = await make();
      const res = fresh('res');
      await s.addResource(res);
      const pkg = record({ id: fresh('p'), name: fresh('Saved'), resourceId: res });
      await s.repo.create(pkg);
      const next = { ...pkg, note: 'second', version: 2 };
      expect(await s.repo.save(next, { version: 2, status: 'PENDING_APPROVAL' })).toBe(false);
      expect(await s.repo.save(next, { version: 1, status: 'DRAFT' })).toBe(false);
      expect(await s.repo.get(pkg.id)).toEqual(pkg);
      expect(await s.repo.save(next, { version: 1, status: 'PENDING_APPROVAL' })).toBe(true);
      expect(await s.repo.get(pkg.id)).toEqual(next);
      // the same write again is stale now: the version it expected moved on
      expect(await s.repo.save(next, { version: 1, status: 'PENDING_APPROVAL' })).toBe(false);
      // a package that was never created is not saved into existence
      const ghost = record({ id: fresh('p'), name: fresh('Ghost'), resourceId: res });
      expect(await s.repo.save(ghost, { version: 1, status: 'PENDING_APPROVAL' })).toBe(false);
      expect(await s.repo.get(ghost.id)).toBeNull();
    });

    it('opens and closes tasks with a save, and refuses a save whose mail was queued before', async () => {
      const s = await make();
      const res = fresh('res');
      await s.addResource(res);
      const [a, b] = [fresh('u'), fresh('u')];
      const p1 = record({ id: fresh('p'), name: fresh('Tasked'), resourceId: res });
      const p2 = record({ id: fresh('p'), name: fresh('Tasked'), resourceId: res, resourceStage: 'RELEASE' });
      await s.repo.create(p1);
      await s.repo.create(p2);
      const task = (userId: string, pkg: PackageRecord) => ({
        kind: 'APPROVE' as const,
        userId,
        packageId: pkg.id,
        stage: pkg.resourceStage,
        createdAt: '2026-01-02T00:00:00.000Z',
      });
      const m = fresh('mail');
      expect(
        await s.repo.save(
          { ...p1, version: 2 },
          { version: 1, status: 'PENDING_APPROVAL' },
          {
            add: [task(a, p1), task(b, p1)],
            mails: [mail(m, p1.id)],
          },
        ),
      ).toBe(true);
      await s.repo.save(
        { ...p2, version: 2 },
        { version: 1, status: 'PENDING_APPROVAL' },
        { add: [task(a, p2)] },
      );
      expect((await s.repo.taskPackageIds(a, 'APPROVE')).sort()).toEqual([p1.id, p2.id].sort());
      expect(await s.repo.taskPackageIds(a, 'APPROVE', 'DEV')).toEqual([p1.id]);
      expect(await s.repo.taskPackageIds(a, 'SIGN')).toEqual([]);
      // the same mail id again: the whole write is refused (one event never mails a person twice)
      expect(
        await s.repo.save(
          { ...p1, note: 'again', version: 3 },
          { version: 2, status: 'PENDING_APPROVAL' },
          {
            remove: [{ kind: 'APPROVE', userId: a }],
            mails: [mail(m, p1.id)],
          },
        ),
      ).toBe(false);
      expect((await s.repo.get(p1.id))?.version).toBe(2);
      expect(await s.repo.taskPackageIds(a, 'APPROVE', 'DEV')).toEqual([p1.id]);
      expect(
        await s.repo.save(
          { ...p1, version: 3 },
          { version: 2, status: 'PENDING_APPROVAL' },
          {
            remove: [{ kind: 'APPROVE', userId: a }],
          },
        ),
      ).toBe(true);
      expect(await s.repo.taskPackageIds(a, 'APPROVE', 'DEV')).toEqual([]);
      expect(await s.repo.taskPackageIds(b, 'APPROVE', 'DEV')).toEqual([p1.id]);
      expect(
        await s.repo.save(
          { ...p1, version: 4 },
          { version: 3, status: 'PENDING_APPROVAL' },
          { removeAll: true },
        ),
      ).toBe(true);
      expect(await s.repo.taskPackageIds(b, 'APPROVE')).toEqual([]);
    });

    packageListCases(make);

    it('renames a draft only over the expected version, moving its name claim', async () => {
      const s = await make();
      const res = fresh('res');
      await s.addResource(res);
      const taken = fresh('Taken');
      await s.repo.create(record({ id: fresh('p'), name: taken, resourceId: res }));
      const oldName = fresh('Before');
      const d = record({ id: fresh('p'), name: oldName, resourceId: res, status: 'DRAFT' });
      await s.repo.create(d);
      const expected = { version: 1, status: 'DRAFT' as const };
      expect(
        await s.repo.renameDraft({ ...d, name: taken.toLowerCase(), version: 2 }, expected, oldName),
      ).toBe('nameTaken');
      expect(await s.repo.get(d.id)).toEqual(d);
      const newName = fresh('After');
      expect(
        await s.repo.renameDraft(
          { ...d, name: newName, version: 2 },
          { version: 9, status: 'DRAFT' },
          oldName,
        ),
      ).toBe('moved');
      expect(await s.repo.renameDraft({ ...d, name: newName, version: 2 }, expected, oldName)).toBe('ok');
      expect((await s.repo.get(d.id))?.name).toBe(newName);
      // the old name is free again, the new one is claimed
      expect(await s.repo.create(record({ id: fresh('p'), name: oldName, resourceId: res }))).toBe('ok');
      expect(await s.repo.create(record({ id: fresh('p'), name: newName, resourceId: res }))).toBe(
        'nameTaken',
      );
    });

    it('counts a vote once and refuses with the policy’s reasons', async () => {
      const s = await make();
      const res = fresh('res');
      await s.addResource(res);
      const [a, b] = [fresh('u'), fresh('u')];
      const pkg = record({
        id: fresh('p'),
        name: fresh('Voted'),
        resourceId: res,
        approvers: { [a]: entry(a, 'RELIABILITY_ENGINEER'), [b]: entry(b, 'DESIGN_ENGINEER_DEV') },
        approverCount: 2,
      });
      await s.repo.create(pkg);
      const first = await s.repo.vote(pkg.id, a, 'approval', '2026-01-03T00:00:00.000Z', alone);
      expect(first.ok && [first.pkg.approvers[a]?.approved, first.pkg.approvedCount]).toEqual([true, 1]);
      const stored = await s.repo.get(pkg.id);
      expect([stored?.approvers[a]?.approved, stored?.approvedCount, stored?.version]).toEqual([
        true,
        1,
        first.ok ? first.pkg.version : -1,
      ]);
      expect(stored!.version).toBeGreaterThan(pkg.version);
      expect(await s.repo.vote(pkg.id, a, 'approval', 'at', alone)).toEqual({
        ok: false,
        reason: 'alreadyDecided',
      });
      expect(await s.repo.vote(pkg.id, fresh('u'), 'approval', 'at', alone)).toEqual({
        ok: false,
        reason: 'notAssigned',
      });
      expect(await s.repo.vote(pkg.id, b, 'delivery', 'at', alone)).toEqual({
        ok: false,
        reason: 'notAssigned',
      });
      expect(await s.repo.vote(fresh('missing'), a, 'approval', 'at', alone)).toEqual({
        ok: false,
        reason: 'notFound',
      });
      const rejected = await s.repo.reject(pkg.id, b, 'approval', 'no', 'at', async (decided) => ({
        next: { ...decided, status: 'REJECTED', rejectionNote: 'no', version: decided.version + 1 },
        commit: {},
      }));
      expect(rejected.ok && [rejected.pkg.status, rejected.pkg.approvers[b]?.rejected]).toEqual([
        'REJECTED',
        true,
      ]);
      expect(await s.repo.vote(pkg.id, b, 'approval', 'at', alone)).toEqual({
        ok: false,
        reason: 'alreadyDecided',
      });
      expect((await s.repo.get(pkg.id))?.status).toBe('REJECTED');
    });

    it('claims a generation for one run and records progress only while it runs', async () => {
      const s = await make();
      const res = fresh('res');
      await s.addResource(res);
      const requestedBy = {
        id: 'a',
        name: 'A',
        email: 'a@example.com',
        userRole: 'RELIABILITY_ENGINEER' as const,
      };
      const pkg = record({
        id: fresh('p'),
        name: fresh('Generating'),
        resourceId: res,
        status: 'GENERATING',
        generation: {
          jobId: 'job-1',
          state: 'RUNNING',
          from: 'PENDING_APPROVAL',
          requestedBy,
          requestedAt: '2026-01-02T00:00:00.000Z',
          bytesDone: 0,
          bytesTotal: 1000,
        },
      });
      await s.repo.create(pkg);
      expect(await s.repo.claimGeneration(pkg.id, 'job-2', 'run-1')).toBe(false);
      expect(await s.repo.claimGeneration(pkg.id, 'job-1', 'run-1')).toBe(true);
      // the same run again (a retried event) holds it; another run does not
      expect(await s.repo.claimGeneration(pkg.id, 'job-1', 'run-1')).toBe(true);
      expect(await s.repo.claimGeneration(pkg.id, 'job-1', 'run-2')).toBe(false);
      expect(await s.repo.generationProgress(pkg.id, 'job-1', 100, 'run-2')).toBe(false);
      expect(await s.repo.generationProgress(pkg.id, 'job-1', 100, 'run-1')).toBe(true);
      const after = await s.repo.get(pkg.id);
      expect([after?.generation?.bytesDone, after?.version]).toEqual([100, pkg.version]);
      expect(await s.repo.generationProgress(fresh('missing'), 'job-1', 1)).toBe(false);
      expect(await s.repo.claimGeneration(fresh('missing'), 'job-1', 'run-1')).toBe(false);
    });

    it('deletes a package with its tasks, name claim and reference; a second deletion finds it gone', async () => {
      const s = await make();
      const res = fresh('res');
      await s.addResource(res);
      const a = fresh('u');
      const name = fresh('Deleted');
      const pkg = record({ id: fresh('p'), name, resourceId: res });
      await s.repo.create(pkg);
      await s.repo.save(
        { ...pkg, version: 2 },
        { version: 1, status: 'PENDING_APPROVAL' },
        {
          add: [{ kind: 'APPROVE', userId: a, packageId: pkg.id, stage: 'DEV', createdAt: 'c' }],
        },
      );
      expect(await s.repo.delete(pkg, { onlyIn: ['DRAFT'] })).toBe('moved');
      expect(await s.repo.get(pkg.id)).not.toBeNull();
      const tombstone: PackageTombstone = {
        id: pkg.id,
        name,
        status: 'PENDING_APPROVAL',
        deletedAt: '2026-01-04T00:00:00.000Z',
        deletedBy: { id: 'admin', name: 'Admin', userRole: 'ADMIN' },
        reason: 'wrong resource',
      };
      expect(await s.repo.tombstone(pkg.id)).toBeNull();
      // deleted from the version read before the last save: the stored package is deleted all the same
      expect(await s.repo.delete(pkg, { tombstone, onlyIn: ['PENDING_APPROVAL'] })).toBe('deleted');
      expect(await s.repo.get(pkg.id)).toBeNull();
      expect(await s.repo.taskPackageIds(a, 'APPROVE')).toEqual([]);
      expect(await s.repo.tombstone(pkg.id)).toEqual(tombstone);
      expect(await s.resourceRefs(res)).toBe(0);
      expect(await s.repo.delete(pkg)).toBe('gone');
      expect(await s.resourceRefs(res)).toBe(0);
      expect(await s.repo.create(record({ id: fresh('p'), name, resourceId: res }))).toBe('ok');
    });
  });
}
