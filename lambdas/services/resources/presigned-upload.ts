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
  PayloadTooLargeError,
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
import { MultipartRefusal } from '../../ports/blob-store';
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

/** S3's limit of one PutObject. */
const SINGLE_PUT_MAX_BYTES = 5 * 1024 ** 3;

/** Above this size the checked copy is written in parts (the S3 adapter's part size). */
const STREAM_PART_BYTES = 8 * 1024 * 1024;

export const MULTIPART_ERR = {
  completeIt:
    'This is a multipart upload: complete it with its parts (POST /resources/uploads/{uploadId}/complete)',
  notMultipart: 'This upload is a single PUT: confirm it (POST /resources/uploads/{uploadId}/confirm)',
  partList: (count: number) =>
    `The upload has ${count} part${count === 1 ? '' : 's'}: send each part number from 1 to ${count} once, in order, with the ETag S3 answered for it`,
  refused: (code: string) =>
    ({
      InvalidPart: 'A part was not uploaded or its ETag does not match the part S3 holds',
      InvalidPartOrder: 'The parts are not in ascending order',
      EntityTooSmall: 'A part other than the last is smaller than 5 MiB',
      NoSuchUpload: 'The multipart upload no longer exists (completed, cancelled or expired)',
    })[code] ?? `S3 refused the parts (${code})`,
} as const;

/** A confirmation that started this long ago and never finished (a crashed run) may be retried. */
const CONFIRM_STALE_MS = 15 * 60_000;

/** Presigned URLs for a large upload; checks all it can before any byte is sent. */
export async function requestUpload(
  d: ResourceDeps,
  actor: Actor,
  req: RequestUpload,
): Promise<RequestUploadResponse> {
  await checkUploadRequest(d, req);
  // S3 takes at most 5 GiB in one PUT; above that only the multipart upload goes
  if (req.sizeBytes > SINGLE_PUT_MAX_BYTES)
    throw new PayloadTooLargeError(
      `${MSG.fileTooBig}: one PUT takes at most 5 GiB; send larger files as a multipart upload (POST /resources/uploads/multipart)`,
    );
  const bucket = d.config.bucket();
  const ttl = Math.min(req.expiresInSeconds ?? d.config.uploadTtlSeconds, d.config.uploadTtlSeconds);
  const upload = pendingUploadOf(d, actor, req, ttl);
  await d.repo.putPendingUpload(upload);
  const resourceUrl = await d.blobs.presignPut(bucket, upload.stagingKey, { expiresInSeconds: ttl });
  const metadataUrl = upload.metadataStagingKey
    ? await d.blobs.presignPut(bucket, upload.metadataStagingKey, { expiresInSeconds: ttl })
    : undefined;
  return {
    uploadId: upload.uploadId,
    resourceUrl,
    ...(metadataUrl ? { metadataUrl } : {}),
    expiresAt: upload.expiresAt,
  };
}

/** The checks of an upload request (name, extensions, sizes), before any byte is sent. */
export async function checkUploadRequest(d: ResourceDeps, req: RequestUpload): Promise<void> {
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
}

/** The pending upload of a checked request, valid `ttlSeconds` from now. */
export function pendingUploadOf(
  d: ResourceDeps,
  actor: Actor,
  req: RequestUpload,
  ttlSeconds: number,
): PendingUpload {
  const type = req.resourceType;
  const now = d.clock.now();
  const ttl = ttlSeconds;
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
  return upload;
}

/**
 * Checks a presigned upload (sizes, TFL3, metadata), copies it out of staging while hashing it (one
 * streamed pass, flat memory) and registers it. Any failure removes the staged and copied objects and
 * the pending item: the user requests a new upload.
 */
