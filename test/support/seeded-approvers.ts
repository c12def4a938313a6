import type { PackageType } from '../../shared/api/contracts/packages';
import { approvalOrder, approverRoles } from '../../shared/domain/approval-policy';
import type { NonAdminRole } from '../../shared/domain/roles';
import type { RoundName } from '../../shared/domain/voting-rounds';

/**
 * The seeded approvers by their key in `seededUsers` / `SEEDED` (no vitest here: the bench, which runs
 * outside vitest, uses it too). The initiator, `designDev`, holds DESIGN_ENGINEER_DEV and is no approver;
 * the tests' resources are `designDev`'s uploads too, so the uploader (whom the policy keeps out of every
 * round, decision 331) is never one of these. A test whose upload is another's leaves them out (`but`).
 */
export const SEEDED_KEY_BY_ROLE = {
  DESIGN_ENGINEER_TEST: 'designTest',
  TECHNICAL_LEADER: 'lead',
  RELIABILITY_ENGINEER: 'reliability',
  SW_FW_RELEASE_ENGINEER: 'release',
} as const satisfies Partial<Record<NonAdminRole, string>>;
export type SeededApproverKey = (typeof SEEDED_KEY_BY_ROLE)[keyof typeof SEEDED_KEY_BY_ROLE];

/**
 * The policy's approvers of `type` in `round` by seeded-user key (`designTest`, `lead`, …), for tests
 * and the bench that keep ids, tokens and emails by these keys: one per approver role a seeded user
 * holds, in the order the policy lets them approve, the last deciding the round (decision 272).
 */
export function seededApproverKeys(
  type: PackageType,
  round: RoundName = 'approval',
  but: readonly SeededApproverKey[] = [],
): { role: NonAdminRole; key: SeededApproverKey }[] {
  const keys: Partial<Record<NonAdminRole, SeededApproverKey>> = SEEDED_KEY_BY_ROLE;
  const chosen = approverRoles(round, type).flatMap((role) => {
    const key = keys[role];
    return key && !but.includes(key) ? [{ role, key }] : [];
  });
  return approvalOrder(chosen, (c) => c.role, round);
}
