import type { Resource, ResourceType, Stage } from '../../../shared/api/contracts/resources';
import { formatUploadTime, type ModelMetadata, safeFileName } from '../../../shared/domain/resource-rules';
import type { Role } from '../../../shared/domain/roles';
import { logger } from '../../observability/logger';
import type { AuditEvent } from '../../ports/audit-log';
import type { BlobStore } from '../../ports/blob-store';
import type { Clock } from '../../ports/clock';
import type {
  PendingUpload,
  ResourceRecord,
  ResourceReferences,
  ResourceRepository,
} from '../../ports/resource-repository';
import type { UploadJobs } from '../../ports/upload-jobs';

/** Who acts: the signed-in user (a UserRecord fits). */
export interface Actor {
  id: string;
  name: string;
  userRole: Role;
}

/** A file part of a multipart upload, read and hashed by the handler while it streamed in. */
export interface IncomingFile {
  fileName: string;
  /** the bytes kept; fewer than sizeBytes when the part was above its limit and reading stopped */
  bytes: Uint8Array;
  sizeBytes: number;
  /** hex SHA-256 of the whole part (meaningless when bytes were cut short) */
  sha256: string;
}

export interface UploadInput {
  type: ResourceType;
  stage: Stage;
  name: string;
  resourceFile?: IncomingFile;
  metadataFile?: IncomingFile;
}

export interface ResourceServiceConfig {
  /** resources bucket, read lazily: list routes run without any bucket in their environment */
  bucket: () => string;
  maxResourceBytes: number;
  maxMetadataBytes: number;
  /** validity of presigned upload URLs and of the confirmation window */
  uploadTtlSeconds: number;
  /** how long a multipart upload may take (resumed after a reload): its part URLs still last uploadTtlSeconds */
  multipartTtlSeconds?: number;
}

/** What every resource use case works with: the ports and the configuration given to ResourceService. */
export interface ResourceDeps {
  repo: ResourceRepository;
  references: ResourceReferences;
  blobs: BlobStore;
  clock: Clock;
  config: ResourceServiceConfig;
  /** starts the verification of a confirmed upload (only the confirming routes have one) */
  jobs: () => UploadJobs;
}

const RESOURCE_FIELDS = [
  'id',
  'name',
  'resourceStage',
  'resourceType',
  'uploadTime',
  'uploadedBy',
  'fileName',
  'sizeBytes',
  'sha256',
  'modelName',
  'modelVersion',
  'provenance',
  'sbom',
] as const;

/** The list view of a record: storage keys stay on the server. */
export function toResource(r: ResourceRecord): Resource {
  const out: Record<string, unknown> = {};
  for (const k of RESOURCE_FIELDS) if (r[k] !== undefined) out[k] = r[k];
  return out as unknown as Resource;
}

export const resourceKey = (id: string, fileName: string) => `resources/${id}/${safeFileName(fileName)}`;
const metadataKey = (id: string, fileName: string) => `resources/${id}/metadata/${safeFileName(fileName)}`;

/** The keys of a record's stored files: the resource file, and the metadata file of a model. */
export const recordKeys = (r: ResourceRecord): string[] => [
  r.objectKey,
  ...(r.metadataKey ? [r.metadataKey] : []),
];

/** The staged files of a presigned upload. */
export const stagingKeys = (upload: PendingUpload): string[] => [
  upload.stagingKey,
  ...(upload.metadataStagingKey ? [upload.metadataStagingKey] : []),
];

export function newRecord(
  actor: Actor,
  id: string,
  name: string,
  type: ResourceType,
  stage: Stage,
  at: Date,
  file: {
    fileName: string;
    sizeBytes: number;
    sha256: string;
    metadataFileName?: string;
    metadataSizeBytes?: number;
    /** hex SHA-256 of the metadata file (decision 190) */
    metadataSha256?: string;
    model?: ModelMetadata;
  },
): ResourceRecord {
  return {
    id,
    name,
    resourceStage: stage,
    resourceType: type,
    uploadTime: formatUploadTime(at),
    uploadedBy: { id: actor.id, name: actor.name },
    fileName: safeFileName(file.fileName),
    sizeBytes: file.sizeBytes,
    sha256: file.sha256,
    ...(file.model ? { modelName: file.model.modelName, modelVersion: file.model.modelVersion } : {}),
    objectKey: resourceKey(id, file.fileName),
    ...(file.metadataFileName ? { metadataKey: metadataKey(id, file.metadataFileName) } : {}),
    ...(file.metadataFileName && file.metadataSizeBytes !== undefined
      ? { metadataSizeBytes: file.metadataSizeBytes }
      : {}),
    ...(file.metadataFileName && file.metadataSha256 ? { metadataSha256: file.metadataSha256 } : {}),
    createdAt: at.toISOString(),
  };
}

export function logCleanupFailure(what: string, keys: readonly string[], e: unknown) {
  logger().error('cleanup failed', { kind: 'cleanup', what, keys, reason: (e as Error)?.message });
}

/** Best effort: a failed cleanup is logged and must not hide the error that caused it. */
export async function discardBlobs(d: ResourceDeps, bucket: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  try {
    await d.blobs.delete(bucket, keys);
  } catch (e) {
    logCleanupFailure('objects', keys, e);
  }
}

/** The upload's event: committed with the record it registers (decision 283). */
export function uploadEvent(actor: Actor, record: ResourceRecord, how: string): AuditEvent {
  return {
    subject: `RES#${record.id}`,
    action: 'RESOURCE_UPLOADED',
    meaning: `uploads the ${record.resourceType.toLowerCase()} '${record.name}' to ${record.resourceStage} (${how})`,
    actorId: actor.id,
    actorName: actor.name,
    actorRole: actor.userRole,
    details: {
      name: record.name,
      fileName: record.fileName,
      sizeBytes: record.sizeBytes,
      sha256: record.sha256,
      ...(record.metadataSha256
        ? { metadataSizeBytes: record.metadataSizeBytes, metadataSha256: record.metadataSha256 }
        : {}),
      ...(record.modelName ? { modelName: record.modelName, modelVersion: record.modelVersion } : {}),
    },
  };
}
