import type { PackageType } from './model/package';
import type { NonAdminRole } from './roles';
import type { RoundName } from './voting-rounds';

/**
 * The shape of an approval policy (the rules in approval-policy.ts, the committed policies in
 * approval-policies.ts): apart so that both read it without importing each other.
 */

/**
 * Someone related to the package who may be kept out of a round: its initiator, whoever started the
 * round, whoever uploaded its resource (no one reviews their own bytes; decision 331).
 */
export type Party = 'initiator' | 'starter' | 'uploader';

/** One voting round's rules. */
export interface RoundPolicy {
  /**
   * The roles that approve, by package type. A listed role nobody eligible holds (granted, not
   * excluded) is left out of the choice: every listed role that has a candidate approves.
   */
  readonly roles: Readonly<Record<PackageType, readonly NonAdminRole[]>>;
  /**
   * At least this many roles must have a candidate (and be chosen), by package type: fixed here, not by
   * who happens to hold a role (spec §5, §9 for a signed release; decision 332 for the others).
   */
  readonly minRoles: Readonly<Record<PackageType, number>>;
  /** who may not be chosen (separation of duties) */
  readonly excluded: readonly Party[];
  /**
   * Order: a role approves only once every chosen approver of the roles listed for it approved (a
   * rejection may come at any time: it ends the round). Empty: all approve in any order.
   */
  readonly approvesAfter: Readonly<Partial<Record<NonAdminRole, readonly NonAdminRole[]>>>;
}

export interface ApprovalPolicy {
  readonly rounds: Readonly<Record<RoundName, RoundPolicy>>;
  /** a signed package has a signer, chosen with the approvers of `round`, holding `role` */
  readonly signer: {
    readonly role: NonAdminRole;
    readonly round: RoundName;
    readonly excluded: readonly Party[];
    /** whether the signer may also be one of the package's approvers */
    readonly mayAlsoApprove: boolean;
  };
  /** who starts (and restarts) a delivery: a holder of `role` (deliverable types: package-rules.ts) */
  readonly deliverer: { readonly role: NonAdminRole };
  /**
   * A chosen approver decides in the role they were chosen for: whoever changed role since gave that
   * grant up. One vote each: a decided approver cannot decide again (both rounds).
   */
  readonly voterKeepsRole: boolean;
}
