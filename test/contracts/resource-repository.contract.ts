import { describe, expect, it } from 'vitest';
import type {
  PendingUpload,
  ResourceProvenanceStore,
  ResourceRecord,
  ResourceRepository,
} from '../../lambdas/ports/resource-repository';
import type { SbomSummary } from '../../shared/api/contracts/provenance';
import { fresh } from './fresh-ids';

/** One adapter under the contract, and the seeding the port's conditions depend on. */
export interface ResourceRepositorySubject {
  repo: ResourceRepository & ResourceProvenanceStore;
  /** a package counts itself on the resource, as package creation does in its transaction */
  countPackageRef(resourceId: string): Promise<void>;
}

function resource(more: Partial<ResourceRecord> = {}): ResourceRecord {
  const id = fresh('r');
  return {
    id,
    name: fresh('Resource'),
    resourceStage: 'DEV',
    resourceType: 'PATCH',
    uploadTime: '2026-11-21 12:00:00',
    uploadedBy: { id: 'owner', name: 'Dana' },
    fileName: 'p.bin',
    sizeBytes: 3,
    sha256: 'a'.repeat(64),
    objectKey: `resources/${id}/p.bin`,
    createdAt: '2026-11-21T12:00:00.000Z',
    ...more,
  };
}

function upload(more: Partial<PendingUpload> = {}): PendingUpload {
  const uploadId = fresh('up');
  return {
    uploadId,
    resourceId: fresh('r'),
    ownerId: 'owner',
    name: fresh('Uploaded'),
    resourceType: 'PATCH',
    resourceStage: 'DEV',
    fileName: 'p.bin',
    sizeBytes: 3,
    stagingKey: `staging/${uploadId}/p.bin`,
    createdAt: '2026-11-21T12:00:00.000Z',
    expiresAt: '2099-01-01T00:00:00.000Z',
    ...more,
  };
}

const sbom: SbomSummary = {
  format: 'CycloneDX',
  specVersion: '1.5',
  componentCount: 1,
  topComponents: [{ name: 'libc' }],
  fileName: 'sbom.json',
  sizeBytes: 10,
  sha256: 'b'.repeat(64),
};

const ACTOR = { id: 'owner', name: 'Dana', userRole: 'DESIGN_ENGINEER_DEV' as const };

/**
 * What ResourceRepository (and the set-once provenance fields of ResourceProvenanceStore) promise their
 * services (lambdas/ports/resource-repository.ts), run against each adapter: a name (case and spaces
 * ignored) claimed once, a used resource never deleted, an upload consumed by at most one resource,
 * confirmation locks and verification jobs owned by one holder. `make` may hand out the same store for
 * every case: each case uses ids and names of its own.
 */
