import { createHash } from 'node:crypto';
import type { PackageType } from '../../../shared/api/contracts/packages';
import type { Stage } from '../../../shared/api/contracts/resources';
import { newPackageHeader } from '../../../shared/domain/header/header-rules';
import type { MemoryBlobStore } from '../../adapters/memory/blob-store';
import type { ArtefactRef, PackageRecord } from '../../ports/package-repository';
import type { ResourceRecord } from '../../ports/resource-repository';
import type { PackageKeys } from '../../ports/signer';
import { BlobArtefactStore } from '../../services/artefact/artefact-store';
import { samplePayload, testSigner } from './xml-package.fixtures';

/**
 * Test fixtures of the artefact store on storage in memory: a store with the test signer (buckets
 * `resources` and `artefacts`), a sample resource and release packages made from it. Not used by
 * production code.
 */

export const STORE_PAYLOAD = samplePayload(4096);
export const sha256Hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The resource of `stage` whose payload `storedPayload` puts in the resources bucket. */
export const sampleResource = (stage: Stage): ResourceRecord =>
  ({
    id: 'r1',
    name: 'pump-4.2',
    fileName: 'pump-4.2.bin',
    objectKey: 'resources/r1/pump-4.2.bin',
    sizeBytes: STORE_PAYLOAD.length,
    sha256: sha256Hex(STORE_PAYLOAD),
    resourceType: 'PATCH',
    resourceStage: stage,
  }) as unknown as ResourceRecord;
export const SAMPLE_RESOURCE = sampleResource('RELEASE');

const signer = {
  id: 'u-rel',
  name: 'Rel Engineer',
  email: 'rel@example.com',
  role: 'SW_FW_RELEASE_ENGINEER',
};

/**
 * The artefact store over `blobs`, signing with `keys` (default: the test key for both stages); packages up
 * to `inlineLimitBytes` come inline.
 */
export function memoryArtefactStore(
  blobs: MemoryBlobStore,
  inlineLimitBytes = 1024 * 1024,
  keys: PackageKeys = { of: () => testSigner(), signsFor: ['DEV', 'RELEASE'] },
) {
  return new BlobArtefactStore(blobs, keys, {
    resourcesBucket: () => 'resources',
    artefactsBucket: () => 'artefacts',
    inlineLimitBytes,
    downloadUrlTtlSeconds: 60,
  });
}

/** The sample resource's payload, stored where generation reads it. */
export const storedPayload = (blobs: MemoryBlobStore) =>
  blobs.put('resources', SAMPLE_RESOURCE.objectKey, STORE_PAYLOAD);

/** A fully approved package of the sample resource, of its type's stage (`more`: the pins of its `resourceFile`). */
export function samplePackage(
  id: string,
  type: PackageType,
  more: Record<string, unknown> = {},
): PackageRecord {
  return {
    id,
    name: `Pump ${id}`,
    type,
    signed: type.endsWith('_SIGNED'),
    resourceId: 'r1',
    resourceStage: type.startsWith('DEV_') ? 'DEV' : 'RELEASE',
    resourceName: 'pump-4.2',
    resourceType: 'PATCH',
    note: '',
    initiator: { id: 'u-init', name: 'Ada', email: 'ada@example.com', userRole: 'DESIGN_ENGINEER_DEV' },
    createdAt: '2026-03-01T09:00:00.000Z',
    header: newPackageHeader({ packageType: type, resourceSizeBytes: STORE_PAYLOAD.length }),
    resourceFile: {
      fileName: 'pump-4.2.bin',
      sizeBytes: STORE_PAYLOAD.length,
      sha256: sha256Hex(STORE_PAYLOAD),
      ...more,
    },
  } as unknown as PackageRecord;
}

/** Generates `pkg` at `at` (one approval; signed by the sample release engineer when the package is signed). */
export function generateSample(
  store: BlobArtefactStore,
  pkg: PackageRecord,
  at: string,
): Promise<ArtefactRef> {
  return store.generate({
    pkg,
    resource: sampleResource(pkg.resourceStage),
    dcc: { id: 'd1', deviceId: 'VENT-9', telemetryType: 'TelA', deviceLimit: 1, messageLimit: 1 },
    approvals: [{ ...signer, id: 'u-tl', decidedAt: '2026-03-01T12:00:00.000Z' }],
    ...(pkg.signed ? { signedBy: signer } : {}),
    at: new Date(at),
  });
}
