import type { Resource, ResourceType, Stage } from '../../shared/api/contracts/resources';

/** A stored resource: the list fields plus where its bytes are. */
export interface ResourceRecord extends Resource {
  /** S3 key of the resource file in the resources bucket */
  objectKey: string;
  /** S3 key of the model metadata file, for models */
  metadataKey?: string;
  /** bytes of the model metadata file (a model package's patch config), for models */
  metadataSizeBytes?: number;
  createdAt: string;
}

export interface ResourceRepository {
  getById(id: string): Promise<ResourceRecord | null>;
  /** true when a resource holds this name (compared without case and surrounding spaces) */
  isNameTaken(name: string): Promise<boolean>;
  /**
   * Claims the name and writes the record in one transaction; 'nameTaken' when the name is held.
   * With `consumeUploadId`, the pending upload item is deleted in the same transaction and must exist
   * ('uploadGone' otherwise), so one upload becomes at most one resource.
   */
  create(record: ResourceRecord, consumeUploadId?: string): Promise<'ok' | 'nameTaken' | 'uploadGone'>;
  /** one type and stage, newest first (Query on the byTypeStage index) */
  listByTypeStage(type: ResourceType, stage: Stage): Promise<ResourceRecord[]>;
  /** every resource, newest first (Query on the byKind index) */
  listAll(): Promise<ResourceRecord[]>;
  /**
   * Deletes the record and releases its name in one transaction; 'referenced' when a package counted
   * itself on the record (packageRefs > 0) meanwhile, 'missing' when it is already gone.
   */
  delete(record: ResourceRecord): Promise<'ok' | 'referenced' | 'missing'>;
  putPendingUpload(upload: PendingUpload): Promise<void>;
  getPendingUpload(uploadId: string): Promise<PendingUpload | null>;
  /** marks the upload as being confirmed unless another confirmation started after `staleBefore` */
  lockPendingUpload(uploadId: string, ownerId: string, at: string, staleBefore: string): Promise<boolean>;
  /** ends the confirmation that locked it at `lockedAt` (a later one is left alone) */
  unlockPendingUpload(uploadId: string, lockedAt: string): Promise<void>;
  deletePendingUpload(uploadId: string): Promise<void>;
}

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
