import type { ProvenanceFields } from '../../../shared/api/contracts/provenance';
import type { ResourceType, Stage } from '../../../shared/api/contracts/resources';
import { nameClaimKey } from '../../../shared/domain/resource-rules';
import type { Recorded } from '../../ports/audit-log';
import { systemClock } from '../../ports/clock';
import type {
  AttachOutcome,
  PendingUpload,
  ResourceProvenanceStore,
  ResourceRecord,
  ResourceRepository,
  UploadActor,
  UploadOutcome,
  UploadRefusal,
} from '../../ports/resource-repository';
import { MemoryAuditLog } from './audit-log';
import { ItemMap } from './item-map';

const newestFirst = (a: ResourceRecord, b: ResourceRecord) => b.createdAt.localeCompare(a.createdAt);

/**
 * Resources in memory with the DynamoDB adapter's rules: one claim per name (compared as `nameClaimKey`
 * compares), taken with the record; a record counted as used by a package (`countPackageRef`) cannot be
 * deleted; a pending upload is consumed by the resource it becomes, and locked by one confirmation; each
 * write records its events with it (decision 283).
 */
export class MemoryResourceRepository implements ResourceRepository, ResourceProvenanceStore {
  constructor(readonly audit = new MemoryAuditLog(systemClock)) {}

  private readonly records = new ItemMap<ResourceRecord>();
  /** name claim → resource id */
  private readonly names = new Map<string, string>();
  private readonly uploads = new ItemMap<PendingUpload>();
  private readonly packageRefs = new Map<string, number>();
  private readonly outcomes = new Map<string, UploadOutcome>();

  async getById(id: string): Promise<ResourceRecord | null> {
    return this.records.get(id);
  }

  async isNameTaken(name: string): Promise<boolean> {
    return this.names.has(nameClaimKey(name));
  }

  async create(
    record: ResourceRecord,
    consumeUploadId?: string,
    commit: Recorded = {},
  ): Promise<'ok' | 'nameTaken' | 'uploadGone'> {
    if (this.names.has(nameClaimKey(record.name))) return 'nameTaken';
    if (consumeUploadId !== undefined && !this.uploads.has(consumeUploadId)) return 'uploadGone';
    this.records.putNew(record.id, record);
    this.audit.record(commit.events);
    this.names.set(nameClaimKey(record.name), record.id);
    if (consumeUploadId !== undefined) {
      this.uploads.delete(consumeUploadId);
      this.outcomes.set(consumeUploadId, { ownerId: record.uploadedBy.id, resourceId: record.id });
    }
    return 'ok';
  }

  async attachProvenance(
    id: string,
    fields: ProvenanceFields,
    commit: Recorded = {},
  ): Promise<AttachOutcome> {
    const r = this.records.get(id);
    if (!r) return 'missing';
    if (fields.provenance && r.provenance) return 'provenanceTaken';
    if (fields.sbom && r.sbom) return 'sbomTaken';
    this.records.set(id, { ...r, ...fields });
    this.audit.record(commit.events);
    return 'ok';
  }

  async listByTypeStage(type: ResourceType, stage: Stage): Promise<ResourceRecord[]> {
    return (await this.listAll()).filter((r) => r.resourceType === type && r.resourceStage === stage);
  }

  async listAll(): Promise<ResourceRecord[]> {
    return this.records.all().sort(newestFirst);
  }

  async delete(record: ResourceRecord, commit: Recorded = {}): Promise<'ok' | 'referenced' | 'missing'> {
    if (!this.records.has(record.id)) return 'missing';
    if ((this.packageRefs.get(record.id) ?? 0) > 0) return 'referenced';
    this.records.delete(record.id);
    this.audit.record(commit.events);
    if (this.names.get(nameClaimKey(record.name)) === record.id) this.names.delete(nameClaimKey(record.name));
    return 'ok';
  }

  /** A package now uses the resource (what package creation counts in the same transaction). */
  countPackageRef(resourceId: string): void {
    this.packageRefs.set(resourceId, (this.packageRefs.get(resourceId) ?? 0) + 1);
  }

  async putPendingUpload(upload: PendingUpload): Promise<void> {
    this.uploads.putNew(upload.uploadId, upload);
  }

  async getPendingUpload(uploadId: string): Promise<PendingUpload | null> {
    return this.uploads.get(uploadId);
  }

  async lockPendingUpload(
    uploadId: string,
    ownerId: string,
    at: string,
    staleBefore: string,
  ): Promise<boolean> {
    const u = this.uploads.stored(uploadId);
    if (!u || u.ownerId !== ownerId) return false;
    const verifying = u.verifyJobId !== undefined && u.verifyFailure === undefined;
    if (verifying && u.confirmingAt !== undefined && u.confirmingAt >= staleBefore) return false;
    u.confirmingAt = at;
    return true;
  }

  async unlockPendingUpload(uploadId: string, lockedAt: string): Promise<void> {
    const u = this.uploads.stored(uploadId);
    if (u?.confirmingAt === lockedAt) delete u.confirmingAt;
  }

  async deletePendingUpload(uploadId: string): Promise<void> {
    this.uploads.delete(uploadId);
  }

  async startVerification(
    uploadId: string,
    lockedAt: string,
    jobId: string,
    by: UploadActor,
    _keepUntil: string,
    etags?: readonly string[],
  ): Promise<boolean> {
    const u = this.uploads.stored(uploadId);
    if (u?.confirmingAt !== lockedAt) return false;
    if (etags) u.completeEtags = [...etags];
    u.verifyJobId = jobId;
    u.verifyingFor = { ...by };
    u.verifiedBytes = 0;
    delete u.verifyFailure;
    return true;
  }

  async recordVerification(uploadId: string, jobId: string, verifiedBytes: number): Promise<boolean> {
    const u = this.uploads.stored(uploadId);
    if (u?.verifyJobId !== jobId) return false;
    u.verifiedBytes = verifiedBytes;
    return true;
  }

  async failVerification(uploadId: string, jobId: string, reason: string): Promise<boolean> {
    const u = this.uploads.stored(uploadId);
    if (u?.verifyJobId !== jobId) return false;
    u.verifyFailure = reason;
    delete u.confirmingAt;
    return true;
  }

  async refuseUpload(
    uploadId: string,
    ownerId: string,
    refusal: UploadRefusal,
    _keepUntil: string,
  ): Promise<void> {
    this.uploads.delete(uploadId);
    this.outcomes.set(uploadId, { ownerId, refusal: { ...refusal } });
  }

  async getUploadOutcome(uploadId: string): Promise<UploadOutcome | null> {
    return this.outcomes.get(uploadId) ?? null;
  }
}
