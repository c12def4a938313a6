import type {
  PresignPartsResponse,
  RequestUpload,
  StartMultipartUploadResponse,
  UploadPartsResponse,
} from '../../../shared/api/contracts/resources';
import { MULTIPART_MAX_PARTS, MULTIPART_MIN_PART_BYTES } from '../../../shared/api/contracts/resources';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../../shared/domain/errors';
import { RESOURCE_ERR } from '../../../shared/domain/resource-rules';
import type { PendingUpload } from '../../ports/resource-repository';
import { type Actor, type ResourceDeps, resourceKey } from './common';
import {
  abandon,
  checkUploadRequest,
  MULTIPART_ERR,
  pendingUploadOf,
  VERIFY_STALE_MS,
} from './presigned-upload';

/**
 * Resources up to 10 GiB: the browser sends the file to S3 as a multipart upload, parts in
 * parallel through presigned UploadPart URLs, and may resume after a dropped connection or a reload by
 * asking which parts S3 holds. The server completes the upload with the parts' ETags and then checks
 * and registers it exactly as a single-PUT upload (presigned-upload.ts: confirmUpload).
 */

const MiB = 1024 * 1024;
/** 8 MiB parts: 10 GiB is 1,280 parts; a larger file gets larger parts to stay within 10,000. */
export const DEFAULT_PART_BYTES = 8 * MiB;

/** The part size for a file: at least 8 MiB (S3: ≥ 5 MiB), whole MiB, at most 10,000 parts. */
export function partSizeFor(sizeBytes: number): number {
  const min = Math.ceil(sizeBytes / MULTIPART_MAX_PARTS / MiB) * MiB;
  return Math.max(DEFAULT_PART_BYTES, MULTIPART_MIN_PART_BYTES, min);
}

export async function startMultipartUpload(
  d: ResourceDeps,
  actor: Actor,
  req: RequestUpload,
): Promise<StartMultipartUploadResponse> {
  await checkUploadRequest(d, req);
  const bucket = d.config.bucket();
  const ttl = d.config.multipartTtlSeconds ?? 24 * 3600;
  const base = pendingUploadOf(d, actor, req, ttl);
  const partSizeBytes = partSizeFor(req.sizeBytes);
  const partCount = Math.max(1, Math.ceil(req.sizeBytes / partSizeBytes));
  // The parts are joined at the resource's final key, not under staging/: the confirmation then reads
  // the file once to hash it instead of copying 10 GiB (decision 171). Until it is registered nothing
  // points at it, and any refusal deletes it.
  const stagingKey = resourceKey(base.resourceId, req.fileName);
  const multipartId = await d.blobs.createMultipart(bucket, stagingKey);
  const upload: PendingUpload = { ...base, stagingKey, multipartId, partSizeBytes, partCount };
  try {
    await d.repo.putPendingUpload(upload);
  } catch (e) {
    await abandon(d, bucket, upload, []);
    throw e;
  }
  const metadataUrl = upload.metadataStagingKey
    ? await d.blobs.presignPut(bucket, upload.metadataStagingKey, {
        expiresInSeconds: d.config.uploadTtlSeconds,
      })
    : undefined;
  return {
    uploadId: upload.uploadId,
    partSizeBytes,
    partCount,
    ...(metadataUrl ? { metadataUrl } : {}),
    expiresAt: upload.expiresAt,
  };
}

/** The requester's live multipart upload, or the error that says why not (nothing changes). */
async function ownMultipart(d: ResourceDeps, actor: Actor, uploadId: string): Promise<PendingUpload> {
  const upload = await d.repo.getPendingUpload(uploadId);
  if (!upload || d.clock.now().getTime() > Date.parse(upload.expiresAt))
    throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  if (upload.ownerId !== actor.id) throw new ForbiddenError(RESOURCE_ERR.uploadNotOwner);
  if (!upload.multipartId) throw new BadRequestError(MULTIPART_ERR.notMultipart);
  return upload;
}

export async function presignParts(
  d: ResourceDeps,
  actor: Actor,
  uploadId: string,
  partNumbers: readonly number[],
): Promise<PresignPartsResponse> {
  const upload = await ownMultipart(d, actor, uploadId);
  const count = upload.partCount ?? 0;
  const beyond = partNumbers.filter((n) => n > count);
  if (beyond.length)
    throw new BadRequestError(
      `The upload has ${count} part${count === 1 ? '' : 's'}; there is no part ${beyond.join(', ')}`,
    );
  const now = d.clock.now().getTime();
  const expiresInSeconds = Math.max(
    1,
    Math.min(d.config.uploadTtlSeconds, Math.floor((Date.parse(upload.expiresAt) - now) / 1000)),
  );
  const bucket = d.config.bucket();
  const urls = await Promise.all(
    [...new Set(partNumbers)].map(async (partNumber) => ({
      partNumber,
      url: await d.blobs.presignPart(bucket, upload.stagingKey, upload.multipartId ?? '', partNumber, {
        expiresInSeconds,
      }),
    })),
  );
  return { urls, expiresAt: new Date(now + expiresInSeconds * 1000).toISOString() };
}

export async function listUploadParts(
  d: ResourceDeps,
  actor: Actor,
  uploadId: string,
): Promise<UploadPartsResponse> {
  const upload = await ownMultipart(d, actor, uploadId);
  const parts = await d.blobs.listParts(d.config.bucket(), upload.stagingKey, upload.multipartId ?? '');
  if (!parts) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  return {
    partSizeBytes: upload.partSizeBytes ?? 0,
    partCount: upload.partCount ?? 0,
    parts: parts.map((p) => ({ partNumber: p.partNumber, sizeBytes: p.sizeBytes, etag: p.etag })),
  };
}

/** Cancels an upload (multipart or single PUT): nothing of it stays, in S3 or in the table. */
export async function abortUpload(d: ResourceDeps, actor: Actor, uploadId: string): Promise<void> {
  const upload = await d.repo.getPendingUpload(uploadId);
  if (!upload) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  if (upload.ownerId !== actor.id) throw new ForbiddenError(RESOURCE_ERR.uploadNotOwner);
  const now = d.clock.now();
  // a verification running now keeps the upload; one that crashed long ago does not
  const staleBefore = new Date(now.getTime() - VERIFY_STALE_MS).toISOString();
  if (!(await d.repo.lockPendingUpload(uploadId, actor.id, now.toISOString(), staleBefore)))
    throw new ConflictError(RESOURCE_ERR.uploadBusy);
  await abandon(d, d.config.bucket(), upload, []);
}
