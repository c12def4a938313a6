import { APPROVAL_POLICY } from './approval-policy';
import { holdsAuthority, type IdentityFields } from './identity';
import type { ApproverEntry, PackageStatus, UserRef } from './model/package';
import { type Role, roleLabel } from './roles';
import type { Seat } from './seats';
import { APPROVAL_ROUND, DELIVERY_ROUND } from './voting-rounds';

/**
 * Change of people (decision 351): a package waits on chosen people; when one of them no longer holds the
 * role they were chosen for (the role was revoked or changed, refused, or the account deleted), the package
 * says so to its initiator and to admins, who reassign that place or withdraw the package. Computed at read
 * time from the accounts as they are now, so every way a person leaves is covered by one rule.
 */

export { SEATS, type Seat, seatLabel } from './seats';

/** Why the person can no longer decide. */
export type DepartureReason = 'deleted' | 'roleChanged' | 'notGranted';

/** One person the package waits on who can no longer decide. */
export interface Departure {
  seat: Seat;
  userId: string;
  name: string;
  /** the role they were chosen for */
  role: Role;
  why: DepartureReason;
}

/** The parts of a package that say on whom it waits. */
export interface WaitingState {
  status: PackageStatus;
  approvers: Record<string, ApproverEntry>;
  signer?: UserRef;
  deliveryApprovers: Record<string, ApproverEntry>;
}

/** A person the package waits on now, in the place and role they were chosen for. */
export interface Waited {
  seat: Seat;
  user: UserRef;
  role: Role;
}

const undecided = (list: Record<string, ApproverEntry>, seat: Seat): Waited[] =>
  Object.values(list)
    .filter((e) => !e.approved && !e.rejected)
    .map((e) => ({ seat, user: e.user, role: e.role }));

/** Whom the package waits on now: undecided approvers of the open round, or its signer. */
export function waitedOn(p: WaitingState): Waited[] {
  if (p.status === APPROVAL_ROUND.waiting) return undecided(p.approvers, 'approver');
  if (p.status === DELIVERY_ROUND.waiting) return undecided(p.deliveryApprovers, 'deliveryApprover');
  if (p.status === 'AWAITING_SIGNATURE' && p.signer)
    return [{ seat: 'signer', user: p.signer, role: APPROVAL_POLICY.signer.role }];
  return [];
}

/** The account as it is now, as far as the rule reads it (null: deleted). */
export type AccountNow = (IdentityFields & { userRole: Role }) | null;

/** Why `now` can no longer decide in `role`, or null when they still can. */
export function departureReason(role: Role, now: AccountNow): DepartureReason | null {
  if (!now) return 'deleted';
  if (now.userRole !== role) return 'roleChanged';
  if (!holdsAuthority(now)) return 'notGranted';
  return null;
}

/** The people the package waits on who left their role; `accounts` are the waited-on accounts by id. */
export function departuresOf(p: WaitingState, accounts: ReadonlyMap<string, AccountNow>): Departure[] {
  return waitedOn(p).flatMap((w) => {
    const why = departureReason(w.role, accounts.get(w.user.id) ?? null);
    return why ? [{ seat: w.seat, userId: w.user.id, name: w.user.name, role: w.role, why }] : [];
  });
}

/** What the owner can do about it: a delivery round cannot be withdrawn to a draft, only reassigned. */
const REMEDY: Record<Seat, string> = {
  approver: 'reassign or withdraw',
  signer: 'reassign or withdraw',
  deliveryApprover: 'reassign',
};

/** The sentence the home inbox, the package page and the mail say: "waits for Dana Design (…), who no longer holds that role: reassign or withdraw". */
export function departureText(d: Departure): string {
  return `waits for ${d.name} (${roleLabel(d.role)}), who no longer holds that role: ${REMEDY[d.seat]}`;
}
