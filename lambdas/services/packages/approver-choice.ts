import type { ApproverEntry, UserRef } from '../../../shared/api/contracts/packages';
import {
  APPROVAL_POLICY,
  approverRoles,
  excludedIds,
  signerCandidates,
} from '../../../shared/domain/approval-policy';
import { BadRequestError } from '../../../shared/domain/errors';
import { holdsAuthority } from '../../../shared/domain/identity';
import { canTransition, type RoundName } from '../../../shared/domain/package-lifecycle';
import { type Selection, selectionProblem } from '../../../shared/domain/package-rules';
import { NON_ADMIN_ROLES, type Role, roleLabel } from '../../../shared/domain/roles';
import type { PackageRecord } from '../../ports/package-repository';
import type { UserRecord } from '../../ports/user-repository';
import type { PackageCore } from './package-core';
import { userRef } from './package-deps';

/** Whom an initiator or a release engineer may choose as approvers (and signer) of a package. */
export class ApproverChoice {
  constructor(private readonly core: PackageCore) {}

  /** Holders of a role who may act in it: confirmed and granted by an admin (issue 12). */
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
   * The chosen approvers of a round as users, after the approval policy's checks (DESIGN §2,
   * shared/domain/approval-policy.ts): granted roles (`alsoGranted` adds the signer), one per role, none
   * excluded, every approving role with candidates, and the type's minimum of roles. `starter` starts
   * the round (the initiator notifies, a release engineer delivers).
   */
  async choose(
    round: RoundName,
    p: PackageRecord,
    selection: readonly Selection[],
    starter: UserRecord,
    alsoGranted?: string,
  ): Promise<{ chosen: UserRecord[]; candidates: UserRecord[] }> {
    const candidates = await this.candidates();
    await this.refuseUngranted(
      alsoGranted === undefined ? selection.map((a) => a.id) : [...selection.map((a) => a.id), alsoGranted],
      candidates,
    );
    const problem = selectionProblem(round, p, selection, candidates, starter.id);
    if (problem) throw new BadRequestError(problem);
    return { chosen: selection.map((s) => candidates.find((c) => c.id === s.id)!), candidates };
  }

  /**
   * Candidates per approving role of the round the package is in (its excluded parties left out) and,
   * when asked, the signers (spec §7). For a draft the initiator chooses approvers; later a release
   * engineer chooses delivery approvers.
   */
  async approvers(user: UserRecord, id: string, withSigners: boolean) {
    const p = await this.core.mustGet(id);
    const round: RoundName = canTransition(p.status, 'notify') ? 'approval' : 'delivery';
    const excluded = excludedIds(APPROVAL_POLICY.rounds[round].excluded, p, user.id);
    const all = (await this.candidates()).filter((u) => !excluded.includes(u.id));
    const byRole: Partial<Record<Role, UserRef[]>> = {};
    for (const role of approverRoles(round, p.type)) {
      const holders = all.filter((u) => u.userRole === role).map(userRef);
      if (holders.length) byRole[role] = holders;
    }
    const signers = withSigners ? signerCandidates(p, all).map(userRef) : undefined;
    return { approvers: byRole, signers };
  }
}

/** Undecided entries of the chosen approvers, keyed by user id (each vote is one atomic update). */
export function undecided(chosen: readonly UserRecord[]): Record<string, ApproverEntry> {
  const entries: Record<string, ApproverEntry> = {};
  for (const u of chosen)
    entries[u.id] = { user: userRef(u), role: u.userRole, approved: false, rejected: false };
  return entries;
}
