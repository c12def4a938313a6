import type { CreateDcc, Dcc } from '../../shared/api/contracts/dcc';
import type { GeneratePackage, NotifyRequest, Package } from '../../shared/api/contracts/packages';
import type { Stage } from '../../shared/api/contracts/resources';
import type { PageRequest } from '../ports/package-repository';
import type { UserRecord } from '../ports/user-repository';
import { DccService } from './dcc-service';
import { Approval } from './packages/approval';
import { ApproverChoice } from './packages/approver-choice';
import { createPackage } from './packages/create-package';
import { Delivery } from './packages/delivery';
import { DraftEditing } from './packages/draft-editing';
import { deletePackages } from './packages/package-admin';
import { PackageCore } from './packages/package-core';
import type { PackagePage, PackageServiceDeps } from './packages/package-deps';
import { downloadPackage, packageHistory } from './packages/package-files';
import { PackageLists } from './packages/package-lists';
import { Signing } from './packages/signing';
import type { VoteOutcome } from './packages/voting-round';

export type { HeaderRules, PackagePage, PackageServiceDeps } from './packages/package-deps';
export { toPackage, userRef } from './packages/package-deps';

/**
 * The package use cases behind one face for the handlers (lambdas/services/packages/*: one file per use
 * case; the lifecycle in shared/domain/package-lifecycle.ts; DCCs in dcc-service.ts).
 */
export class PackageService {
  private readonly core: PackageCore;
  private readonly lists: PackageLists;
  private readonly drafts: DraftEditing;
  private readonly choice: ApproverChoice;
  private readonly approval: Approval;
  private readonly signing: Signing;
  private readonly delivery: Delivery;
  private readonly dcc: DccService;

  constructor(d: PackageServiceDeps) {
    this.core = new PackageCore(d);
    this.lists = new PackageLists(d.packages);
    this.drafts = new DraftEditing(this.core);
    this.choice = new ApproverChoice(this.core);
    this.approval = new Approval(this.core, this.choice);
    this.signing = new Signing(this.core);
    this.delivery = new Delivery(this.core, this.choice);
    this.dcc = new DccService(d);
  }

  // creation and lists
  generate(user: UserRecord, resourceId: string, req: GeneratePackage): Promise<Package> {
    return createPackage(this.core, user, resourceId, req);
  }
  listStage(stage: Stage): Promise<Package[]> {
    return this.lists.listStage(stage);
  }
  listDelivery(): Promise<Package[]> {
    return this.lists.listDelivery();
  }
  listAll(): Promise<Package[]> {
    return this.lists.listAll();
  }
  listStagePage(stage: Stage, page: PageRequest): Promise<PackagePage> {
    return this.lists.listStagePage(stage, page);
  }
  listDeliveryPage(page: PageRequest): Promise<PackagePage> {
    return this.lists.listDeliveryPage(page);
  }
  listAllPage(page: PageRequest): Promise<PackagePage> {
    return this.lists.listAllPage(page);
  }
  listApproval(user: UserRecord, list: 'DEV' | 'RELEASE' | 'DELIVER'): Promise<Package[]> {
    return this.lists.listApproval(user, list);
  }
  listSigning(user: UserRecord, stage: Stage): Promise<Package[]> {
    return this.lists.listSigning(user, stage);
  }

  // the draft: header and DCC
  getHeader(id: string): Promise<unknown> {
    return this.drafts.getHeader(id);
  }
  updateHeader(user: UserRecord, id: string, submitted: unknown): Promise<unknown> {
    return this.drafts.updateHeader(user, id, submitted);
  }
  attachDcc(user: UserRecord, id: string, dccId: string): Promise<Package> {
    return this.drafts.attachDcc(user, id, dccId);
  }
  createDcc(user: UserRecord, req: CreateDcc): Promise<Dcc> {
    return this.dcc.create(user, req);
  }
  listDcc(): Promise<Dcc[]> {
    return this.dcc.list();
  }

  // the approval round and signing
  approvers(user: UserRecord, id: string, withSigners: boolean) {
    return this.choice.approvers(user, id, withSigners);
  }
  notify(user: UserRecord, id: string, req: NotifyRequest): Promise<Package> {
    return this.approval.notify(user, id, req);
  }
  approve(user: UserRecord, id: string): Promise<VoteOutcome> {
    return this.approval.approve(user, id);
  }
  reject(user: UserRecord, id: string, note: string): Promise<Package> {
    return this.approval.reject(user, id, note);
  }
  sign(user: UserRecord, id: string): Promise<Package> {
    return this.signing.sign(user, id);
  }
  rejectSigning(user: UserRecord, id: string, note: string): Promise<Package> {
    return this.signing.rejectSigning(user, id, note);
  }

  // the delivery round
  deliver(user: UserRecord, id: string, req: NotifyRequest): Promise<Package> {
    return this.delivery.deliver(user, id, req);
  }
  approveDelivery(user: UserRecord, id: string): Promise<VoteOutcome> {
    return this.delivery.approveDelivery(user, id);
  }
  rejectDelivery(user: UserRecord, id: string, note: string): Promise<Package> {
    return this.delivery.rejectDelivery(user, id, note);
  }

  // files, history, admin
  download(id: string) {
    return downloadPackage(this.core, id);
  }
  history(id: string) {
    return packageHistory(this.core, id);
  }
  deletePackages(admin: UserRecord, ids: string[]): Promise<void> {
    return deletePackages(this.core, admin, ids);
  }
  deleteDccs(admin: UserRecord, ids: string[]): Promise<void> {
    return this.dcc.delete(admin, ids);
  }
}
