import { describe, expect, it } from 'vitest';
import type { PendingUpload, ResourceRecord } from '../../ports/resource-repository';
import { MemoryResourceReferences } from './resource-references';
import { MemoryResourceRepository } from './resource-repository';

const record = (id: string, name: string, createdAt = '2026-11-21T12:00:00.000Z'): ResourceRecord => ({
  id,
  name,
  resourceStage: 'DEV',
  resourceType: 'PATCH',
  uploadTime: '2026-11-21 12:00:00',
  uploadedBy: { id: 'u1', name: 'Dana' },
  fileName: 'p.bin',
  sizeBytes: 3,
  sha256: 'a'.repeat(64),
  objectKey: `resources/${id}/p.bin`,
  createdAt,
});

const upload = (uploadId: string): PendingUpload => ({
  uploadId,
  resourceId: `r-${uploadId}`,
  ownerId: 'u1',
  name: `n-${uploadId}`,
  resourceType: 'PATCH',
  resourceStage: 'DEV',
  fileName: 'p.bin',
  sizeBytes: 3,
  stagingKey: `staging/${uploadId}/p.bin`,
  createdAt: '2026-11-21T12:00:00.000Z',
  expiresAt: '2026-11-21T13:00:00.000Z',
});

describe('MemoryResourceRepository', () => {
  it('claims a name once, compared without case and surrounding spaces, and frees it on deletion', async () => {
    const repo = new MemoryResourceRepository();
    expect(await repo.create(record('a', 'Patch One'))).toBe('ok');
    expect(await repo.isNameTaken('  patch one ')).toBe(true);
    expect(await repo.create(record('b', 'PATCH ONE'))).toBe('nameTaken');
    expect(await repo.delete(record('a', 'Patch One'))).toBe('ok');
    expect(await repo.delete(record('a', 'Patch One'))).toBe('missing');
    expect(await repo.isNameTaken('Patch One')).toBe(false);
  });

  it('refuses to delete a resource a package counted itself on', async () => {
    const repo = new MemoryResourceRepository();
    await repo.create(record('a', 'p'));
    repo.countPackageRef('a');
    expect(await repo.delete(record('a', 'p'))).toBe('referenced');
    expect(await repo.getById('a')).not.toBeNull();
  });

  it('lists newest first, by type and stage', async () => {
    const repo = new MemoryResourceRepository();
    await repo.create(record('old', 'o', '2026-11-21T12:00:00.000Z'));
    await repo.create(record('new', 'n', '2026-11-21T12:00:01.000Z'));
    expect((await repo.listAll()).map((r) => r.id)).toEqual(['new', 'old']);
    expect(await repo.listByTypeStage('MODEL', 'DEV')).toEqual([]);
  });

  it('turns one pending upload into at most one resource', async () => {
    const repo = new MemoryResourceRepository();
    await repo.putPendingUpload(upload('u'));
    expect(await repo.create(record('r1', 'first'), 'u')).toBe('ok');
    expect(await repo.getPendingUpload('u')).toBeNull();
    expect(await repo.create(record('r2', 'second'), 'u')).toBe('uploadGone');
    expect(await repo.getById('r2')).toBeNull();
  });

  it('locks an upload for its owner, taking over a request, never a verification until it is stale', async () => {
    const repo = new MemoryResourceRepository();
    await repo.putPendingUpload(upload('u'));
    expect(await repo.lockPendingUpload('u', 'someone-else', 't1', 't0')).toBe(false);
    expect(await repo.lockPendingUpload('u', 'u1', 't1', 't0')).toBe(true);
    // the owner's next request takes over one still in its request (a killed one must not block a retry)
    expect(await repo.lockPendingUpload('u', 'u1', 't2', 't0')).toBe(true);
    // the earlier request can no longer hand the upload over, nor unlock the later one
    const by = { id: 'u1', name: 'Dana', userRole: 'DESIGN_ENGINEER_DEV' as const };
    expect(await repo.startVerification('u', 't1', 'job-1', by, 't9')).toBe(false);
    await repo.unlockPendingUpload('u', 't1');
    expect((await repo.getPendingUpload('u'))?.confirmingAt).toBe('t2');
    expect(await repo.startVerification('u', 't2', 'job-2', by, 't9')).toBe(true);
    // a verification holds it until it is stale (its worker killed without a failure recorded)
    expect(await repo.lockPendingUpload('u', 'u1', 't3', 't1')).toBe(false);
    expect(await repo.lockPendingUpload('u', 'u1', 't4', 't3')).toBe(true);
    await repo.unlockPendingUpload('u', 't4');
    expect((await repo.getPendingUpload('u'))?.confirmingAt).toBeUndefined();
  });
});

describe('MemoryResourceReferences', () => {
  it('answers the packages using a resource', async () => {
    const refs = new MemoryResourceReferences();
    refs.use('a', { packageId: 'p1', packageName: 'fw-1' });
    expect(await refs.packagesUsing('a')).toEqual([{ packageId: 'p1', packageName: 'fw-1' }]);
    expect(await refs.packagesUsing('b')).toEqual([]);
  });
});
