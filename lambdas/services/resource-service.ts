import { createHash, randomUUID } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  RequestUpload,
  RequestUploadResponse,
  Resource,
  ResourceType,
  Stage,
} from '../../shared/api/contracts/resources';
import {
  AppError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotAcceptableError,
  NotFoundError,
} from '../../shared/domain/errors';
import {
  checkExtension,
  checkSize,
  checkTflite,
  expectedExtension,
  formatUploadTime,
  type ModelMetadata,
  parseModelMetadata,
  RESOURCE_ERR,
  safeFileName,
  TFLITE_HEAD_BYTES,
} from '../../shared/domain/resource-rules';
import type { Role } from '../../shared/domain/roles';
import { MSG } from '../../shared/messages';
import { logger } from '../middleware/logging';
import type { AuditLog } from '../ports/audit-log';
import type { BlobStore } from '../ports/blob-store';
import type { Clock } from '../ports/clock';
import type {
  PendingUpload,
  ResourceRecord,
  ResourceReferences,
  ResourceRepository,
} from '../ports/resource-repository';

/** Who acts: the signed-in user (a UserRecord fits). */
export interface Actor {
  id: string;
  name: string;
  userRole: Role;
}

/** A file part of a multipart upload, read and hashed by the handler while it streamed in. */
export interface IncomingFile {
  fileName: string;
  /** the bytes kept; fewer than sizeBytes when the part was above its limit and reading stopped */
  bytes: Uint8Array;
  sizeBytes: number;
  /** hex SHA-256 of the whole part (meaningless when bytes were cut short) */
  sha256: string;
}

export interface UploadInput {
  type: ResourceType;
  stage: Stage;
  name: string;
  resourceFile?: IncomingFile;
  metadataFile?: IncomingFile;
}

export interface ResourceServiceConfig {
  /** resources bucket, read lazily: list routes run without any bucket in their environment */
  bucket: () => string;
  maxResourceBytes: number;
  maxMetadataBytes: number;
  /** validity of presigned upload URLs and of the confirmation window */
  uploadTtlSeconds: number;
}

/** A confirmation that started this long ago and never finished (a crashed run) may be retried. */
const CONFIRM_STALE_MS = 15 * 60_000;

const RESOURCE_FIELDS = [
  'id',
  'name',
  'resourceStage',
  'resourceType',
  'uploadTime',
  'uploadedBy',
  'fileName',
  'sizeBytes',
  'sha256',
  'modelName',
  'modelVersion',
] as const;

/** The list view of a record: storage keys stay on the server. */
export function toResource(r: ResourceRecord): Resource {
  const out: Record<string, unknown> = {};
  for (const k of RESOURCE_FIELDS) if (r[k] !== undefined) out[k] = r[k];
  return out as unknown as Resource;
}

const resourceKey = (id: string, fileName: string) => `resources/${id}/${safeFileName(fileName)}`;
const metadataKey = (id: string, fileName: string) => `resources/${id}/metadata/${safeFileName(fileName)}`;

function logCleanupFailure(what: string, keys: readonly string[], e: unknown) {
  logger().error('cleanup failed', { kind: 'cleanup', what, keys, reason: (e as Error)?.message });
}

/**
 * Resources (patches and models): upload through the API (multipart, up to the 10 MB request limit)
 * or presigned straight to S3, lists, and admin deletion. Bytes are written before the record that
 * points at them and removed again when anything after fails, so a refused or failed upload leaves
 * nothing behind; a name is claimed in the same transaction as the record.
 */
export class ResourceService {
  constructor(
    private readonly repo: ResourceRepository,
    private readonly references: ResourceReferences,
    private readonly blobs: BlobStore,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly config: ResourceServiceConfig,
  ) {}

  /** bytes kept of each multipart file field; larger parts are only counted, then refused */
  partLimits(): Record<'resourceFile' | 'metadataFile', number> {
    return { resourceFile: this.config.maxResourceBytes, metadataFile: this.config.maxMetadataBytes };
  }

  async list(type: ResourceType, stage: Stage): Promise<Resource[]> {
    return (await this.repo.listByTypeStage(type, stage)).map(toResource);
  }

  async listAll(): Promise<Resource[]> {
    return (await this.repo.listAll()).map(toResource);
  }

