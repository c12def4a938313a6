import { randomUUID } from 'node:crypto';
import type { Resource } from '../../../shared/api/contracts/resources';
import { BadRequestError, ConflictError } from '../../../shared/domain/errors';
import {
  checkExtension,
  checkModel,
  checkSize,
  expectedExtension,
  type ModelMetadata,
  RESOURCE_ERR,
} from '../../../shared/domain/resource-rules';
import { MSG } from '../../../shared/messages';
import {
  type Actor,
  discardBlobs,
  newRecord,
  type ResourceDeps,
  recordKeys,
  toResource,
  type UploadInput,
  uploadEvent,
} from './common';

/** A multipart upload: every check first, then bytes, then the record; nothing stays on failure. */
export async function upload(d: ResourceDeps, actor: Actor, input: UploadInput): Promise<Resource> {
  const { type, resourceFile: file, metadataFile: meta } = input;
  if (!file)
    throw new BadRequestError(RESOURCE_ERR.missingResourceFile(expectedExtension('resourceFile', type)));
  checkExtension('resourceFile', type, file.fileName);
  if (type === 'MODEL') {
    if (!meta) throw new BadRequestError(RESOURCE_ERR.missingMetadataFile);
    checkExtension('metadataFile', type, meta.fileName);
  } else if (meta) throw new BadRequestError(RESOURCE_ERR.metadataNotForPatch);
  checkSize('resourceFile', file.sizeBytes, d.config.maxResourceBytes);
  if (meta) checkSize('metadataFile', meta.sizeBytes, d.config.maxMetadataBytes);
  let model: ModelMetadata | undefined;
  if (type === 'MODEL' && meta) {
    model = checkModel(file.bytes, meta.bytes);
  }
  // cheap early answer; the claim in the transaction below is what guarantees uniqueness
  if (await d.repo.isNameTaken(input.name)) throw new ConflictError(MSG.resourceNameConflict);

  const bucket = d.config.bucket();
  const id = randomUUID();
  const now = d.clock.now();
  const record = newRecord(actor, id, input.name, type, input.stage, now, {
    fileName: file.fileName,
    sizeBytes: file.sizeBytes,
    sha256: file.sha256,
    metadataFileName: meta?.fileName,
    metadataSizeBytes: meta?.sizeBytes,
    metadataSha256: meta?.sha256,
    model,
  });
  const keys = recordKeys(record);
  // the bytes first, then the record with its event (one transaction, decision 283): a crash in between
  // leaves bytes under resources/<id>/ that no record names, never a record naming missing bytes
  try {
    await d.blobs.put(bucket, record.objectKey, file.bytes, { contentType: 'application/octet-stream' });
    if (meta && record.metadataKey) {
      await d.blobs.put(bucket, record.metadataKey, meta.bytes, { contentType: 'application/json' });
    }
    const created = await d.repo.create(record, undefined, {
      events: [uploadEvent(actor, record, 'API upload')],
    });
    if (created !== 'ok') throw new ConflictError(MSG.resourceNameConflict);
  } catch (e) {
    // nothing names these bytes (the record was not stored): removed at once, best effort
    await discardBlobs(d, bucket, keys);
    throw e;
  }
  return toResource(record);
}
