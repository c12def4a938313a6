import type { ApproverEntry, Package } from '@shared/api/contracts/packages';
import { type ApprovalPolicy, rolesAwaited } from '@shared/domain/approval-policy';
import { roleLabel } from '@shared/domain/roles';
import { APPROVAL_ROUND, DELIVERY_ROUND } from '@shared/domain/voting-rounds';
import { approvalPolicy } from '@/config/approval-policy';
import type { FlowPurpose } from '@/lib/session/session-store';

const byId = (list: readonly ApproverEntry[]) => Object.fromEntries(list.map((e) => [e.user.id, e]));

/**
 * The roles (labels, in the product's order) the user's approval in the flow's round still waits for
 * under the approval policy's order (docs/approval-policy.md); empty when it is their turn, when the
 * round has no order, or outside the approval flows. The API enforces the same rule (409).
 */
export function waitsFirstFor(
  pkg: Pick<Package, 'status' | 'approvers' | 'deliveryApprovers'>,
  userId: string | undefined,
  flow: FlowPurpose,
  policy: ApprovalPolicy = approvalPolicy(),
): string[] {
  if (!userId || (flow !== 'approve' && flow !== 'approve-delivery')) return [];
  const round = flow === 'approve' ? APPROVAL_ROUND : DELIVERY_ROUND;
  const state = {
    status: pkg.status,
    approvers: byId(pkg.approvers),
    deliveryApprovers: byId(pkg.deliveryApprovers),
  };
  return rolesAwaited(state, userId, round, policy).map(roleLabel);
}

/** The list row's note while it is not the user's turn: "Waiting for Reliability Engineer, …". */
export const waitingForLabel = (roles: readonly string[]) => `Waiting for ${roles.join(', ')}`;

/** The details page's sentence in place of the Approve button: "Waits for: Reliability Engineer, then you". */
export const turnSentence = (roles: readonly string[]) =>
  `Waits for: ${roles.join(', ')}, then you. You can approve once they have approved; you can reject now.`;