  /** A multipart upload: every check first, then bytes, then the record; nothing stays on failure. */
  async upload(actor: Actor, input: UploadInput): Promise<Resource> {
    const { type, resourceFile: file, metadataFile: meta } = input;
    if (!file)
      throw new BadRequestError(RESOURCE_ERR.missingResourceFile(expectedExtension('resourceFile', type)));
    checkExtension('resourceFile', type, file.fileName);
    if (type === 'MODEL') {
      if (!meta) throw new BadRequestError(RESOURCE_ERR.missingMetadataFile);
      checkExtension('metadataFile', type, meta.fileName);
    } else if (meta) throw new BadRequestError(RESOURCE_ERR.metadataNotForPatch);
    checkSize('resourceFile', file.sizeBytes, this.config.maxResourceBytes);
    if (meta) checkSize('metadataFile', meta.sizeBytes, this.config.maxMetadataBytes);
    let model: ModelMetadata | undefined;
    if (type === 'MODEL' && meta) {
      checkTflite(file.bytes.subarray(0, TFLITE_HEAD_BYTES));
      model = parseModelMetadata(meta.bytes);
    }
    // cheap early answer; the claim in the transaction below is what guarantees uniqueness
    if (await this.repo.isNameTaken(input.name)) throw new ConflictError(MSG.resourceNameConflict);

    const bucket = this.config.bucket();
    const id = randomUUID();
    const now = this.clock.now();
    const record = this.newRecord(actor, id, input.name, type, input.stage, now, {
      fileName: file.fileName,
      sizeBytes: file.sizeBytes,
      sha256: file.sha256,
      metadataFileName: meta?.fileName,
      metadataSizeBytes: meta?.sizeBytes,
      model,
    });
    const keys = [record.objectKey, ...(record.metadataKey ? [record.metadataKey] : [])];
    try {
      await this.blobs.put(bucket, record.objectKey, file.bytes, { contentType: 'application/octet-stream' });
      if (meta && record.metadataKey) {
        await this.blobs.put(bucket, record.metadataKey, meta.bytes, { contentType: 'application/json' });
      }
      const created = await this.repo.create(record);
      if (created !== 'ok') throw new ConflictError(MSG.resourceNameConflict);
    } catch (e) {
      await this.discardBlobs(bucket, keys);
      throw e;
    }
    await this.auditUploadOrRollBack(actor, record, keys, 'API upload');
    return toResource(record);
  }

  /** Presigned URLs for a large upload; checks all it can before any byte is sent. */
  async requestUpload(actor: Actor, req: RequestUpload): Promise<RequestUploadResponse> {
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
    checkSize('resourceFile', req.sizeBytes, this.config.maxResourceBytes);
    if (req.metadataSizeBytes !== undefined) {
      checkSize('metadataFile', req.metadataSizeBytes, this.config.maxMetadataBytes);
    }
    if (await this.repo.isNameTaken(req.name)) throw new ConflictError(MSG.resourceNameConflict);

    const bucket = this.config.bucket();
    const now = this.clock.now();
    const ttl = Math.min(req.expiresInSeconds ?? this.config.uploadTtlSeconds, this.config.uploadTtlSeconds);
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
    await this.repo.putPendingUpload(upload);
    const resourceUrl = await this.blobs.presignPut(bucket, upload.stagingKey, { expiresInSeconds: ttl });
    const metadataUrl = upload.metadataStagingKey
      ? await this.blobs.presignPut(bucket, upload.metadataStagingKey, { expiresInSeconds: ttl })
      : undefined;
    return { uploadId, resourceUrl, ...(metadataUrl ? { metadataUrl } : {}), expiresAt: upload.expiresAt };
  }