export async function confirmUpload(
  d: ResourceDeps,
  actor: Actor,
  uploadId: string,
  /** a multipart upload's parts with their ETags (completeMultipartUpload); none for a single PUT */
  parts?: ReadonlyArray<{ partNumber: number; etag: string }>,
): Promise<Resource> {
  const upload = await d.repo.getPendingUpload(uploadId);
  if (!upload) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  // someone else's upload: refuse without touching it, or anyone could cancel it
  if (upload.ownerId !== actor.id) throw new ForbiddenError(RESOURCE_ERR.uploadNotOwner);
  // checked before anything changes: the wrong call leaves the upload as it was
  if (Boolean(upload.multipartId) !== Boolean(parts))
    throw new BadRequestError(upload.multipartId ? MULTIPART_ERR.completeIt : MULTIPART_ERR.notMultipart);
  if (parts) checkPartList(upload, parts);
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
    if (parts) await completeParts(d, bucket, upload, parts);
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

    record.sha256 =
      upload.stagingKey === record.objectKey
        ? await hashInPlace(d, bucket, record.objectKey, upload.sizeBytes)
        : await copyHashing(d, bucket, upload.stagingKey, record.objectKey, upload.sizeBytes);
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
    // bytes joined in place (multipart) are the staged file: kept for the retry like staging/ is
    else
      await release(
        d,
        bucket,
        upload,
        finalKeys.filter((k) => k !== upload.stagingKey),
        lockedAt,
      );
    throw e;
  }
  await discardBlobs(
    d,
    bucket,
    stagingKeys(upload).filter((k) => !finalKeys.includes(k)),
  );
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
    // above one part, a multipart write: S3 refuses a single PUT over 5 GB, and resources go to 10 GiB
    const write =
      sizeBytes > STREAM_PART_BYTES
        ? d.blobs.putStream(bucket, to, tap)
        : d.blobs.put(bucket, to, tap, { sizeBytes });
    await Promise.all([pipeline(source, tap), write]);
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

export async function abandon(d: ResourceDeps, bucket: string, upload: PendingUpload, extraKeys: string[]) {
  if (upload.multipartId) {
    try {
      await d.blobs.abortMultipart(bucket, upload.stagingKey, upload.multipartId);
    } catch (e) {
      // the bucket's lifecycle rule aborts incomplete multipart uploads after a day (infra/lib/constructs/data.ts)
      logCleanupFailure('multipart upload', [upload.multipartId], e);
    }
  }
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

/** Our rule before S3's: every part of the announced count, once, in order. */
function checkPartList(upload: PendingUpload, parts: ReadonlyArray<{ partNumber: number; etag: string }>) {
  const count = upload.partCount ?? 0;
  if (parts.length !== count || parts.some((p, i) => p.partNumber !== i + 1))
    throw new BadRequestError(MULTIPART_ERR.partList(count));
}

/**
 * CompleteMultipartUpload with the client's ETags: S3 checks each part exists with that ETag and that
 * all but the last have at least 5 MiB. A retry after a passing failure finds the upload completed
 * already (NoSuchUpload, staged object present) and goes on.
 */
async function completeParts(
  d: ResourceDeps,
  bucket: string,
  upload: PendingUpload,
  parts: ReadonlyArray<{ partNumber: number; etag: string }>,
): Promise<void> {
  try {
    await d.blobs.completeMultipart(bucket, upload.stagingKey, upload.multipartId ?? '', parts);
  } catch (e) {
    if (!(e instanceof MultipartRefusal)) throw e;
    if (e.code === 'NoSuchUpload' && (await d.blobs.head(bucket, upload.stagingKey))) return;
    throw new BadRequestError(`${MULTIPART_ERR.refused(e.code)}; request a new upload`);
  }
}

/** The SHA-256 of an object already at its final key (a multipart upload joined there), read once. */
async function hashInPlace(d: ResourceDeps, bucket: string, key: string, sizeBytes: number): Promise<string> {
  const source = await d.blobs.get(bucket, key);
  if (!source) throw new BadRequestError(RESOURCE_ERR.notUploaded('resource file'));
  const hash = createHash('sha256');
  let seen = 0;
  for await (const chunk of source) {
    hash.update(chunk as Buffer);
    seen += (chunk as Buffer).length;
  }
  if (seen !== sizeBytes)
    throw new NotAcceptableError(RESOURCE_ERR.sizeMismatch('resource file', seen, sizeBytes));
  return hash.digest('hex');
}
