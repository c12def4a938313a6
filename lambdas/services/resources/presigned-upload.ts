import { createHash, randomUUID } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RequestUpload, RequestUploadResponse, Resource } from '../../../shared/api/contracts/resources';
import {
  AppError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotAcceptableError,
  NotFoundError,
} from '../../../shared/domain/errors';
import {
  checkExtension,
  checkSize,
  checkTflite,
  parseModelMetadata,
  RESOURCE_ERR,
  safeFileName,
  TFLITE_HEAD_BYTES,
} from '../../../shared/domain/resource-rules';
import { MSG } from '../../../shared/messages';
import type { PendingUpload } from '../../ports/resource-repository';
import {
  type Actor,
  auditUploadOrRollBack,
  discardBlobs,
  logCleanupFailure,
  newRecord,
  type ResourceDeps,
  recordKeys,
  stagingKeys,
  toResource,
} from './common';

/** Large uploads: presigned URLs straight to S3 (staging), then a confirmation that checks and registers. */

/** A confirmation that started this long ago and never finished (a crashed run) may be retried. */
const CONFIRM_STALE_MS = 15 * 60_000;

/** Presigned URLs for a large upload; checks all it can before any byte is sent. */
export async function requestUpload(
  d: ResourceDeps,
  actor: Actor,
  req: RequestUpload,
): Promise<RequestUploadResponse> {
  const type = req.resourceType;
  checkExtension('resourceFile', type, req.fileName);
  const hasMeta = req.metadataFileName !== undefined || req.metadataSizeBytes !== undefined;
  if (type === 'MODEL') {
    if (req.metadataFileName === undefined || req.metadataSizeBytes === undefined) {
      throw new BadRequestError(
        `${RESOURCE_ERR.missingMetadataFile}: send metadataFileName and metadataSizeBytes`,
      );
    }
    checkExtension('metadataFile', type, req.metadataFileName);
  } else if (hasMeta) throw new BadRequestError(RESOURCE_ERR.metadataNotForPatch);
  checkSize('resourceFile', req.sizeBytes, d.config.maxResourceBytes);
  if (req.metadataSizeBytes !== undefined) {
    checkSize('metadataFile', req.metadataSizeBytes, d.config.maxMetadataBytes);
  }
  if (await d.repo.isNameTaken(req.name)) throw new ConflictError(MSG.resourceNameConflict);

  const bucket = d.config.bucket();
  const now = d.clock.now();
  const ttl = Math.min(req.expiresInSeconds ?? d.config.uploadTtlSeconds, d.config.uploadTtlSeconds);
  const uploadId = randomUUID();
  const upload: PendingUpload = {
    uploadId,
    resourceId: randomUUID(),
    ownerId: actor.id,
    name: req.name,
    resourceType: type,
    resourceStage: req.resourceStage,
    fileName: req.fileName,
    sizeBytes: req.sizeBytes,
    // staging/ keeps unconfirmed bytes apart from resources/, so a lifecycle rule can sweep them
    stagingKey: `staging/${uploadId}/${safeFileName(req.fileName)}`,
    ...(type === 'MODEL' && req.metadataFileName
      ? {
          metadataFileName: req.metadataFileName,
          metadataSizeBytes: req.metadataSizeBytes,
          metadataStagingKey: `staging/${uploadId}/metadata/${safeFileName(req.metadataFileName)}`,
        }
      : {}),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + ttl * 1000).toISOString(),
  };
  await d.repo.putPendingUpload(upload);
  const resourceUrl = await d.blobs.presignPut(bucket, upload.stagingKey, { expiresInSeconds: ttl });
  const metadataUrl = upload.metadataStagingKey
    ? await d.blobs.presignPut(bucket, upload.metadataStagingKey, { expiresInSeconds: ttl })
    : undefined;
  return { uploadId, resourceUrl, ...(metadataUrl ? { metadataUrl } : {}), expiresAt: upload.expiresAt };
}

/**
 * Checks a presigned upload (sizes, TFL3, metadata), copies it out of staging while hashing it (one
 * streamed pass, flat memory) and registers it. Any failure removes the staged and copied objects and
 * the pending item: the user requests a new upload.
 */
