import type { CreateDcc } from '../../shared/api/contracts/dcc';
import type {
  GeneratePackage,
  ListPageQuery,
  NotifyRequest,
  Package,
  PackageDeletionRequest,
  ReassignRequest,
  UpdateDraft,
} from '../../shared/api/contracts/packages';
import type { Stage } from '../../shared/api/contracts/resources';
import type { GenerationJob } from '../ports/artefact-jobs';
import type { PackageListName, PageRequest } from '../ports/package-repository';
import type { UserRecord } from '../ports/user-repository';
import { DccService } from './dcc-service';
import { Approval } from './packages/approval';
import { ApproverChoice } from './packages/approver-choice';
import { ChangeOfPeople } from './packages/change-of-people';
import { createPackage } from './packages/create-package';
import { Delivery } from './packages/delivery';
import { DraftEditing } from './packages/draft-editing';
import { Generation } from './packages/generation';
import { listAnswer } from './packages/list-answer';
import { deletePackages } from './packages/package-admin';
import { changesOf, type DecisionDetails, type SignedBy, seenChanges } from './packages/package-changes';
import { PackageCore } from './packages/package-core';
import type { PackageServiceDeps, SignatureInput } from './packages/package-deps';
import { downloadPackage, packageHistory } from './packages/package-files';
import { PackageLists } from './packages/package-lists';
import { provenanceStatementOf } from './packages/provenance-statement';
import { Signing } from './packages/signing';
import { packageSources } from './packages/start-from';

export type {
  HeaderRules,
  PackagePage,
  PackageServiceDeps,
  SignatureCheck,
  SignatureInput,
} from './packages/package-deps';
export { toPackage, userRef } from './packages/package-deps';

