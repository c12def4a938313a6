import type { ListViewRequest, Package, WaitingFor } from '../../../shared/api/contracts/packages';
import type { Stage } from '../../../shared/api/contracts/resources';
import { PACKAGE_LIST } from '../../../shared/domain/list-columns';
import { filterRows, type SortValue, sortRows } from '../../../shared/domain/list-view';
import {
  APPROVAL_ROUND,
  allVoted,
  DELIVERY_ROUND,
  isWaitingForSignature,
  type VotingRound,
} from '../../../shared/domain/package-lifecycle';
import type {
  CompactPackage,
  PackageListName,
  PackageRecord,
  PackageRepository,
  PageRequest,
} from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import { packageNotFound } from './package-core';
import { type PackagePage, toPackage, toPackagePage } from './package-deps';

/** The value a list view sorts a column by: the table's (shared/domain/list-columns.ts, decision 260). */
const sortValue = (p: CompactPackage, by: string): SortValue =>
  PACKAGE_LIST.sorts[by as keyof typeof PACKAGE_LIST.sorts]?.(p) ?? '';

export interface PackageView {
  packages: Package[];
  total: number;
}

const newestFirst = (list: PackageRecord[]) =>
  list.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map(toPackage);

/** The package lists of spec §4 and §7: by stage, in delivery, all; and what waits for the caller. */
export class PackageLists {
  constructor(private readonly packages: PackageRepository) {}

  async listStage(stage: Stage): Promise<Package[]> {
    return (await this.packages.listByStage(stage)).map(toPackage);
  }

  async listDelivery(): Promise<Package[]> {
    return (await this.packages.listDelivery()).map(toPackage);
  }

  async listAll(): Promise<Package[]> {
    return (await this.packages.listAll()).map(toPackage);
  }

  /** The lists above a page at a time (docs/decisions/050-package-list-paging.md). */
  async listStagePage(stage: Stage, page: PageRequest): Promise<PackagePage> {
    return toPackagePage(await this.packages.listByStagePage(stage, page));
  }

  async listDeliveryPage(page: PageRequest): Promise<PackagePage> {
    return toPackagePage(await this.packages.listDeliveryPage(page));
  }

  async listAllPage(page: PageRequest): Promise<PackagePage> {
    return toPackagePage(await this.packages.listAllPage(page));
  }

  /**
   * One page of a list as the table shows it (decision 210): searched (name, resource name, note; spec
   * §5) and sorted (spec §4.8) over the compact list index, then only the page's packages read whole.
   * `total` counts the rows the search matched, for the table's 'from-to of total'.
   */
  async view(list: PackageListName, req: ListViewRequest): Promise<PackageView> {
    for (let attempt = 0; ; attempt++) {
      const entries = await this.packages.compactList(list);
      const found = filterRows(entries, req.search, PACKAGE_LIST.search);
      const sorted = req.sort
        ? sortRows(found, { columnId: req.sort.by, direction: req.sort.direction }, sortValue)
        : found;
      const ids = sorted.slice(req.offset, req.offset + req.limit).map((p) => p.id);
      const byId = new Map((await this.packages.getMany(ids)).map((p) => [p.id, p]));
      const gone = ids.filter((id) => !byId.has(id));
      // a package deleted since the index last looked: drop its entry and cut the page again (once)
      if (gone.length && attempt === 0) {
        this.packages.forgetCompact(gone);
        continue;
      }
      const packages = ids.flatMap((id) => {
        const p = byId.get(id);
        return p ? [toPackage(p)] : [];
      });
      return { packages, total: sorted.length - gone.length };
    }
  }

  /** How many packages the list holds (from the compact index: nothing of the packages is read). */
  async count(list: PackageListName): Promise<number> {
    return (await this.packages.compactList(list)).length;
  }

  /** The caller's own DRAFTs of a stage (the home page's "your drafts"), newest first. */
  async myDrafts(user: UserRecord, stage: Stage): Promise<Package[]> {
    return (await this.packages.draftsOf(user.id, stage)).map(toPackage);
  }

  /** What waits for the caller's approval: dev, release or deliver (spec §7). */
  async listApproval(user: UserRecord, list: 'DEV' | 'RELEASE' | 'DELIVER'): Promise<Package[]> {
    const round = list === 'DELIVER' ? DELIVERY_ROUND : APPROVAL_ROUND;
    const ids = await this.packages.taskPackageIds(
      user.id,
      round.task,
      list === 'DELIVER' ? undefined : list,
    );
    // tasks are removed after each decision; the filter also hides any task a failed removal left behind
    return newestFirst((await this.packages.getMany(ids)).filter((p) => waitsForVote(p, user, round)));
  }

  /** What waits for the caller's signature: dev or release. */
  async listSigning(user: UserRecord, stage: Stage): Promise<Package[]> {
    const ids = await this.packages.taskPackageIds(user.id, 'SIGN', stage);
    return newestFirst((await this.packages.getMany(ids)).filter((p) => waitsForSignature(p, user)));
  }

  /**
   * One package by id for a deep link: the package and the decision it waits for from the
   * caller, by the same rules as the approval and signing lists, so the link opens the page a click in
   * that list opens. Any signed-in user may read a package (DESIGN §2); an unknown id is a 404.
   */
  async openOne(user: UserRecord, id: string): Promise<{ pkg: Package; waitingFor: WaitingFor | null }> {
    const p = await this.packages.get(id);
    if (!p) throw await packageNotFound(this.packages, id);
    const waitingFor: WaitingFor | null = waitsForVote(p, user, APPROVAL_ROUND)
      ? 'APPROVE'
      : waitsForVote(p, user, DELIVERY_ROUND)
        ? 'APPROVE_DELIVERY'
        : waitsForSignature(p, user)
          ? 'SIGN'
          : null;
    return { pkg: toPackage(p), waitingFor };
  }
}

/** Whether the package waits for the user's vote in the round (the approval and delivery lists' rule). */
function waitsForVote(p: PackageRecord, user: UserRecord, round: VotingRound): boolean {
  const entry = p[round.list][user.id];
  return (
    p.status === round.waiting &&
    !!entry &&
    !entry.rejected &&
    // approved already: listed again only while a failed completion waits for the approver's retry
    (!entry.approved || (round.lastTaskStaysUntilDone && allVoted(p, round)))
  );
}

/** Whether the package waits for the user's signature (the signing list's rule). */
function waitsForSignature(p: PackageRecord, user: UserRecord): boolean {
  return isWaitingForSignature(p.status) && p.signer?.id === user.id;
}
