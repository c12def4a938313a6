import type { ApproverEntry, UserRef } from '../../../shared/api/contracts/packages';
import { BadRequestError } from '../../../shared/domain/errors';
import { holdsAuthority } from '../../../shared/domain/identity';
import { canTransition } from '../../../shared/domain/package-lifecycle';
import { checkApproverSelection, type Selection } from '../../../shared/domain/package-rules';
import { NON_ADMIN_ROLES, type Role, roleLabel } from '../../../shared/domain/roles';
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
   * The chosen approvers as users, after the checks of DESIGN §2: granted roles (`alsoGranted` adds
   * the signer), one per role, none excluded, every role with candidates, and `requireMinRoles`.
   */
  async choose(
    selection: readonly Selection[],
    opts: { excluded: string[]; requireMinRoles?: number; alsoGranted?: string },
  ): Promise<{ chosen: UserRecord[]; candidates: UserRecord[] }> {
    const candidates = await this.candidates();
    await this.refuseUngranted(
      opts.alsoGranted === undefined
        ? selection.map((a) => a.id)
        : [...selection.map((a) => a.id), opts.alsoGranted],
      candidates,
    );
    const problem = checkApproverSelection(selection, candidates, opts);
    if (problem) throw new BadRequestError(problem);
    return { chosen: selection.map((s) => candidates.find((c) => c.id === s.id)!), candidates };
  }

  /** Candidates per role (initiator excluded) and, when asked, the signers (spec §7). */
  async approvers(user: UserRecord, id: string, withSigners: boolean) {
    const p = await this.core.mustGet(id);
    // for a draft the initiator chooses approvers; later a release engineer chooses delivery approvers
    const excluded = canTransition(p.status, 'notify') ? [p.initiator.id] : [p.initiator.id, user.id];
    const all = (await this.candidates()).filter((u) => !excluded.includes(u.id));
    const byRole: Partial<Record<Role, UserRef[]>> = {};
    for (const role of NON_ADMIN_ROLES) {
      const holders = all.filter((u) => u.userRole === role).map(userRef);
      if (holders.length) byRole[role] = holders;
    }
    const signers = withSigners
      ? all.filter((u) => u.userRole === 'SW_FW_RELEASE_ENGINEER').map(userRef)
      : undefined;
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
