import type { DeletionProposalView } from '../deletion-proposals';
import type { Role } from '../roles';
import type { Dcc, DccValues } from './dcc';
import type { ProvenanceFields } from './provenance';
import type { Resource, ResourceType, Stage } from './resource';

/**
 * The package as the domain knows it: types, states, approver entries and the stored fields. The API's
 * zod schemas (shared/api/contracts/records.ts) are checked against these types both ways.
 */
export const PACKAGE_TYPES = ['DEV_UNSIGNED', 'DEV_SIGNED', 'RELEASE_UNSIGNED', 'RELEASE_SIGNED'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];

/** Server-side lifecycle state (DESIGN §2). */
export const PACKAGE_STATUSES = [
  'DRAFT',
  'PENDING_APPROVAL',
  'APPROVED',
  'AWAITING_SIGNATURE',
  'GENERATING',
  'SIGNED',
  'REJECTED',
  'DELIVERY_PENDING',
  'DELIVERED',
  'DELIVERY_REJECTED',
] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/** the earlier package a draft was started from, and what was copied from it. */
export interface CopiedFrom {
  id: string;
  name: string;
  status: PackageStatus;
  /** names of the header fields whose value differs from the new package's template */
  fields: string[];
  /** the DCC copied with it (its device id and telemetry type), absent when none was */
  dcc?: { dccId: string; deviceId: string; telemetryType: string };
}

/** an earlier package a new one may start from (GET /resources/{id}/package-sources). */
export interface PackageSource {
  id: string;
  name: string;
  status: PackageStatus;
  type: PackageType;
  createdAt: string;
  updatedAt: string;
  initiatorName: string;
  deviceId?: string;
  /** why it is offered: a package of the same resource, or of the same device (DCC device id, decision 268) */
  match?: 'resource' | 'device';
}

export interface UserRef {
  id: string;
  name: string;
  email: string;
  userRole: Role;
}

/** One approver of a package or a delivery (spec §3 "Delivery approver entry"). */
export interface ApproverEntry {
  user: UserRef;
  role: Role;
  approved: boolean;
  rejected: boolean;
  rejectionNote?: string;
  decidedAt?: string;
  /** what the person's signed decision means (shared/domain/signature-meanings.ts); absent while undecided */
  meaning?: string;
}

/**
 * The package's resource file as reviewers see it (decision 150): recorded when the package is created,
 * so the review page shows what approvers certify without another call. Models add their metadata.
 */
export interface PackageResourceFile extends ProvenanceFields {
  fileName: string;
  sizeBytes: number;
  sha256: string;
  modelName?: string;
  modelVersion?: string;
  /**
   * Models: the metadata file (the package's patch config) as pinned for review (decision 190): its exact
   * size and SHA-256, recorded at upload, or at package creation / notify for older resources. Generation
   * refuses a metadata file that differs. Absent for patches and on packages sent for review before.
   */
  metadataSizeBytes?: number;
  metadataSha256?: string;
}

/** The attached DCC's values (decision 150), recorded when the DCC is attached. */
export type PackageDccValues = DccValues;

export const resourceFileOf = (
  r: Resource,
  metadata?: { sizeBytes: number; sha256: string },
): PackageResourceFile => ({
  fileName: r.fileName,
  sizeBytes: r.sizeBytes,
  sha256: r.sha256,
  ...(r.modelName !== undefined ? { modelName: r.modelName } : {}),
  ...(r.modelVersion !== undefined ? { modelVersion: r.modelVersion } : {}),
  ...(metadata ? { metadataSizeBytes: metadata.sizeBytes, metadataSha256: metadata.sha256 } : {}),
  // the resource's build provenance and SBOM, pinned like the payload (decision 276)
  ...(r.provenance ? { provenance: r.provenance } : {}),
  ...(r.sbom ? { sbom: r.sbom } : {}),
});

export const dccValuesOf = (d: DccValues | Dcc): PackageDccValues => ({
  deviceId: d.deviceId,
  telemetryType: d.telemetryType,
  messageLimit: d.messageLimit,
  deviceLimit: d.deviceLimit,
});

/** The fields a package has both as stored (lambdas/ports/package-repository.ts) and as lists return it. */
export interface PackageFields {
  id: string;
  name: string;
  type: PackageType;
  status: PackageStatus;
  resourceId: string;
  resourceName: string;
  resourceType: ResourceType;
  resourceStage: Stage;
  initiator: UserRef;
  uploadTime: string;
  note: string;
  signed: boolean;
  dccId?: string;
  /** the resource file's name, size, SHA-256 and model metadata (absent on packages made before decision 150) */
  resourceFile?: PackageResourceFile;
  /** the attached DCC's values (absent without a DCC, and on packages given one before decision 150) */
  dcc?: PackageDccValues;
  /** the earlier package this one was started from, and what was copied */
  copiedFrom?: CopiedFrom;
  signer?: UserRef;
  rejectionNote?: string;
  linkToS3?: string;
  mLifePath?: string;
  /** the XML's generation while it runs (GENERATING) or after it failed (docs/decisions/160) */
  generation?: Generation;
  createdAt: string;
  updatedAt: string;
}

/**
 * A generation of the package's XML off the request path: RUNNING with progress while the package is
 * GENERATING; FAILED (with the reason) once the worker gave up and the package returned to `from`, where
 * `requestedBy` (the last approver, or the signer) may retry it. A successful generation removes it.
 */
export interface Generation {
  jobId: string;
  state: 'RUNNING' | 'FAILED';
  /** the status before the deciding call (a failure returns the package there) */
  from: PackageStatus;
  requestedBy: UserRef;
  requestedAt: string;
  bytesDone: number;
  bytesTotal: number;
  reason?: string;
  failedAt?: string;
}

/** A package as lists return it (spec §3 field names). */
export interface Package extends PackageFields {
  approvers: ApproverEntry[];
  deliveryApprovers: ApproverEntry[];
  /**
   * Workflow mails about this package that could not be delivered after every retry (decision 095);
   * absent when there are none. The details page shows them to the initiator and admins.
   */
  mailFailures?: { to: string; subject: string; reason: string; at: string }[];
  /** the release engineer who last sent it for delivery (a delivery comes from them); absent before */
  deliverer?: UserRef;
  /** a deletion one admin proposed, waiting for a second admin (a DELIVERED package: decision 336) */
  deletionProposal?: DeletionProposalView;
}

/**
 * What one package waits for from the caller (GET /packages/{id}/details): their approval,
 * their delivery approval or their signature; null when nothing of theirs.
 */
export const WAITING_FOR = ['APPROVE', 'APPROVE_DELIVERY', 'SIGN'] as const;
export type WaitingFor = (typeof WAITING_FOR)[number];
