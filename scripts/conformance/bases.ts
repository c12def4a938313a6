import { createHash } from 'node:crypto';
import { MemoryBlobStore } from '../../lambdas/adapters/memory/blob-store';
import type { PackageRecord } from '../../lambdas/ports/package-repository';
import type { ResourceRecord } from '../../lambdas/ports/resource-repository';
import type { PackageKeys } from '../../lambdas/ports/signer';
import { BlobArtefactStore } from '../../lambdas/services/artefact/artefact-store';
import type { PackageType } from '../../shared/api/contracts/packages';
import { type ProvenanceRecord, provenanceText, sbomKeyOf } from '../../shared/api/contracts/provenance';
import type { Stage } from '../../shared/api/contracts/resources';
import { newPackageHeader, validateHeaderUpdate } from '../../shared/domain/header/header-rules';
import { checkSbom } from '../../shared/domain/sbom';
import { testKey } from './keys';

/**
 * The real packages of the conformance corpus: made by the portal's own generation code
 * (BlobArtefactStore.generate, the code the generation workers run) over storage in memory, from fixed
 * inputs, a fixed clock and the corpus's test keys, so every regeneration gives the same bytes.
 */

export interface BaseSpec {
  /** file name stem */
  id: string;
  type: PackageType;
  resourceType: 'PATCH' | 'MODEL';
  /** attach a build provenance */
  provenance?: boolean;
  /** attach an SBOM of this format */
  sbom?: 'CycloneDX' | 'SPDX';
  note?: string;
  payloadSize?: number;
  /** entries in each of the three criteria lists */
  criteria?: number;
  /** a DEV_SIGNED package as the portal signed it before the two keys: with the release key */
  legacyKey?: boolean;
}

export interface Base {
  spec: BaseSpec;
  xml: Buffer;
  /** the provenance statement file as stored, for signed packages */
  statement?: string;
  /** the SBOM file pinned, when one was attached */
  sbom?: Buffer;
}

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** Deterministic payload bytes; a model's begin as a .tflite file does (TFL3 at bytes 4–7). */
function payloadOf(spec: BaseSpec): Buffer {
  // sizes not multiples of 3: their base64 ends with padding (a vector changes its unused bits)
  const size = spec.payloadSize ?? (spec.resourceType === 'MODEL' ? 98 : 301);
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 37 + spec.id.length * 11 + (i >> 5)) & 0xff;
  if (spec.resourceType === 'MODEL' && size >= 8) b.write('TFL3', 4, 'latin1');
  return b;
}

export const SBOM_FILES: Record<'CycloneDX' | 'SPDX', Buffer> = {
  // a nested component, so componentCount (3) is not the length of the top-level list (2)
  CycloneDX: Buffer.from(
    `${JSON.stringify({
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      version: 1,
      metadata: { component: { type: 'firmware', name: 'pump-controller', version: '4.2.0' } },
      components: [
        {
          type: 'library',
          name: 'freertos-kernel',
          version: '11.1.0',
          components: [{ type: 'library', name: 'freertos-plus-tcp', version: '4.2.2' }],
        },
        { type: 'library', name: 'mbedtls', version: '3.6.2' },
      ],
    })}\n`,
  ),
  // the described package is not counted: componentCount 2 of 3 packages
  SPDX: Buffer.from(
    `${JSON.stringify({
      spdxVersion: 'SPDX-2.3',
      dataLicense: 'CC0-1.0',
      SPDXID: 'SPDXRef-DOCUMENT',
      name: 'apnea-model',
      documentNamespace: 'https://example.com/spdx/apnea-model-3.1',
      documentDescribes: ['SPDXRef-model'],
      packages: [
        { SPDXID: 'SPDXRef-model', name: 'apnea-model', versionInfo: '3.1.0' },
        { SPDXID: 'SPDXRef-tflm', name: 'tflite-micro', versionInfo: '2.15.0' },
        { SPDXID: 'SPDXRef-cmsis', name: 'cmsis-nn', versionInfo: '6.0.0' },
      ],
    })}\n`,
  ),
};

const BUILD = {
  repository: 'https://git.example.com/fw/conformance',
  commit: '0123456789abcdef0123456789abcdef01234567',
  buildId: '2026.04.7',
  buildUrl: 'https://ci.example.com/fw/conformance/builds/2026.04.7',
  builder: 'ci.example.com runner 4',
};
const PROVENANCE: ProvenanceRecord = { ...BUILD, sha256: sha(provenanceText(BUILD)) };

const person = (id: string, name: string, role: string) => ({
  id,
  name,
  email: `${id}@example.com`,
  role,
});
const APPROVERS = [
  person('u-dev2', 'Dana Dev', 'DESIGN_ENGINEER_DEV'),
  person('u-test', 'Theo Test', 'DESIGN_ENGINEER_TEST'),
  person('u-tl', 'Tim Lead', 'TECHNICAL_LEADER'),
  person('u-rel-eng', 'Rita Reliability', 'RELIABILITY_ENGINEER'),
];
const SIGNER = person('u-sign', 'Sam Signer', 'SW_FW_RELEASE_ENGINEER');

