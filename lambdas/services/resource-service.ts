import type {
  PresignPartsResponse,
  RequestUpload,
  RequestUploadResponse,
  Resource,
  ResourceType,
  Stage,
  StartMultipartUploadResponse,
  UploadPartsResponse,
  UploadStatus,
} from '../../shared/api/contracts/resources';
import type { BlobStore } from '../ports/blob-store';
import type { Clock } from '../ports/clock';
import type { ResourceReferences, ResourceRepository } from '../ports/resource-repository';
import type { UploadJobs, VerificationJob } from '../ports/upload-jobs';
import {
  type Actor,
  type ResourceDeps,
  type ResourceServiceConfig,
  toResource,
  type UploadInput,
} from './resources/common';
import { deleteResources } from './resources/delete-resources';
import { upload } from './resources/multipart-upload';
import {
  abortUpload,
  listUploadParts,
  presignParts,
  startMultipartUpload,
} from './resources/presigned-multipart';
import { confirmUpload, requestUpload, type VerifyingAnswer } from './resources/presigned-upload';
import { uploadStatus } from './resources/upload-status';
import { failVerification, runVerification } from './resources/verify-upload';

export {
  type Actor,
  type IncomingFile,
  type ResourceServiceConfig,
  toResource,
  type UploadInput,
} from './resources/common';

/**
 * Resources (patches and models): upload through the API (multipart, up to the 10 MB request limit)
 * or presigned straight to S3, lists, and admin deletion. Bytes are written before the record that
 * points at them and removed again when anything after fails, so a refused or failed upload leaves
 * nothing behind; a name is claimed in the same transaction as the record. One file per use case under
 * `services/resources/`; this class only wires the ports.
 */
export class ResourceService {
  private readonly d: ResourceDeps;

  constructor(
    repo: ResourceRepository,
    references: ResourceReferences,
    blobs: BlobStore,
    clock: Clock,
    config: ResourceServiceConfig,
    jobs: () => UploadJobs = noUploadJobs,
  ) {
    this.d = { repo, references, blobs, clock, config, jobs };
  }

  /** bytes kept of each multipart file field; larger parts are only counted, then refused */
  partLimits(): Record<'resourceFile' | 'metadataFile', number> {
    return { resourceFile: this.d.config.maxResourceBytes, metadataFile: this.d.config.maxMetadataBytes };
  }

  async list(type: ResourceType, stage: Stage): Promise<Resource[]> {
    return (await this.d.repo.listByTypeStage(type, stage)).map(toResource);
  }

  async listAll(): Promise<Resource[]> {
    return (await this.d.repo.listAll()).map(toResource);
  }

  /** A multipart upload: every check first, then bytes, then the record; nothing stays on failure. */
  upload(actor: Actor, input: UploadInput): Promise<Resource> {
    return upload(this.d, actor, input);
  }

  /** Presigned URLs for a large upload; checks all it can before any byte is sent. */
  requestUpload(actor: Actor, req: RequestUpload): Promise<RequestUploadResponse> {
    return requestUpload(this.d, actor, req);
  }

  /** Checks a presigned upload and hands it to its verification (202); a refusal removes it. */
  confirmUpload(actor: Actor, uploadId: string): Promise<VerifyingAnswer> {
    return confirmUpload(this.d, actor, uploadId);
  }

  /** Resources up to 10 GiB: a presigned multipart upload (services/resources/presigned-multipart.ts). */
  startMultipartUpload(actor: Actor, req: RequestUpload): Promise<StartMultipartUploadResponse> {
    return startMultipartUpload(this.d, actor, req);
  }

  presignUploadParts(
    actor: Actor,
    uploadId: string,
    partNumbers: readonly number[],
  ): Promise<PresignPartsResponse> {
    return presignParts(this.d, actor, uploadId, partNumbers);
  }

  listUploadParts(actor: Actor, uploadId: string): Promise<UploadPartsResponse> {
    return listUploadParts(this.d, actor, uploadId);
  }

  completeMultipartUpload(
    actor: Actor,
    uploadId: string,
    parts: ReadonlyArray<{ partNumber: number; etag: string }>,
  ): Promise<VerifyingAnswer> {
    return confirmUpload(this.d, actor, uploadId, parts);
  }

  /** Where an upload stands, for its owner: UPLOADING, VERIFYING, REGISTERED or FAILED (decision 173). */
  uploadStatus(actor: Actor, uploadId: string): Promise<UploadStatus> {
    return uploadStatus(this.d, actor, uploadId);
  }

  /** The verifyUpload worker: hash, copy out of staging, register (services/resources/verify-upload.ts). */
  runVerification(job: VerificationJob): Promise<void> {
    return runVerification(this.d, job);
  }

  /** The uploadVerifyFailed worker: after the last retry the upload is kept with the reason. */
  failVerification(job: VerificationJob, reason: string): Promise<void> {
    return failVerification(this.d, job, reason);
  }

  abortUpload(actor: Actor, uploadId: string): Promise<void> {
    return abortUpload(this.d, actor, uploadId);
  }

  /** Admin deletion: all ids must exist (404) and none may be used by a package (409). */
  deleteResources(admin: Actor, ids: string[]): Promise<void> {
    return deleteResources(this.d, admin, ids);
  }
}

/** The routes that never confirm an upload have no jobs to start. */
function noUploadJobs(): UploadJobs {
  throw new Error('No upload verification jobs are plugged into this Lambda (composition-uploads.ts)');
}
