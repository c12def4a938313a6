import type { UploadStatus } from '../../../shared/api/contracts/resources';
import { ForbiddenError, NotFoundError } from '../../../shared/domain/errors';
import { RESOURCE_ERR } from '../../../shared/domain/resource-rules';
import { MSG } from '../../../shared/messages';
import { type Actor, type ResourceDeps, toResource } from './common';
import { VERIFY_ERR } from './presigned-upload';

/** Where an upload stands, for its owner (GET /resources/uploads/{uploadId}). */
export async function uploadStatus(d: ResourceDeps, actor: Actor, uploadId: string): Promise<UploadStatus> {
  const upload = await d.repo.getPendingUpload(uploadId);
  if (upload) {
    if (upload.ownerId !== actor.id) throw new ForbiddenError(RESOURCE_ERR.uploadNotYours);
    const base = { uploadId, sizeBytes: upload.sizeBytes };
    if (upload.verifyFailure)
      return {
        ...base,
        state: 'FAILED',
        errorMessage: upload.verifyFailure,
        statusCode: 503,
        retryable: true,
      };
    if (upload.verifyJobId) return { ...base, state: 'VERIFYING', verifiedBytes: upload.verifiedBytes ?? 0 };
    if (d.clock.now().getTime() > Date.parse(upload.expiresAt))
      throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
    return { ...base, state: 'UPLOADING' };
  }
  const outcome = await d.repo.getUploadOutcome(uploadId);
  if (!outcome) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
  if (outcome.ownerId !== actor.id) throw new ForbiddenError(RESOURCE_ERR.uploadNotYours);
  if ('refusal' in outcome) return { uploadId, state: 'FAILED', ...outcome.refusal, retryable: false };
  const record = await d.repo.getById(outcome.resourceId);
  if (!record)
    return {
      uploadId,
      state: 'FAILED',
      errorMessage: VERIFY_ERR.auditLost,
      statusCode: 503,
      retryable: false,
    };
  return {
    uploadId,
    state: 'REGISTERED',
    sizeBytes: record.sizeBytes,
    verifiedBytes: record.sizeBytes,
    resource: JSON.stringify(toResource(record)),
    message: MSG.uploaded,
  };
}
