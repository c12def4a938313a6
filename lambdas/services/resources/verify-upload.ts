import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, BadRequestError, ConflictError, NotAcceptableError } from '../../../shared/domain/errors';
import {
  checkTflite,
  parseModelMetadata,
  RESOURCE_ERR,
  TFLITE_HEAD_BYTES,
} from '../../../shared/domain/resource-rules';
import { MSG } from '../../../shared/messages';
import { logger } from '../../observability/logger';
import type { PendingUpload } from '../../ports/resource-repository';
import type { VerificationJob } from '../../ports/upload-jobs';
import {
  type Actor,
  discardBlobs,
  logCleanupFailure,
  newRecord,
  type ResourceDeps,
  recordKeys,
  stagingKeys,
  uploadEvent,
} from './common';
import { abandon, checkStagedFile, readStagedMetadata, VERIFY_ERR } from './presigned-upload';

/**
 * The second half of a presigned upload, off the request path (docs/decisions/173): the verifyUpload
 * worker reads the confirmed file once, hashing it (and copying it out of staging for a single PUT),
 * with progress on the pending upload, then registers the resource and its audit event. A refusal found
 * here (a size that changed, a name taken meanwhile) ends the upload with the reason; a passing failure
 * is thrown for Lambda's retries, and after the last one `failVerification` keeps the upload with the
 * reason for another confirmation.
 */

/** Above this size the checked copy is written in parts (the S3 adapter's part size). */
const STREAM_PART_BYTES = 8 * 1024 * 1024;
/** progress is written at most this often (one small conditional Update each time) */
const PROGRESS_EVERY_MS = 1000;
/** how long a refusal is kept for its owner's poll */
const REFUSAL_KEPT_MS = 7 * 24 * 3600_000;

export async function runVerification(d: ResourceDeps, job: VerificationJob): Promise<void> {
  const upload = await d.repo.getPendingUpload(job.uploadId);
  // over already (registered, refused, cancelled), or a later confirmation owns it: nothing to do
  if (!upload || upload.verifyJobId !== job.jobId || upload.verifyFailure || !upload.verifyingFor) return;
  const actor: Actor = upload.verifyingFor;
  const bucket = d.config.bucket();
  const record = newRecord(
    actor,
    upload.resourceId,
    upload.name,
    upload.resourceType,
    upload.resourceStage,
    d.clock.now(),
    {
      fileName: upload.fileName,
      sizeBytes: upload.sizeBytes,
      sha256: '',
      metadataFileName: upload.metadataFileName,
      metadataSizeBytes: upload.metadataSizeBytes,
    },
  );
  const finalKeys = recordKeys(record);
  // bytes joined in place (multipart) are the staged file: kept for a retry, like staging/ is
  const copies = finalKeys.filter((k) => k !== upload.stagingKey);
  try {
    // a multipart upload is completed here (S3 joins the parts) and checked as a single PUT is in the request
    if (upload.completeEtags) await checkStagedFile(d, bucket, upload, upload.completeEtags);
    let metaBytes: Uint8Array | undefined;
    if (upload.resourceType === 'MODEL') {
      metaBytes = await readStagedMetadata(d, bucket, upload);
      // the metadata file is pinned like the payload (decision 190): what is hashed here is what is kept
      record.metadataSha256 = createHash('sha256').update(metaBytes).digest('hex');
      record.metadataSizeBytes = metaBytes.length;
      const model = parseModelMetadata(metaBytes);
      record.modelName = model.modelName;
      record.modelVersion = model.modelVersion;
    }
    const progress = progressOf(d, job);
    const read =
      upload.stagingKey === record.objectKey
        ? await hashInPlace(d, bucket, record.objectKey, upload.sizeBytes, progress)
        : await copyHashing(d, bucket, upload.stagingKey, record.objectKey, upload.sizeBytes, progress);
    record.sha256 = read.sha256;
    // the bytes registered are the bytes read here: a staged file replaced after the confirmation's
    // checks (its PUT URL still works until it expires) is checked again, on what was hashed
    if (upload.resourceType === 'MODEL') checkTflite(read.head);
    if (metaBytes && record.metadataKey) {
      await d.blobs.put(bucket, record.metadataKey, metaBytes, { contentType: 'application/json' });
    }
    // the checked bytes are stored (above); the record, the upload's outcome and the event commit together
    // (decision 283): a crash before leaves copies a retry overwrites, never a record naming missing bytes
    const how = upload.multipartId ? 'presigned multipart upload' : 'presigned upload';
    const created = await d.repo.create(record, upload.uploadId, {
      events: [uploadEvent(actor, record, how)],
    });
    if (created === 'nameTaken') throw new ConflictError(MSG.resourceNameConflict);
    if (created === 'uploadGone') {
      // another run of this job registered it first (the same resource id): that one counts
      if (!(await registeredAs(d, upload.uploadId, record.id))) await discardBlobs(d, bucket, copies);
      return;
    }
  } catch (e) {
    // A second run of the job (Lambda delivers an event at least once; a confirmation sent again after a
    // crash hands it over again) that fails because the first one registered the upload and removed its
    // staged bytes: the registered bytes are the first run's, and nothing here may remove them.
    if (await registeredAs(d, upload.uploadId, record.id).catch(() => false)) return;
    if (e instanceof AppError && e.statusCode < 500) {
      await refuse(d, upload, finalKeys, e);
      return;
    }
    await discardBlobs(d, bucket, copies);
    throw e;
  }
  await discardBlobs(
    d,
    bucket,
    stagingKeys(upload).filter((k) => !finalKeys.includes(k)),
  );
  logger().info('upload verified', { kind: 'upload', uploadId: upload.uploadId, resourceId: record.id });
}