/** A header as an engineer fills it in, with `criteria` entries in each list. */
function headerOf(spec: BaseSpec, payload: Buffer, metadata: Buffer | undefined) {
  const ctx = {
    packageType: spec.type,
    resourceSizeBytes: payload.length,
    metadataSizeBytes: metadata?.length ?? 0,
  };
  const n = spec.criteria ?? 1;
  const entries = (base: number) =>
    Array.from({ length: n }, (_, i) => ({
      Address: base + 4 * i,
      Mask: 0xffff,
      Value: (0x0410 + i) & 0xffff,
      Operator: i % 6,
    }));
  const edited = validateHeaderUpdate(newPackageHeader(ctx), {
    fields: [
      { name: 'Package Id', value: 258 },
      { name: 'Device Model Id', value: { 'Model Id': 16, 'Sub Model Id': 2, 'Serial Number': 123456 } },
      { name: 'Patch Id', value: 'Patch 6' },
      { name: 'Update Operation Type', value: 'UPDATE' },
      { name: 'Header Destination', value: 0x08000000 },
      { name: 'Patch Config Destination', value: 0x0800f000 },
      { name: 'Patch Data Destination', value: 0x08010000 },
      { name: 'Patch Criteria Items', value: entries(0x1fff7a10) },
      { name: 'Install Start Criteria Items', value: n > 1 ? entries(0x20000000) : [] },
      { name: 'Flash Update Criteria Items', value: n > 1 ? entries(0x20001000) : [] },
    ],
  });
  if (!edited.ok) throw new Error(`header of ${spec.id}: ${JSON.stringify(edited.errors)}`);
  return edited.header;
}

/** Generates one real package (and its statement) with the portal's generation code. */
export async function generateBase(spec: BaseSpec, index: number): Promise<Base> {
  const stage: Stage = spec.type.startsWith('DEV') ? 'DEV' : 'RELEASE';
  const blobs = new MemoryBlobStore();
  // the generator holds both test keys; a legacy development package is signed with the release key
  const keys: PackageKeys = {
    of: (s) => testKey(s === 'RELEASE' || spec.legacyKey ? 'release' : 'dev'),
    signsFor: ['DEV', 'RELEASE'],
  };
  const store = new BlobArtefactStore(blobs, keys, {
    resourcesBucket: () => 'resources',
    artefactsBucket: () => 'artefacts',
    inlineLimitBytes: 1024 * 1024,
    downloadUrlTtlSeconds: 60,
  });
  const payload = payloadOf(spec);
  const model = spec.resourceType === 'MODEL';
  const metadata = model ? Buffer.from(JSON.stringify({ modelName: spec.id, version: '3.1.0' })) : undefined;
  const ext = model ? 'tflite' : 'bin';
  const resourceId = `r-${index.toString().padStart(3, '0')}`;
  const resource = {
    id: resourceId,
    name: spec.id,
    fileName: `${spec.id}.${ext}`,
    objectKey: `resources/${resourceId}/${spec.id}.${ext}`,
    sizeBytes: payload.length,
    sha256: sha(payload),
    resourceType: spec.resourceType,
    resourceStage: stage,
    ...(metadata
      ? {
          metadataKey: `resources/${resourceId}/metadata/${spec.id}.json`,
          metadataSizeBytes: metadata.length,
          metadataSha256: sha(metadata),
        }
      : {}),
    createdAt: '2026-04-01T07:30:00.000Z',
  } as unknown as ResourceRecord;
  const sbom = spec.sbom ? SBOM_FILES[spec.sbom] : undefined;
  const summary = sbom
    ? {
        ...checkSbom(sbom.toString('utf8')),
        fileName: `${spec.id}.sbom.json`,
        sizeBytes: sbom.length,
        sha256: sha(sbom),
      }
    : undefined;
  const pkg = {
    id: `c0ffee00-0000-4000-8000-${index.toString().padStart(12, '0')}`,
    name: `Conformance ${spec.id}`,
    type: spec.type,
    signed: spec.type.endsWith('_SIGNED'),
    resourceId,
    resourceStage: stage,
    resourceName: spec.id,
    resourceType: spec.resourceType,
    note: spec.note ?? `Conformance vector ${spec.id}.`,
    initiator: {
      id: 'u-init',
      name: 'Ada Engineer',
      email: 'u-init@example.com',
      userRole: 'DESIGN_ENGINEER_DEV',
    },
    createdAt: '2026-04-01T08:00:00.000Z',
    header: headerOf(spec, payload, metadata),
    resourceFile: {
      fileName: resource.fileName,
      sizeBytes: payload.length,
      sha256: sha(payload),
      ...(metadata ? { metadataSha256: sha(metadata), metadataSizeBytes: metadata.length } : {}),
      ...(spec.provenance ? { provenance: PROVENANCE } : {}),
      ...(summary ? { sbom: summary } : {}),
    },
  } as unknown as PackageRecord;
  await blobs.put('resources', resource.objectKey, payload);
  if (metadata) await blobs.put('resources', resource.metadataKey!, metadata);
  if (sbom) await blobs.put('resources', sbomKeyOf(resourceId), sbom);
  const ref = await store.generate({
    pkg,
    resource,
    dcc: { id: 'dcc-7', deviceId: 'PUMP-7', telemetryType: 'TelA', deviceLimit: 4096, messageLimit: 64 },
    approvals: APPROVERS.map((a, i) => ({ ...a, decidedAt: `2026-04-02T1${i}:00:00.000Z` })),
    ...(pkg.signed ? { signedBy: SIGNER } : {}),
    at: new Date('2026-04-03T10:00:00.000Z'),
  });
  const stored = (key: string) => blobs.objects.get(`artefacts/${key}`)!.bytes;
  return {
    spec,
    xml: stored(ref.key),
    ...(ref.statementKey ? { statement: stored(ref.statementKey).toString('utf8') } : {}),
    ...(sbom ? { sbom } : {}),
  };
}
