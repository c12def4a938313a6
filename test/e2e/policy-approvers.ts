import type { PackageType } from '../../shared/api/contracts/packages';
import { roleLabel } from '../../shared/domain/roles';
import { SEED_USERS } from '../../shared/domain/seed-users';
import type { RoundName } from '../../shared/domain/voting-rounds';
import { seededApproverKeys } from '../support/seeded-approvers';

/**
 * The seeded approvers the approval policy asks for a package of `type` in `round`: each role, its label
 * on the notify screen and its seeded holder's email, in the order the policy lets them approve (the last
 * decides the round; decision 272). `but`: emails left out (the round's starter; the uploader of the
 * package's resource when a seeded approver uploaded it, whom the policy keeps out, decision 331; the
 * e2e tests' uploads are the initiator's).
 */
export function policyApprovers(
  type: PackageType,
  round: RoundName = 'approval',
  but: readonly string[] = [],
): { role: string; label: string; email: string }[] {
  return seededApproverKeys(type, round)
    .map(({ role }) => ({
      role,
      label: roleLabel(role),
      email: SEED_USERS.find((u) => u.role === role)!.email,
    }))
    .filter((a) => !but.includes(a.email));
}