/** Whether upload `uploadId` was registered as resource `resourceId` (by this job's other run). */
async function registeredAs(d: ResourceDeps, uploadId: string, resourceId: string): Promise<boolean> {
  const outcome = await d.repo.getUploadOutcome(uploadId);
  return Boolean(outcome && 'resourceId' in outcome && outcome.resourceId === resourceId);
}

/** After the last retry (the on-failure queue): the upload is kept with the reason, unlocked. */
export async function failVerification(d: ResourceDeps, job: VerificationJob, reason: string): Promise<void> {
  await d.repo.failVerification(job.uploadId, job.jobId, VERIFY_ERR.failed(reason));
}

/** A refusal found while verifying: the upload is over, its bytes go, its owner's poll says why. */
async function refuse(d: ResourceDeps, upload: PendingUpload, finalKeys: string[], e: AppError) {
  await abandon(d, d.config.bucket(), upload, finalKeys);
  try {
    await d.repo.refuseUpload(
      upload.uploadId,
      upload.ownerId,
      { statusCode: e.statusCode, errorMessage: e.message },
      new Date(d.clock.now().getTime() + REFUSAL_KEPT_MS).toISOString(),
    );
  } catch (cleanup) {
    // the pending item is gone already (abandon): the poll then answers 404, the bytes are gone
    logCleanupFailure('upload refusal', [upload.uploadId], cleanup);
  }
}

/** Writes the bytes hashed so far at most once a second; a failed write only loses a progress step. */
function progressOf(d: ResourceDeps, job: VerificationJob): (bytes: number) => Promise<void> {
  let last = 0;
  return async (bytes) => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    try {
      await d.repo.recordVerification(job.uploadId, job.jobId, bytes);
    } catch (e) {
      logger().warn('verification progress not recorded', {
        uploadId: job.uploadId,
        reason: (e as Error).message,
      });
    }
  };
}

type Progress = (bytes: number) => Promise<void>;

/** What one read of the file gives: its SHA-256 and its first bytes (a model's TFL3 header). */
interface FileRead {
  sha256: string;
  head: Uint8Array;
}

/**
 * One pass over the file's bytes: hashes them, keeps the first TFLITE_HEAD_BYTES, counts them and
 * reports progress; `result` checks the count against the size checked before.
 */
function fileReader(sizeBytes: number, progress: Progress) {
  const hash = createHash('sha256');
  const head = new Uint8Array(TFLITE_HEAD_BYTES);
  let seen = 0;
  return {
    see(chunk: Uint8Array): Promise<void> {
      hash.update(chunk);
      if (seen < head.length) head.set(chunk.subarray(0, head.length - seen), seen);
      seen += chunk.length;
      return progress(seen);
    },
    result(): FileRead {
      if (seen !== sizeBytes)
        throw new NotAcceptableError(RESOURCE_ERR.sizeMismatch('resource file', seen, sizeBytes));
      return { sha256: hash.digest('hex'), head: head.subarray(0, Math.min(seen, head.length)) };
    },
  };
}

/** Streams `from` to `to`, hashing on the way; the object must still have the size checked before. */
async function copyHashing(
  d: ResourceDeps,
  bucket: string,
  from: string,
  to: string,
  sizeBytes: number,
  progress: Progress,
): Promise<FileRead> {
  const source = await d.blobs.get(bucket, from);
  if (!source) throw new BadRequestError(RESOURCE_ERR.notUploaded('resource file'));
  const reader = fileReader(sizeBytes, progress);
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      reader.see(chunk).then(
        () => done(null, chunk),
        () => done(null, chunk),
      );
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
  return reader.result();
}

/** The SHA-256 of an object already at its final key (a multipart upload joined there), read once. */
async function hashInPlace(
  d: ResourceDeps,
  bucket: string,
  key: string,
  sizeBytes: number,
  progress: Progress,
): Promise<FileRead> {
  const source = await d.blobs.get(bucket, key);
  if (!source) throw new BadRequestError(RESOURCE_ERR.notUploaded('resource file'));
  const reader = fileReader(sizeBytes, progress);
  for await (const chunk of source) await reader.see(chunk as Buffer);
  return reader.result();
}
