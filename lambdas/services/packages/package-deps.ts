import type { ApproverEntry, Package, SignatureProof, UserRef } from '../../../shared/api/contracts/packages';
import { deletionProposalView } from '../../../shared/domain/deletion-proposals';
import { approverList } from '../../../shared/domain/package-rules';
import {
  type SignatureAction,
  type SignatureMethod,
  signatureMeaning,
} from '../../../shared/domain/signature-meanings';
import type { ArtefactJobs } from '../../ports/artefact-jobs';
import type { ArtefactService, MetadataDigest } from '../../ports/artefact-service';
import type { AuditLog } from '../../ports/audit-log';
import type { Clock } from '../../ports/clock';
import type { DccRepository } from '../../ports/dcc-repository';
import type { PackageRecord, PackageRepository, Page } from '../../ports/package-repository';
import type { ResourceRepository } from '../../ports/resource-repository';
import type { UserRecord, UserRepository } from '../../ports/user-repository';

/** Header rules the service needs (the template, validation and computed fields live in shared/domain/header). */
export interface HeaderRules {
  initial(pkg: Pick<PackageRecord, 'type'>, resource: { sizeBytes: number }): unknown;
  update(
    current: unknown,
    submitted: unknown,
    pkg: Pick<PackageRecord, 'type'>,
    resource: { sizeBytes: number },
  ): unknown;
}

/** What the package use cases need; the repositories only as far as they read them. */
export interface PackageServiceDeps {
  packages: PackageRepository;
  resources: Pick<ResourceRepository, 'getById'>;
  dccs: DccRepository;
  users: Pick<UserRepository, 'getById' | 'listByRole'>;
  audit: AuditLog;
  artefacts: () => ArtefactService;
  /**
   * reads a model's metadata file to pin it on a package made from a model uploaded before its digest was
   * recorded (decision 190); only the generatePackage route has one (composition-storage.ts)
   */
  metadataDigest?: () => MetadataDigest;
  /** starts XML generations off the request path (docs/decisions/160) */
  jobs: () => ArtefactJobs;
  header: HeaderRules;
  clock: Clock;
  appUrl: string;
  /** the signer check of every deciding call (password, passkey or company sign-in: decisions 141, 322) */
  signatures: SignatureCheck;
}

/**
 * Checks who signs a deciding call (decisions 141, 322): resolves with the method that confirmed the
 * signature, or throws 403 (wrong, used, foreign or missing proof; a password where the stage requires a
 * passkey), 400 (an unusable proof) or 429 (throttled).
 */
export interface SignatureCheck {
  confirm(user: UserRecord, proof: SignatureProof, sourceIp: string): Promise<SignatureMethod>;
}

export type { SignatureMethod, SignatureProof };

/** What a deciding call brings for its signature: the proof and where the call came from (throttle key). */
export interface SignatureInput {
  proof: SignatureProof;
  sourceIp: string;
  /** the digest of the changes the deciding page showed (decision 266); absent from API clients */
  changesSeen?: string;
}

/** Approver entries with the meaning of each one's signed decision (approve / reject of the round). */
const withMeanings = (
  entries: ApproverEntry[],
  approve: SignatureAction,
  reject: SignatureAction,
  packageType: string,
) =>
  entries.map((e) =>
    e.approved || e.rejected
      ? { ...e, meaning: signatureMeaning(e.approved ? approve : reject, packageType) }
      : e,
  );

export const userRef = (u: Pick<UserRecord, 'id' | 'name' | 'email' | 'userRole'>): UserRef => ({
  id: u.id,
  name: u.name,
  email: u.email,
  userRole: u.userRole,
});

/** A package as the API returns it (spec §3 fields; approvers as ordered lists). */
export function toPackage(p: PackageRecord): Package {
  // a lapsed proposal is as if none were pending (the lists read no clock port: wall time is enough here)
  const deletionProposal = deletionProposalView(p, new Date());
  return {
    id: p.id,
    name: p.name,
    type: p.type,
    status: p.status,
    resourceId: p.resourceId,
    resourceName: p.resourceName,
    resourceType: p.resourceType,
    resourceStage: p.resourceStage,
    initiator: p.initiator,
    uploadTime: p.uploadTime,
    note: p.note,
    signed: p.signed,
    dccId: p.dccId,
    ...(p.resourceFile ? { resourceFile: p.resourceFile } : {}),
    ...(p.dcc ? { dcc: p.dcc } : {}),
    ...(p.copiedFrom ? { copiedFrom: p.copiedFrom } : {}),
    approvers: withMeanings(approverList(p.approvers), 'approve', 'reject', p.type),
    signer: p.signer,
    linkToS3: p.linkToS3,
    mLifePath: p.mLifePath,
    ...(p.generation ? { generation: p.generation } : {}),
    deliveryApprovers: withMeanings(
      approverList(p.deliveryApprovers),
      'approveDelivery',
      'rejectDelivery',
      p.type,
    ),
    rejectionNote: p.rejectionNote,
    ...(p.mailFailures?.length ? { mailFailures: p.mailFailures } : {}),
    ...(p.deliverer ? { deliverer: p.deliverer } : {}),
    ...(deletionProposal ? { deletionProposal } : {}),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

/** A page of a package list as the API returns it. */
export interface PackagePage {
  packages: Package[];
  nextCursor?: string;
}

export const toPackagePage = (p: Page<PackageRecord>): PackagePage => ({
  packages: p.items.map(toPackage),
  ...(p.next ? { nextCursor: p.next } : {}),
});