/**
 * The package use cases behind one face for the handlers: one line per public method, each handing the
 * call to its use case (lambdas/services/packages/*: one file per use case; the lifecycle in
 * shared/domain/package-lifecycle.ts; DCCs in dcc-service.ts).
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
  private readonly generation: Generation;
  private readonly people: ChangeOfPeople;

  constructor(d: PackageServiceDeps) {
    this.core = new PackageCore(d);
    this.lists = new PackageLists(d.packages);
    this.drafts = new DraftEditing(this.core);
    this.choice = new ApproverChoice(this.core);
    this.approval = new Approval(this.core, this.choice);
    this.signing = new Signing(this.core);
    this.delivery = new Delivery(this.core, this.choice);
    this.dcc = new DccService(d);
    this.generation = new Generation(this.core);
    this.people = new ChangeOfPeople(this.core, this.choice);
  }

  // creation and lists
  readonly generate = (user: UserRecord, resourceId: string, req: GeneratePackage): Promise<Package> =>
    createPackage(this.core, user, resourceId, req);
  readonly listStage = (stage: Stage) => this.lists.listStage(stage);
  readonly listDelivery = () => this.lists.listDelivery();
  readonly listAll = () => this.lists.listAll();
  readonly listStagePage = (stage: Stage, page: PageRequest) => this.lists.listStagePage(stage, page);
  readonly listDeliveryPage = (page: PageRequest) => this.lists.listDeliveryPage(page);
  readonly listAllPage = (page: PageRequest) => this.lists.listAllPage(page);
  /** the three package-list calls' answer: whole, cursor page or list view (list-answer.ts) */
  readonly listAnswer = (list: PackageListName, query: ListPageQuery | undefined) =>
    listAnswer(list, query, {
      whole: () =>
        list === 'DELIVERY'
          ? this.lists.listDelivery()
          : list === 'ALL'
            ? this.lists.listAll()
            : this.lists.listStage(list),
      page: (page) =>
        list === 'DELIVERY'
          ? this.lists.listDeliveryPage(page)
          : list === 'ALL'
            ? this.lists.listAllPage(page)
            : this.lists.listStagePage(list, page),
      view: (l, req) => this.lists.view(l, req),
      count: (l) => this.lists.count(l),
    });
  readonly myDrafts = (user: UserRecord, stage: Stage) => this.lists.myDrafts(user, stage);
  readonly listApproval = (user: UserRecord, list: 'DEV' | 'RELEASE' | 'DELIVER') =>
    this.lists.listApproval(user, list);
  readonly listSigning = (user: UserRecord, stage: Stage) => this.lists.listSigning(user, stage);
  readonly openOne = (user: UserRecord, id: string) => this.lists.openOne(user, id);

  /** the changes since the last approved package for the same device and resource type */
  readonly changes = (id: string) => changesOf(this.core, id);

  // the draft: header and DCC
  readonly getHeader = (id: string) => this.drafts.getHeader(id);
  readonly updateHeader = (user: UserRecord, id: string, submitted: unknown) =>
    this.drafts.updateHeader(user, id, submitted);
  readonly updateDraft = (user: UserRecord, id: string, req: UpdateDraft) =>
    this.drafts.updateDraft(user, id, req);
  readonly packageSources = (resourceId: string, deviceId?: string) =>
    packageSources(this.core, resourceId, deviceId);
  readonly attachDcc = (user: UserRecord, id: string, dccId: string) =>
    this.drafts.attachDcc(user, id, dccId);
  readonly createDcc = (user: UserRecord, req: CreateDcc) => this.dcc.create(user, req);
  readonly listDcc = () => this.dcc.list();

  // the approval round and signing
  readonly approvers = (user: UserRecord, id: string, withSigners: boolean) =>
    this.choice.approvers(user, id, withSigners);
  readonly notify = (user: UserRecord, id: string, req: NotifyRequest) => this.approval.notify(user, id, req);
  // every decision is an electronic signature: the password is checked first (decision 141)
  readonly approve = (user: UserRecord, id: string, sig: SignatureInput) =>
    this.reviewed(user, id, sig, (seen) => this.approval.vote(user, id, seen));
  readonly reject = (user: UserRecord, id: string, note: string, sig: SignatureInput) =>
    this.reviewed(user, id, sig, (seen) => this.approval.reject(user, id, note, seen));
  readonly sign = (user: UserRecord, id: string, sig: SignatureInput) =>
    this.reviewed(user, id, sig, (seen) => this.signing.sign(user, id, seen));
  readonly rejectSigning = (user: UserRecord, id: string, note: string, sig: SignatureInput) =>
    this.reviewed(user, id, sig, (seen) => this.signing.rejectSigning(user, id, note, seen));

  // the delivery round
  readonly deliver = (user: UserRecord, id: string, req: NotifyRequest, sig: SignatureInput) =>
    this.signed(user, sig, (how) => this.delivery.deliver(user, id, req, how));
  readonly approveDelivery = (user: UserRecord, id: string, sig: SignatureInput) =>
    this.reviewed(user, id, sig, (seen) => this.delivery.vote(user, id, seen));
  readonly rejectDelivery = (user: UserRecord, id: string, note: string, sig: SignatureInput) =>
    this.reviewed(user, id, sig, (seen) => this.delivery.reject(user, id, note, seen));

  /**
   * Runs a decision once its signer is confirmed (nothing happens before); the decision's audit event
   * records how (`signatureMethod`, decision 322).
   */
  private async signed<T>(
    user: UserRecord,
    sig: SignatureInput,
    decide: (how: SignedBy) => Promise<T>,
  ): Promise<T> {
    const signatureMethod = await this.core.confirmSignature(user, sig);
    return decide({ signatureMethod });
  }

  /**
   * A decision on a review page (decision 266): signed, then the comparison it was taken on is recomputed
   * (a stale one the page stated is refused, 409) and goes to the decision's audit record with the method.
   */
  private reviewed<T>(
    user: UserRecord,
    id: string,
    sig: SignatureInput,
    decide: (seen: DecisionDetails) => Promise<T>,
  ): Promise<T> {
    return this.signed(user, sig, async (how) => ({
      ...how,
      ...(await seenChanges(this.core, id, sig.changesSeen)),
    })).then(decide);
  }

  // change of people (decision 351): who left, reassign, withdraw; signed like every decision
  readonly departures = async (id: string) => this.people.departures(await this.core.mustGet(id));
  readonly attention = (user: UserRecord) => this.people.attention(user);
  readonly reassign = (user: UserRecord, id: string, req: ReassignRequest, sig: SignatureInput) =>
    this.signed(user, sig, (how) => this.people.reassign(user, id, req, how));
  readonly withdraw = (user: UserRecord, id: string, reason: string, sig: SignatureInput) =>
    this.signed(user, sig, (how) => this.people.withdraw(user, id, reason, how));

  // XML generation off the request path (docs/decisions/160)
  readonly runGeneration = (job: GenerationJob) => this.generation.run(job);
  readonly failGeneration = (job: GenerationJob, reason: string) => this.generation.fail(job, reason);
  readonly retryGeneration = (user: UserRecord, id: string) => this.generation.retry(user, id);

  // files, history, admin
  readonly download = (id: string) => downloadPackage(this.core, id);
  readonly history = (id: string) => packageHistory(this.core, id);
  readonly provenanceStatement = (id: string) => provenanceStatementOf(this.core, id);
  readonly deletePackages = (admin: UserRecord, req: PackageDeletionRequest, sourceIp: string) =>
    deletePackages(this.core, admin, req, sourceIp);
  readonly deleteDccs = (admin: UserRecord, ids: string[]) => this.dcc.delete(admin, ids);
}
