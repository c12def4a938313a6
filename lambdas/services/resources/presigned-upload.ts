import { randomUUID } from 'node:crypto';
import type { RequestUpload, RequestUploadResponse } from '../../../shared/api/contracts/resources';
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
import { type Actor, discardBlobs, logCleanupFailure, type ResourceDeps, stagingKeys } from './common';

/** Large uploads: presigned URLs straight to S3 (staging), then a confirmation that checks and registers. */

/** S3's limit of one PutObject. */
const SINGLE_PUT_MAX_BYTES = 5 * 1024 ** 3;

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

/**
 * A verification job that took the upload this long ago and never ended (a worker killed without its
 * failure recorded) no longer holds it. A confirmation still in its request holds it against nobody: its
 * owner's next confirmation or cancellation takes it over (a killed request must not block a retry).
 */
export const VERIFY_STALE_MS = 15 * 60_000;

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

/** What confirm and complete answer: the quick checks passed, the SHA-256 runs off the request. */
export interface VerifyingAnswer {
  uploadId: string;
  state: 'VERIFYING';
  sizeBytes: number;
  message: string;
}

export const VERIFYING_MESSAGE =
  'The file is in storage. Its size and SHA-256 are being checked; it is registered when that is done';

/** How long a verifying upload is kept at least (the table's TTL must not sweep it meanwhile). */
const VERIFY_KEEP_MS = 24 * 3600_000;

/**
 * Confirms a presigned upload (decision 173). In the request, everything that takes seconds whatever the
 * size: owner, kind, parts (S3's CompleteMultipartUpload), size, TFL3 header, model metadata, name. Then
 * the upload is handed to the verifyUpload worker (services/resources/verify-upload.ts), which hashes the
 * file, copies it out of staging if needed and registers it; the answer is 202 VERIFYING and the browser
 * polls GET /resources/uploads/{uploadId}. A refusal removes the staged bytes and the pending item; a
 * passing failure (storage, database) leaves both for another confirmation.
 */
export async function confirmUpload(
  d: ResourceDeps,
  actor: Actor,
  uploadId: string,
  /** a multipart upload's parts with their ETags (completeMultipartUpload); none for a single PUT */
  parts?: ReadonlyArray<{ partNumber: number; etag: string }>,
): Promise<VerifyingAnswer> {
  const upload = await d.repo.getPendingUpload(uploadId);
  if (!upload) return acceptedBefore(d, actor, uploadId);
  // someone else's upload: refuse without touching it, or anyone could cancel it
  if (upload.ownerId !== actor.id) throw new ForbiddenError(RESOURCE_ERR.uploadNotOwner);
  // checked before anything changes: the wrong call leaves the upload as it was
  if (Boolean(upload.multipartId) !== Boolean(parts))
    throw new BadRequestError(upload.multipartId ? MULTIPART_ERR.completeIt : MULTIPART_ERR.notMultipart);
  if (parts) checkPartList(upload, parts);
  const answer: VerifyingAnswer = {
    uploadId,
    state: 'VERIFYING',
    sizeBytes: upload.sizeBytes,
    message: VERIFYING_MESSAGE,
  };
  // the same confirmation sent again (a retry after a lost answer) while its verification runs; when no
  // byte was read yet, the hand-over itself may have been lost (a run killed between the two steps):
  // the job is handed over again (a second run of it registers nothing twice: verify-upload.ts)
  if (upload.verifyJobId && !upload.verifyFailure) {
    if (!upload.verifiedBytes) await d.jobs().start({ uploadId, jobId: upload.verifyJobId });
    return answer;
  }
  const bucket = d.config.bucket();
  const now = d.clock.now();
  if (now.getTime() > Date.parse(upload.expiresAt) && !upload.verifyFailure) {
    await abandon(d, bucket, upload, []);
    throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  }
  const staleBefore = new Date(now.getTime() - VERIFY_STALE_MS).toISOString();
  const lockedAt = now.toISOString();
  if (!(await d.repo.lockPendingUpload(uploadId, actor.id, lockedAt, staleBefore))) {
    if (!(await d.repo.getPendingUpload(uploadId))) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
    throw new ConflictError(RESOURCE_ERR.uploadBusy);
  }

  const jobId = randomUUID();
  let handedOver = false;
  let superseded = false;
  try {
    // a single PUT is checked here (seconds at any size); a multipart upload's completion (S3 joins the
    // parts: AWS allows it minutes) and its checks run in the worker (decision 173)
    if (!parts) await checkStagedFile(d, bucket, upload);
    if (await d.repo.isNameTaken(upload.name)) throw new ConflictError(MSG.resourceNameConflict);
    const keepUntil = new Date(
      Math.max(Date.parse(upload.expiresAt), now.getTime() + VERIFY_KEEP_MS),
    ).toISOString();
    const by = { id: actor.id, name: actor.name, userRole: actor.userRole };
    const etags = parts?.map((p) => p.etag);
    if (!(await d.repo.startVerification(uploadId, lockedAt, jobId, by, keepUntil, etags))) {
      // a later confirmation (or a cancellation) of the same owner took the upload over: it carries on
      superseded = true;
      throw new ConflictError(RESOURCE_ERR.uploadBusy);
    }
    handedOver = true;
    await d.jobs().start({ uploadId, jobId });
  } catch (e) {
    // A refusal (bad file, taken name) ends the upload. A failure of storage, the database or Lambda
    // does not: the staged file is kept and the upload unlocked, so the same confirmation can be sent
    // again once the service is back, without uploading a large file a second time.
    if (superseded) throw e;
    if (e instanceof AppError && e.statusCode < 500) await abandon(d, bucket, upload, []);
    else if (handedOver) await failHandOver(d, uploadId, jobId, e);
    else await release(d, bucket, upload, [], lockedAt);
    throw e;
  }
  return answer;
}