export function resourceRepositoryContract(adapter: string, make: () => Promise<ResourceRepositorySubject>) {
  describe(`ResourceRepository contract: ${adapter}`, () => {
    it('creates a resource, reads it back, and claims its name once (case and spaces ignored)', async () => {
      const { repo } = await make();
      const r = resource();
      expect(await repo.isNameTaken(r.name)).toBe(false);
      expect(await repo.create(r)).toBe('ok');
      expect(await repo.getById(r.id)).toEqual(r);
      expect(await repo.getById(fresh('missing'))).toBeNull();
      expect(await repo.isNameTaken(`  ${r.name.toUpperCase()} `)).toBe(true);
      const twin = resource({ name: ` ${r.name.toLowerCase()}` });
      expect(await repo.create(twin)).toBe('nameTaken');
      expect(await repo.getById(twin.id)).toBeNull();
    });

    it('lists newest first, all and by type and stage', async () => {
      const { repo } = await make();
      const older = resource({
        resourceType: 'MODEL',
        resourceStage: 'RELEASE',
        createdAt: '2099-01-01T00:00:00.000Z',
      });
      const newer = resource({
        resourceType: 'MODEL',
        resourceStage: 'RELEASE',
        createdAt: '2099-01-02T00:00:00.000Z',
      });
      const elsewhere = resource({
        resourceType: 'PATCH',
        resourceStage: 'RELEASE',
        createdAt: '2099-01-03T00:00:00.000Z',
      });
      for (const r of [older, newer, elsewhere]) expect(await repo.create(r)).toBe('ok');
      const mine = new Set([older.id, newer.id, elsewhere.id]);
      const own = (rs: ResourceRecord[]) => rs.map((r) => r.id).filter((id) => mine.has(id));
      expect(own(await repo.listAll())).toEqual([elsewhere.id, newer.id, older.id]);
      expect(own(await repo.listByTypeStage('MODEL', 'RELEASE'))).toEqual([newer.id, older.id]);
      expect(own(await repo.listByTypeStage('MODEL', 'DEV'))).toEqual([]);
      expect((await repo.listByTypeStage('MODEL', 'RELEASE')).find((r) => r.id === newer.id)).toEqual(newer);
    });

    it('deletes an unused resource once, freeing its name; refuses a used one', async () => {
      const s = await make();
      const r = resource();
      await s.repo.create(r);
      expect(await s.repo.delete(r)).toBe('ok');
      expect(await s.repo.getById(r.id)).toBeNull();
      expect(await s.repo.isNameTaken(r.name)).toBe(false);
      expect(await s.repo.delete(r)).toBe('missing');
      const used = resource();
      await s.repo.create(used);
      await s.countPackageRef(used.id);
      expect(await s.repo.delete(used)).toBe('referenced');
      expect(await s.repo.getById(used.id)).toEqual(used);
      expect(await s.repo.isNameTaken(used.name)).toBe(true);
    });

    it('consumes a pending upload into at most one resource, and tells what became of it', async () => {
      const { repo } = await make();
      const u = upload();
      await repo.putPendingUpload(u);
      expect(await repo.getPendingUpload(u.uploadId)).toEqual(u);
      expect(await repo.getPendingUpload(fresh('up'))).toBeNull();
      // an upload id is never stored twice
      await expect(repo.putPendingUpload(u)).rejects.toThrow();
      expect(await repo.getUploadOutcome(u.uploadId)).toBeNull();
      const r = resource({ id: u.resourceId, name: u.name });
      expect(await repo.create(r, u.uploadId)).toBe('ok');
      expect(await repo.getPendingUpload(u.uploadId)).toBeNull();
      expect(await repo.getUploadOutcome(u.uploadId)).toEqual({ ownerId: 'owner', resourceId: r.id });
      // a second resource of the same upload: refused, nothing written
      const again = resource();
      expect(await repo.create(again, u.uploadId)).toBe('uploadGone');
      expect(await repo.getById(again.id)).toBeNull();
      expect(await repo.isNameTaken(again.name)).toBe(false);
      expect(await repo.create(resource(), fresh('never'))).toBe('uploadGone');
    });

    it("locks an upload for its owner's confirmation, and lets a job hold it while it verifies", async () => {
      const { repo } = await make();
      const u = upload();
      await repo.putPendingUpload(u);
      const t1 = '2026-11-21T12:01:00.000Z';
      const t2 = '2026-11-21T12:02:00.000Z';
      const t3 = '2026-11-21T12:30:00.000Z';
      expect(await repo.lockPendingUpload(u.uploadId, 'someone-else', t1, t1)).toBe(false);
      expect(await repo.lockPendingUpload(fresh('up'), 'owner', t1, t1)).toBe(false);
      expect(await repo.lockPendingUpload(u.uploadId, 'owner', t1, '2026-11-21T11:00:00.000Z')).toBe(true);
      // a confirmation still in its request is taken over (no job holds the upload yet)
      expect(await repo.lockPendingUpload(u.uploadId, 'owner', t2, '2026-11-21T11:00:00.000Z')).toBe(true);
      await repo.unlockPendingUpload(u.uploadId, t1); // not its lock: left alone
      expect((await repo.getPendingUpload(u.uploadId))?.confirmingAt).toBe(t2);
      expect(await repo.startVerification(u.uploadId, t1, 'job-1', ACTOR, t3)).toBe(false);
      expect(await repo.startVerification(u.uploadId, t2, 'job-1', ACTOR, t3, ['e1', 'e2'])).toBe(true);
      const verifying = await repo.getPendingUpload(u.uploadId);
      expect(verifying).toMatchObject({
        verifyJobId: 'job-1',
        verifyingFor: ACTOR,
        verifiedBytes: 0,
        completeEtags: ['e1', 'e2'],
        confirmingAt: t2,
      });
      // held by a job since t2: a confirmation is refused unless the lock went stale
      expect(await repo.lockPendingUpload(u.uploadId, 'owner', t3, t1)).toBe(false);
      expect(await repo.recordVerification(u.uploadId, 'job-2', 5)).toBe(false);
      expect(await repo.recordVerification(u.uploadId, 'job-1', 5)).toBe(true);
      expect((await repo.getPendingUpload(u.uploadId))?.verifiedBytes).toBe(5);
      expect(await repo.failVerification(u.uploadId, 'job-2', 'why')).toBe(false);
      expect(await repo.failVerification(u.uploadId, 'job-1', 'storage was busy')).toBe(true);
      const failed = await repo.getPendingUpload(u.uploadId);
      expect(failed?.verifyFailure).toBe('storage was busy');
      expect(failed).not.toHaveProperty('confirmingAt');
      // failed: its owner may confirm again, and a new job clears the failure
      expect(await repo.lockPendingUpload(u.uploadId, 'owner', t3, t1)).toBe(true);
      expect(await repo.startVerification(u.uploadId, t3, 'job-2', ACTOR, t3)).toBe(true);
      expect(await repo.getPendingUpload(u.uploadId)).not.toHaveProperty('verifyFailure');
      // a job's lock is taken over only once it went stale
      const t4 = '2026-11-21T13:00:00.000Z';
      expect(await repo.lockPendingUpload(u.uploadId, 'owner', t4, t3)).toBe(false);
      expect(await repo.lockPendingUpload(u.uploadId, 'owner', t4, '2026-11-21T12:31:00.000Z')).toBe(true);
      await repo.unlockPendingUpload(u.uploadId, t4);
      expect(await repo.getPendingUpload(u.uploadId)).not.toHaveProperty('confirmingAt');
    });

    it('ends a refused upload with its reason, and deletes a pending one', async () => {
      const { repo } = await make();
      const u = upload();
      await repo.putPendingUpload(u);
      const refusal = { statusCode: 400, errorMessage: 'The file is not a patch' };
      await repo.refuseUpload(u.uploadId, 'owner', refusal, '2099-01-01T00:00:00.000Z');
      expect(await repo.getPendingUpload(u.uploadId)).toBeNull();
      expect(await repo.getUploadOutcome(u.uploadId)).toEqual({ ownerId: 'owner', refusal });
      expect(await repo.recordVerification(u.uploadId, 'job-1', 1)).toBe(false);
      expect(await repo.create(resource(), u.uploadId)).toBe('uploadGone');
      const gone = upload();
      await repo.putPendingUpload(gone);
      await repo.deletePendingUpload(gone.uploadId);
      expect(await repo.getPendingUpload(gone.uploadId)).toBeNull();
      await repo.deletePendingUpload(gone.uploadId); // again: nothing to do, no error
    });

    it('records provenance and SBOM once each; a missing resource is told', async () => {
      const { repo } = await make();
      const r = resource();
      await repo.create(r);
      expect(await repo.attachProvenance(r.id, { sbom })).toBe('ok');
      expect((await repo.getById(r.id))?.sbom).toEqual(sbom);
      expect(await repo.attachProvenance(r.id, { sbom: { ...sbom, componentCount: 2 } })).toBe('sbomTaken');
      expect((await repo.getById(r.id))?.sbom).toEqual(sbom);
      expect(await repo.attachProvenance(fresh('missing'), { sbom })).toBe('missing');
    });
  });
}
