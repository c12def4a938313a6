import type { ApproverEntry, UserRef } from '../../../shared/api/contracts/packages';
import type { ResourceUser } from '../../../shared/api/contracts/resources';
import {
  APPROVAL_POLICY,
  approverRoles,
  excludedIds,
  signerCandidates,
} from '../../../shared/domain/approval-policy';
import { BadRequestError, ConflictError } from '../../../shared/domain/errors';
import { holdsAuthority } from '../../../shared/domain/identity';
import { canTransition, type RoundName } from '../../../shared/domain/package-lifecycle';
import { type Selection, selectionProblem, signerExclusion } from '../../../shared/domain/package-rules';
import { PACKAGE_ERR } from '../../../shared/domain/package-texts';
import { NON_ADMIN_ROLES, type Role, roleLabel } from '../../../shared/domain/roles';
import type { PackageRecord } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import type { PackageCore } from './package-core';
import { userRef } from './package-deps';

/** Whom an initiator or a release engineer may choose as approvers (and signer) of a package. */
export class ApproverChoice {
  constructor(private readonly core: PackageCore) {}

  /** Holders of a role who may act in it: confirmed and granted by an admin. */
  async candidates(): Promise<UserRecord[]> {
    const lists = await Promise.all(NON_ADMIN_ROLES.map((r) => this.core.d.users.listByRole(r)));
    return lists.flat().filter(holdsAuthority);
  }

  /** A chosen approver or signer whose role is not granted is refused by name, saying why. */
  async refuseUngranted(ids: readonly (string | undefined)[], candidates: UserRecord[]): Promise<void> {
    for (const id of ids) {
      if (!id || candidates.some((c) => c.id === id)) continue;
      const u = await this.core.d.users.getById(id);
      if (u && u.userRole !== 'ADMIN' && !holdsAuthority(u))
        throw new BadRequestError(
          `${u.name} cannot be chosen: their role ${roleLabel(u.userRole)} waits for an administrator's approval`,
        );
    }
  }

  /**
   * Who uploaded the package's resource, a party the policy keeps out (decision 331): pinned on the
   * package at creation; a package made before reads it from its resource, every time its approvers
   * are chosen (a resource is kept while a package uses it). Without either, nobody can be chosen.
   */
  async uploader(p: PackageRecord): Promise<ResourceUser> {
    if (p.uploader) return p.uploader;
    const resource = await this.core.d.resources.getById(p.resourceId);
    if (!resource) throw new ConflictError(PACKAGE_ERR.uploaderUnknown);
    return { id: resource.uploadedBy.id, name: resource.uploadedBy.name };
  }

  /**
   * The chosen approvers of a round as users, after the approval policy's checks (DESIGN §2,
   * shared/domain/approval-policy.ts): granted roles, one per role, none excluded (the uploader
   * included), every approving role with candidates, and the type's minimum of roles. `signer` (the
   * approval round's) must be granted and not one the policy keeps from signing. `starter` starts the
   * round (the initiator notifies, a release engineer delivers). `parties`: the package with its uploader.
   */
  async choose(
    round: RoundName,
    p: PackageRecord,
    selection: readonly Selection[],
    starter: UserRecord,
    signer?: string,
  ): Promise<{ chosen: UserRecord[]; candidates: UserRecord[]; parties: PackageRecord }> {
    const parties: PackageRecord = { ...p, uploader: await this.uploader(p) };
    const candidates = await this.candidates();
    await this.refuseUngranted(
      signer === undefined ? selection.map((a) => a.id) : [...selection.map((a) => a.id), signer],
      candidates,
    );
    const problem = selectionProblem(round, parties, selection, candidates, starter.id);
    if (problem) throw new BadRequestError(problem);
    const notSigner = signer === undefined ? null : signerExclusion(parties, signer);
    if (notSigner) throw new BadRequestError(notSigner);
    return { chosen: selection.map((s) => candidates.find((c) => c.id === s.id)!), candidates, parties };
  }

  /**
   * Candidates per approving role of the round the package is in (its excluded parties left out) and,
   * when asked, the signers (spec §7); with who uploaded its resource, so the screen can say why they
   * are not offered. For a draft the initiator chooses approvers; later a release engineer chooses
   * delivery approvers.
   */
  async approvers(user: UserRecord, id: string, withSigners: boolean) {
    const p = await this.core.mustGet(id);
    const parties: PackageRecord = { ...p, uploader: await this.uploader(p) };
    // a draft, or a package in approval or awaiting its signature (a reassignment, decision 351): the approval round's
    const round: RoundName =
      canTransition(p.status, 'notify') || canTransition(p.status, 'withdraw') ? 'approval' : 'delivery';
    const excluded = excludedIds(APPROVAL_POLICY.rounds[round].excluded, parties, user.id);
    const all = (await this.candidates()).filter((u) => !excluded.includes(u.id));
    const byRole: Partial<Record<Role, UserRef[]>> = {};
    for (const role of approverRoles(round, p.type)) {
      const holders = all.filter((u) => u.userRole === role).map(userRef);
      if (holders.length) byRole[role] = holders;
    }
    const signers = withSigners ? signerCandidates(parties, all).map(userRef) : undefined;
    return { approvers: byRole, signers, uploader: parties.uploader };
  }
}

/** Undecided entries of the chosen approvers, keyed by user id (each vote is one atomic update). */
export function undecided(chosen: readonly UserRecord[]): Record<string, ApproverEntry> {
  const entries: Record<string, ApproverEntry> = {};
  for (const u of chosen)
    entries[u.id] = { user: userRef(u), role: u.userRole, approved: false, rejected: false };
  return entries;
}