/**
 * The checks of a staged file that take seconds at any size: a multipart upload's parts joined by S3
 * (`etags`, the client's, in part order), the size, a model's TFL3 header and metadata. A refusal
 * throws the AppError the user reads.
 */
export async function checkStagedFile(
  d: ResourceDeps,
  bucket: string,
  upload: PendingUpload,
  etags?: readonly string[],
): Promise<void> {
  if (etags) {
    const parts = etags.map((etag, i) => ({ partNumber: i + 1, etag }));
    await completeParts(d, bucket, upload, parts);
  }
  const head = await d.blobs.head(bucket, upload.stagingKey);
  if (!head) throw new BadRequestError(RESOURCE_ERR.notUploaded('resource file'));
  if (head.sizeBytes !== upload.sizeBytes) {
    if (head.sizeBytes === 0) throw new NotAcceptableError(MSG.fileTooSmall);
    throw new NotAcceptableError(
      RESOURCE_ERR.sizeMismatch('resource file', head.sizeBytes, upload.sizeBytes),
    );
  }
  if (upload.resourceType === 'MODEL') {
    checkTflite(
      (await d.blobs.readRange(bucket, upload.stagingKey, 0, TFLITE_HEAD_BYTES - 1)) ?? new Uint8Array(),
    );
    parseModelMetadata(await readStagedMetadata(d, bucket, upload));
  }
}

/**
 * A confirmation of an upload that is no longer pending: its owner sent it again after the first one
 * was accepted (an answer lost on the way); the state is in GET /resources/uploads/{uploadId}.
 */
async function acceptedBefore(d: ResourceDeps, actor: Actor, uploadId: string): Promise<VerifyingAnswer> {
  const outcome = await d.repo.getUploadOutcome(uploadId);
  if (!outcome) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  if (outcome.ownerId !== actor.id) throw new ForbiddenError(RESOURCE_ERR.uploadNotOwner);
  if ('refusal' in outcome) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  const record = await d.repo.getById(outcome.resourceId);
  if (!record) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  return { uploadId, state: 'VERIFYING', sizeBytes: record.sizeBytes, message: VERIFYING_MESSAGE };
}

/** The job was recorded but could not be started: the upload says so and is unlocked for another try. */
async function failHandOver(d: ResourceDeps, uploadId: string, jobId: string, e: unknown) {
  try {
    await d.repo.failVerification(uploadId, jobId, `${VERIFY_ERR.notStarted}: ${(e as Error).message}`);
  } catch (cleanup) {
    logCleanupFailure('pending upload lock', [uploadId], cleanup);
  }
}

export const VERIFY_ERR = {
  notStarted: 'The check of the file could not be started',
  failed: (reason: string) =>
    `The file could not be checked (${reason}). It is kept: confirm the upload again to retry`,
  auditLost: 'The upload could not be recorded in the audit trail and was undone; upload the file again',
} as const;

export async function readStagedMetadata(
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
export async function release(
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
    // the owner's next confirmation takes the upload over anyway
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