export async function confirmUpload(d: ResourceDeps, actor: Actor, uploadId: string): Promise<Resource> {
  const upload = await d.repo.getPendingUpload(uploadId);
  if (!upload) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  // someone else's upload: refuse without touching it, or anyone could cancel it
  if (upload.ownerId !== actor.id) throw new ForbiddenError(RESOURCE_ERR.uploadNotOwner);
  const bucket = d.config.bucket();
  const now = d.clock.now();
  if (now.getTime() > Date.parse(upload.expiresAt)) {
    await abandon(d, bucket, upload, []);
    throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  }
  const staleBefore = new Date(now.getTime() - CONFIRM_STALE_MS).toISOString();
  const lockedAt = now.toISOString();
  if (!(await d.repo.lockPendingUpload(uploadId, actor.id, lockedAt, staleBefore))) {
    if (!(await d.repo.getPendingUpload(uploadId))) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
    throw new ConflictError(RESOURCE_ERR.uploadBusy);
  }

  const record = newRecord(
    actor,
    upload.resourceId,
    upload.name,
    upload.resourceType,
    upload.resourceStage,
    now,
    {
      fileName: upload.fileName,
      sizeBytes: upload.sizeBytes,
      sha256: '',
      metadataFileName: upload.metadataFileName,
      metadataSizeBytes: upload.metadataSizeBytes,
    },
  );
  const finalKeys = recordKeys(record);
  try {
    const head = await d.blobs.head(bucket, upload.stagingKey);
    if (!head) throw new BadRequestError(RESOURCE_ERR.notUploaded('resource file'));
    if (head.sizeBytes !== upload.sizeBytes) {
      if (head.sizeBytes === 0) throw new NotAcceptableError(MSG.fileTooSmall);
      throw new NotAcceptableError(
        RESOURCE_ERR.sizeMismatch('resource file', head.sizeBytes, upload.sizeBytes),
      );
    }
    let metaBytes: Uint8Array | undefined;
    if (upload.resourceType === 'MODEL') {
      checkTflite(
        (await d.blobs.readRange(bucket, upload.stagingKey, 0, TFLITE_HEAD_BYTES - 1)) ?? new Uint8Array(),
      );
      metaBytes = await readStagedMetadata(d, bucket, upload);
      const model = parseModelMetadata(metaBytes);
      record.modelName = model.modelName;
      record.modelVersion = model.modelVersion;
    }
    if (await d.repo.isNameTaken(upload.name)) throw new ConflictError(MSG.resourceNameConflict);

    record.sha256 = await copyHashing(d, bucket, upload.stagingKey, record.objectKey, upload.sizeBytes);
    if (metaBytes && record.metadataKey) {
      await d.blobs.put(bucket, record.metadataKey, metaBytes, { contentType: 'application/json' });
    }
    const created = await d.repo.create(record, upload.uploadId);
    if (created === 'nameTaken') throw new ConflictError(MSG.resourceNameConflict);
    if (created === 'uploadGone') throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  } catch (e) {
    // A refusal (bad file, taken name) ends the upload. A failure of storage or the database does
    // not: the staged file is kept and the upload unlocked, so the same confirmation can be sent
    // again once the service is back, without uploading a large file a second time.
    if (e instanceof AppError && e.statusCode < 500) await abandon(d, bucket, upload, finalKeys);
    else await release(d, bucket, upload, finalKeys, lockedAt);
    throw e;
  }
  await discardBlobs(d, bucket, stagingKeys(upload));
  await auditUploadOrRollBack(d, actor, record, finalKeys, 'presigned upload');
  return toResource(record);
}

async function readStagedMetadata(
  d: ResourceDeps,
  bucket: string,
  upload: PendingUpload,
): Promise<Uint8Array> {
  const key = upload.metadataStagingKey;
  const declared = upload.metadataSizeBytes ?? 0;
  if (!key) throw new BadRequestError(RESOURCE_ERR.missingMetadataFile);
  const head = await d.blobs.head(bucket, key);
  if (!head) throw new BadRequestError(RESOURCE_ERR.notUploaded('metadata file'));
  if (head.sizeBytes !== declared) {
    if (head.sizeBytes === 0) throw new NotAcceptableError(MSG.fileTooSmall);
    throw new NotAcceptableError(RESOURCE_ERR.sizeMismatch('metadata file', head.sizeBytes, declared));
  }
  // small by configuration (MAX_METADATA_BYTES), so reading it whole is fine
  return (await d.blobs.readRange(bucket, key, 0, declared - 1)) ?? new Uint8Array();
}

/** Streams `from` to `to`, hashing on the way; the object must still have the size checked before. */
async function copyHashing(
  d: ResourceDeps,
  bucket: string,
  from: string,
  to: string,
  sizeBytes: number,
): Promise<string> {
  const source = await d.blobs.get(bucket, from);
  if (!source) throw new BadRequestError(RESOURCE_ERR.notUploaded('resource file'));
  const hash = createHash('sha256');
  let seen = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      seen += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await Promise.all([pipeline(source, tap), d.blobs.put(bucket, to, tap, { sizeBytes })]);
  } catch (e) {
    source.destroy();
    tap.destroy();
    throw e;
  }
  if (seen !== sizeBytes) {
    throw new NotAcceptableError(RESOURCE_ERR.sizeMismatch('resource file', seen, sizeBytes));
  }
  return hash.digest('hex');
}

async function abandon(d: ResourceDeps, bucket: string, upload: PendingUpload, extraKeys: string[]) {
  await discardBlobs(d, bucket, [...stagingKeys(upload), ...extraKeys]);
  try {
    await d.repo.deletePendingUpload(upload.uploadId);
  } catch (e) {
    logCleanupFailure('pending upload', [upload.uploadId], e);
  }
}

/** Undoes a confirmation that failed for a passing reason: final copies go, the staged file stays. */
async function release(
  d: ResourceDeps,
  bucket: string,
  upload: PendingUpload,
  finalKeys: string[],
  lockedAt: string,
) {
  await discardBlobs(d, bucket, finalKeys);
  try {
    await d.repo.unlockPendingUpload(upload.uploadId, lockedAt);
  } catch (e) {
    // the lock goes stale after CONFIRM_STALE_MS anyway; until then a retry answers 'busy'
    logCleanupFailure('pending upload lock', [upload.uploadId], e);
  }
}
