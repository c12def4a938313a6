import type { ProvenanceFields } from '../../shared/api/contracts/provenance';
import type { Resource, ResourceType, Stage } from '../../shared/api/contracts/resources';
import type { Role } from '../../shared/domain/roles';
import type { Recorded } from './audit-log';

/** A stored resource: the list fields plus where its bytes are. */
export interface ResourceRecord extends Resource {
  /** S3 key of the resource file in the resources bucket */
  objectKey: string;
  /** S3 key of the model metadata file, for models */
  metadataKey?: string;
  /** bytes of the model metadata file (a model package's patch config), for models */
  metadataSizeBytes?: number;
  /**
   * hex SHA-256 of the model metadata file, recorded at upload (decision 190); generation refuses a
   * metadata file that hashes differently. Absent on models uploaded before it was recorded.
   */
  metadataSha256?: string;
  createdAt: string;
}

export interface ResourceRepository {
  getById(id: string): Promise<ResourceRecord | null>;
  /** true when a resource holds this name (compared without case and surrounding spaces) */
  isNameTaken(name: string): Promise<boolean>;
  /**
   * Claims the name and writes the record in one transaction; 'nameTaken' when the name is held.
   * With `consumeUploadId`, the pending upload item must exist ('uploadGone' otherwise) and becomes, in the
   * same transaction, the outcome that names the resource (getUploadOutcome), so one upload becomes at
   * most one resource. The record's events commit with it (decision 283).
   */
  create(
    record: ResourceRecord,
    consumeUploadId?: string,
    commit?: Recorded,
  ): Promise<'ok' | 'nameTaken' | 'uploadGone'>;
  /** one type and stage, newest first (Query on the byTypeStage index) */
  listByTypeStage(type: ResourceType, stage: Stage): Promise<ResourceRecord[]>;
  /** every resource, newest first (Query on the byKind index) */
  listAll(): Promise<ResourceRecord[]>;
  /**
   * Deletes the record and releases its name in one transaction; 'referenced' when a package counted
   * itself on the record (packageRefs > 0) meanwhile, 'missing' when it is already gone. With its events.
   */
  delete(record: ResourceRecord, commit?: Recorded): Promise<'ok' | 'referenced' | 'missing'>;
  putPendingUpload(upload: PendingUpload): Promise<void>;
  getPendingUpload(uploadId: string): Promise<PendingUpload | null>;
  /**
   * Marks its owner's upload as being confirmed at `at`, taking over a confirmation still in its request;
   * refused while a verification job holds it (handed over, not failed) since `staleBefore`.
   */
  lockPendingUpload(uploadId: string, ownerId: string, at: string, staleBefore: string): Promise<boolean>;
  /** ends the confirmation that locked it at `lockedAt` (a later one is left alone) */
  unlockPendingUpload(uploadId: string, lockedAt: string): Promise<void>;
  deletePendingUpload(uploadId: string): Promise<void>;
  /**
   * Hands the upload locked at `lockedAt` to verification job `jobId` (decision 173): clears an earlier
   * failure, records who confirmed it and keeps the item until `keepUntil` (the table's TTL must not
   * sweep it while it is verified). False when the lock is no longer `lockedAt`.
   */
  startVerification(
    uploadId: string,
    lockedAt: string,
    jobId: string,
    by: UploadActor,
    keepUntil: string,
    /** a multipart upload's ETags in part order, for the worker's CompleteMultipartUpload */
    etags?: readonly string[],
  ): Promise<boolean>;
  /** bytes hashed so far by job `jobId`; false when the upload is gone or another job owns it now */
  recordVerification(uploadId: string, jobId: string, verifiedBytes: number): Promise<boolean>;
  /**
   * A verification that failed for a passing reason after every retry: the upload stays (its file is
   * kept), unlocked, with the reason, so its owner can confirm it again. False when job `jobId` no
   * longer owns it.
   */
  failVerification(uploadId: string, jobId: string, reason: string): Promise<boolean>;
  /**
   * Ends an upload refused while it was verified: the pending item is replaced by the refusal, kept
   * until `keepUntil` so the owner's poll can say why (its bytes are removed by the caller).
   */
  refuseUpload(uploadId: string, ownerId: string, refusal: UploadRefusal, keepUntil: string): Promise<void>;
  /** what became of an upload that is no longer pending (registered or refused), if anything is known */
  getUploadOutcome(uploadId: string): Promise<UploadOutcome | null>;
}

/** Who confirmed an upload: the verification records the resource and its audit event in their name. */
export interface UploadActor {
  id: string;
  name: string;
  userRole: Role;
}

export interface UploadRefusal {
  statusCode: number;
  errorMessage: string;
}

/** An upload that is over: the resource it became, or why it was refused. */
export type UploadOutcome =
  | { ownerId: string; resourceId: string }
  | { ownerId: string; refusal: UploadRefusal };

/** A presigned upload waiting for its confirmation (pk `UPLOAD#<id>` in the resources table). */
export interface PendingUpload {
  uploadId: string;
  /** the id the resource gets when the upload is confirmed */
  resourceId: string;
  ownerId: string;
  name: string;
  resourceType: ResourceType;
  resourceStage: Stage;
  fileName: string;
  sizeBytes: number;
  stagingKey: string;
  metadataFileName?: string;
  metadataSizeBytes?: number;
  metadataStagingKey?: string;
  createdAt: string;
  /** ISO time; the URLs stop working and confirmation is refused after it */
  expiresAt: string;
  /** set while a confirmation runs, against two confirmations of one upload at once */
  confirmingAt?: string;
  /** multipart uploads: S3's upload id, the part size and count the browser must follow */
  multipartId?: string;
  partSizeBytes?: number;
  partCount?: number;
  /** set by a confirmation that passed its quick checks: the job that hashes and registers it (decision 173) */
  verifyJobId?: string;
  verifyingFor?: UploadActor;
  /** multipart: the client's ETags in part order, completed by that job (decision 173) */
  completeEtags?: string[];
  /** bytes hashed so far by that job */
  verifiedBytes?: number;
  /** the last verification failed for a passing reason after its retries; the upload may be confirmed again */
  verifyFailure?: string;
}

/** A package that uses a resource, as deletion reports it. */
export interface ResourceReference {
  packageId: string;
  packageName: string;
}

/** Which packages use a resource (the packages table's byResource index). */
export interface ResourceReferences {
  packagesUsing(resourceId: string): Promise<ResourceReference[]>;
}

/** What attaching build provenance / an SBOM may meet: each is recorded once. */
export type AttachOutcome = 'ok' | 'missing' | 'provenanceTaken' | 'sbomTaken';

/** The set-once fields of a resource (decision 275): the resources table's adapters implement it. */
export interface ResourceProvenanceStore {
  /**
   * Records `fields` on resource `id` in one conditional write: refused ('provenanceTaken' /
   * 'sbomTaken') when a field given is already recorded, 'missing' when the resource is gone. With its
   * events (one transaction, decision 283).
   */
  attachProvenance(id: string, fields: ProvenanceFields, commit?: Recorded): Promise<AttachOutcome>;
}