  /**
   * Checks a presigned upload (sizes, TFL3, metadata), copies it out of staging while hashing it (one
   * streamed pass, flat memory) and registers it. Any failure removes the staged and copied objects and
   * the pending item: the user requests a new upload.
   */
  async confirmUpload(actor: Actor, uploadId: string): Promise<Resource> {
    const upload = await this.repo.getPendingUpload(uploadId);
    if (!upload) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
    // someone else's upload: refuse without touching it, or anyone could cancel it
    if (upload.ownerId !== actor.id) throw new ForbiddenError(RESOURCE_ERR.uploadNotOwner);
    const bucket = this.config.bucket();
    const now = this.clock.now();
    if (now.getTime() > Date.parse(upload.expiresAt)) {
      await this.abandon(bucket, upload, []);
      throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
    }
    const staleBefore = new Date(now.getTime() - CONFIRM_STALE_MS).toISOString();
    const lockedAt = now.toISOString();
    if (!(await this.repo.lockPendingUpload(uploadId, actor.id, lockedAt, staleBefore))) {
      if (!(await this.repo.getPendingUpload(uploadId))) throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
      throw new ConflictError(RESOURCE_ERR.uploadBusy);
    }

    const record = this.newRecord(
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
    const finalKeys = [record.objectKey, ...(record.metadataKey ? [record.metadataKey] : [])];
    try {
      const head = await this.blobs.head(bucket, upload.stagingKey);
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
          (await this.blobs.readRange(bucket, upload.stagingKey, 0, TFLITE_HEAD_BYTES - 1)) ??
            new Uint8Array(),
        );
        metaBytes = await this.readStagedMetadata(bucket, upload);
        const model = parseModelMetadata(metaBytes);
        record.modelName = model.modelName;
        record.modelVersion = model.modelVersion;
      }
      if (await this.repo.isNameTaken(upload.name)) throw new ConflictError(MSG.resourceNameConflict);

      record.sha256 = await this.copyHashing(bucket, upload.stagingKey, record.objectKey, upload.sizeBytes);
      if (metaBytes && record.metadataKey) {
        await this.blobs.put(bucket, record.metadataKey, metaBytes, { contentType: 'application/json' });
      }
      const created = await this.repo.create(record, upload.uploadId);
      if (created === 'nameTaken') throw new ConflictError(MSG.resourceNameConflict);
      if (created === 'uploadGone') throw new NotFoundError(RESOURCE_ERR.uploadNotFound);
    } catch (e) {
      // A refusal (bad file, taken name) ends the upload. A failure of storage or the database does
      // not: the staged file is kept and the upload unlocked, so the same confirmation can be sent
      // again once the service is back, without uploading a large file a second time.
      if (e instanceof AppError && e.statusCode < 500) await this.abandon(bucket, upload, finalKeys);
      else await this.release(bucket, upload, finalKeys, lockedAt);
      throw e;
    }
    await this.discardBlobs(bucket, stagingKeys(upload));
    await this.auditUploadOrRollBack(actor, record, finalKeys, 'presigned upload');
    return toResource(record);
  }

  /**
   * Admin deletion of resources, their name claims and bytes. All ids must exist (404) and none may be
   * used by a package (409, naming the packages): deletion never breaks a package's traceability.
   */
  async deleteResources(admin: Actor, ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    const found = await Promise.all(unique.map((id) => this.repo.getById(id)));
    const missing = unique.filter((_, i) => !found[i]);
    if (missing.length > 0) throw new NotFoundError(RESOURCE_ERR.resourceNotFound(missing));
    const records = found as ResourceRecord[];
    const uses = await Promise.all(records.map((r) => this.references.packagesUsing(r.id)));
    const blocked = records
      .map((r, i) => ({ r, refs: uses[i] ?? [] }))
      .filter((x) => x.refs.length > 0)
      .map((x) => `'${x.r.name}' is used by ${x.refs.map((p) => `'${p.packageName}'`).join(', ')}`);
    if (blocked.length > 0) throw new ConflictError(RESOURCE_ERR.stillReferenced(blocked.join('; ')));

    const bucket = this.config.bucket();
    for (const r of records) {
      const result = await this.repo.delete(r);
      if (result === 'missing') continue;
      if (result === 'referenced') {
        throw new ConflictError(RESOURCE_ERR.stillReferenced(`'${r.name}' was just used by a new package`));
      }
      // the record is gone first, so nothing can point at missing bytes; stray bytes are only logged
      await this.discardBlobs(bucket, [r.objectKey, ...(r.metadataKey ? [r.metadataKey] : [])]);
      await this.audit.append({
        subject: `RES#${r.id}`,
        action: 'RESOURCE_DELETED',
        meaning: `deletes the ${r.resourceType.toLowerCase()} '${r.name}' (${r.resourceStage}) and its files`,
        actorId: admin.id,
        actorName: admin.name,
        actorRole: admin.userRole,
        details: { name: r.name, fileName: r.fileName, sha256: r.sha256, sizeBytes: r.sizeBytes },
      });
    }
  }

  private newRecord(
    actor: Actor,
    id: string,
    name: string,
    type: ResourceType,
    stage: Stage,
    at: Date,
    file: {
      fileName: string;
      sizeBytes: number;
      sha256: string;
      metadataFileName?: string;
      metadataSizeBytes?: number;
      model?: ModelMetadata;
    },
  ): ResourceRecord {
    return {
      id,
      name,
      resourceStage: stage,
      resourceType: type,
      uploadTime: formatUploadTime(at),
      uploadedBy: { id: actor.id, name: actor.name },
      fileName: safeFileName(file.fileName),
      sizeBytes: file.sizeBytes,
      sha256: file.sha256,
      ...(file.model ? { modelName: file.model.modelName, modelVersion: file.model.modelVersion } : {}),
      objectKey: resourceKey(id, file.fileName),
      ...(file.metadataFileName ? { metadataKey: metadataKey(id, file.metadataFileName) } : {}),
      ...(file.metadataFileName && file.metadataSizeBytes !== undefined
        ? { metadataSizeBytes: file.metadataSizeBytes }
        : {}),
      createdAt: at.toISOString(),
    };
  }

  private async readStagedMetadata(bucket: string, upload: PendingUpload): Promise<Uint8Array> {
    const key = upload.metadataStagingKey;
    const declared = upload.metadataSizeBytes ?? 0;
    if (!key) throw new BadRequestError(RESOURCE_ERR.missingMetadataFile);
    const head = await this.blobs.head(bucket, key);
    if (!head) throw new BadRequestError(RESOURCE_ERR.notUploaded('metadata file'));
    if (head.sizeBytes !== declared) {
      if (head.sizeBytes === 0) throw new NotAcceptableError(MSG.fileTooSmall);
      throw new NotAcceptableError(RESOURCE_ERR.sizeMismatch('metadata file', head.sizeBytes, declared));
    }
    // small by configuration (MAX_METADATA_BYTES), so reading it whole is fine
    return (await this.blobs.readRange(bucket, key, 0, declared - 1)) ?? new Uint8Array();
  }

  /** Streams `from` to `to`, hashing on the way; the object must still have the size checked before. */
  private async copyHashing(bucket: string, from: string, to: string, sizeBytes: number): Promise<string> {
    const source = await this.blobs.get(bucket, from);
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
      await Promise.all([pipeline(source, tap), this.blobs.put(bucket, to, tap, { sizeBytes })]);
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

  /** The upload event is part of the upload: if it cannot be recorded, the upload is undone. */
  private async auditUploadOrRollBack(actor: Actor, record: ResourceRecord, keys: string[], how: string) {
    try {
      await this.audit.append({
        subject: `RES#${record.id}`,
        action: 'RESOURCE_UPLOADED',
        meaning: `uploads the ${record.resourceType.toLowerCase()} '${record.name}' to ${record.resourceStage} (${how})`,
        actorId: actor.id,
        actorName: actor.name,
        actorRole: actor.userRole,
        details: {
          name: record.name,
          fileName: record.fileName,
          sizeBytes: record.sizeBytes,
          sha256: record.sha256,
          ...(record.modelName ? { modelName: record.modelName, modelVersion: record.modelVersion } : {}),
        },
      });
    } catch (e) {
      try {
        await this.repo.delete(record);
      } catch (cleanup) {
        logCleanupFailure('record', [record.id], cleanup);
      }
      await this.discardBlobs(this.config.bucket(), keys);
      throw e;
    }
  }

  private async abandon(bucket: string, upload: PendingUpload, extraKeys: string[]): Promise<void> {
    await this.discardBlobs(bucket, [...stagingKeys(upload), ...extraKeys]);
    try {
      await this.repo.deletePendingUpload(upload.uploadId);
    } catch (e) {
      logCleanupFailure('pending upload', [upload.uploadId], e);
    }
  }

  /** Undoes a confirmation that failed for a passing reason: final copies go, the staged file stays. */
  private async release(bucket: string, upload: PendingUpload, finalKeys: string[], lockedAt: string) {
    await this.discardBlobs(bucket, finalKeys);
    try {
      await this.repo.unlockPendingUpload(upload.uploadId, lockedAt);
    } catch (e) {
      // the lock goes stale after CONFIRM_STALE_MS anyway; until then a retry answers 'busy'
      logCleanupFailure('pending upload lock', [upload.uploadId], e);
    }
  }

  /** Best effort: a failed cleanup is logged and must not hide the error that caused it. */
  private async discardBlobs(bucket: string, keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    try {
      await this.blobs.delete(bucket, keys);
    } catch (e) {
      logCleanupFailure('objects', keys, e);
    }
  }
}

function stagingKeys(upload: PendingUpload): string[] {
  return [upload.stagingKey, ...(upload.metadataStagingKey ? [upload.metadataStagingKey] : [])];
}
