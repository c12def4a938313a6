import { assertNever } from './assert-never';
import type { ApproverEntry, PackageStatus, UserRef } from './model/package';

/** The parts of a stored package that say whom it waits for. */
export interface DecisionState {
  status: PackageStatus;
  approvers?: Record<string, Pick<ApproverEntry, 'approved' | 'rejected'>>;
  signer?: Pick<UserRef, 'id'>;
  deliveryApprovers?: Record<string, Pick<ApproverEntry, 'approved' | 'rejected'>>;
}

const undecided = (e: Pick<ApproverEntry, 'approved' | 'rejected'> | undefined) =>
  e !== undefined && !e.approved && !e.rejected;

/**
 * Whether the package still needs a decision of this user: an undecided approver while it waits for
 * approvals, its signer while it waits for approvals or the signature, an undecided delivery approver
 * while delivery waits. Such a user cannot be deleted (docs/decisions/078-keep-pending-deciders.md).
 */
export function waitsForDecisionOf(p: DecisionState, userId: string): boolean {
  switch (p.status) {
    case 'PENDING_APPROVAL':
      return undecided(p.approvers?.[userId]) || p.signer?.id === userId;
    case 'AWAITING_SIGNATURE':
      return p.signer?.id === userId;
    case 'DELIVERY_PENDING':
      return undecided(p.deliveryApprovers?.[userId]);
    // no decision waits in these
    case 'DRAFT':
    case 'APPROVED':
    case 'GENERATING':
    case 'SIGNED':
    case 'REJECTED':
    case 'DELIVERED':
    case 'DELIVERY_REJECTED':
      return false;
    default:
      return assertNever(p.status, 'package status');
  }
}
