import { describe, expect, it } from 'vitest';
import {
  APPROVAL_POLICIES,
  APPROVAL_POLICY_NAMES,
  approvalPolicyNamed,
  approvalPolicyProblems,
  SPEC_POLICY,
  TECHNICAL_LEADER_LAST,
} from './approval-policies';
import {
  type ApprovalPolicy,
  approvalOrder,
  rolesAwaited,
  turnsOpenedBy,
  voteRefusal,
} from './approval-policy';
import { NON_ADMIN_ROLES, type NonAdminRole } from './roles';
import { APPROVAL_ROUND, DELIVERY_ROUND } from './voting-rounds';

/** `SPEC_POLICY` with its approval round changed by `change`. */
const withApproval = (change: Partial<ApprovalPolicy['rounds']['approval']>): ApprovalPolicy => ({
  ...SPEC_POLICY,
  rounds: { ...SPEC_POLICY.rounds, approval: { ...SPEC_POLICY.rounds.approval, ...change } },
});

describe('the committed approval policies (docs/approval-policy.md)', () => {
  it('are named, the specification first, and each is valid', () => {
    expect(APPROVAL_POLICY_NAMES).toEqual(['spec', 'technical-leader-last']);
    for (const name of APPROVAL_POLICY_NAMES) {
      expect(approvalPolicyProblems(APPROVAL_POLICIES[name])).toEqual([]);
      expect(approvalPolicyNamed(name)).toBe(APPROVAL_POLICIES[name]);
    }
  });

  it('an unset name selects the specification; an unknown one is refused naming the choices', () => {
    expect(approvalPolicyNamed(undefined)).toBe(SPEC_POLICY);
    expect(approvalPolicyNamed('')).toBe(SPEC_POLICY);
    expect(() => approvalPolicyNamed('leader-first')).toThrow(
      "Unknown approval policy 'leader-first' (APPROVAL_POLICY / the stage's approvalPolicy): choose one of spec, technical-leader-last",
    );
    // an inherited property is not a policy
    expect(() => approvalPolicyNamed('toString')).toThrow(/Unknown approval policy 'toString'/);
  });

  it('"the Technical Leader approves last" differs from the specification only in the approval order', () => {
    expect({
      ...TECHNICAL_LEADER_LAST,
      rounds: { ...TECHNICAL_LEADER_LAST.rounds, approval: undefined },
    }).toEqual({
      ...SPEC_POLICY,
      rounds: { ...SPEC_POLICY.rounds, approval: undefined },
    });
    expect(TECHNICAL_LEADER_LAST.rounds.approval.approvesAfter).toEqual({
      TECHNICAL_LEADER: [
        'DESIGN_ENGINEER_DEV',
        'DESIGN_ENGINEER_TEST',
        'RELIABILITY_ENGINEER',
        'SW_FW_RELEASE_ENGINEER',
      ],
    });
  });
});

describe('a policy is checked at load, each problem named', () => {
  it('a cycle in the order', () => {
    const cyclic = withApproval({
      approvesAfter: {
        TECHNICAL_LEADER: ['RELIABILITY_ENGINEER'],
        RELIABILITY_ENGINEER: ['TECHNICAL_LEADER'],
      },
    });
    expect(approvalPolicyProblems(cyclic)).toEqual([
      'approval round order has a cycle: TECHNICAL_LEADER → RELIABILITY_ENGINEER → TECHNICAL_LEADER (nobody could approve)',
    ]);
  });

  it('an unknown role, in the roles or the order, and an unknown party', () => {
    const wrong = withApproval({
      roles: {
        ...SPEC_POLICY.rounds.approval.roles,
        DEV_UNSIGNED: ['DESIGN_ENGINEER_DEV', 'QA' as NonAdminRole],
      },
      minRoles: { ...SPEC_POLICY.rounds.approval.minRoles, DEV_UNSIGNED: 1 },
      approvesAfter: { TECHNICAL_LEADER: ['ADMIN' as NonAdminRole] },
      excluded: ['initiator', 'auditor' as 'initiator'],
    });
    expect(approvalPolicyProblems(wrong)).toEqual([
      "approval round, DEV_UNSIGNED: unknown role 'QA'",
      "approval round: unknown excluded party 'auditor'",
      "approval round order: 'TECHNICAL_LEADER' approves after 'ADMIN', not a role that approves in this round",
    ]);
  });

  it('a minimum above the roles that approve, or below one', () => {
    const wrong = withApproval({
      roles: {
        ...SPEC_POLICY.rounds.approval.roles,
        RELEASE_SIGNED: ['TECHNICAL_LEADER', 'RELIABILITY_ENGINEER'],
      },
      minRoles: { ...SPEC_POLICY.rounds.approval.minRoles, DEV_SIGNED: 0 },
    });
    expect(approvalPolicyProblems(wrong)).toEqual([
      'approval round, DEV_SIGNED: the minimum of roles must be a whole number from 1, got 0',
      'approval round, RELEASE_SIGNED: the minimum of 4 roles is above the 2 roles that approve',
    ]);
  });
});

describe('turns under "the Technical Leader approves last"', () => {
  const entry = (role: NonAdminRole, approved = false) => ({ role, approved, rejected: false });
  const p = {
    status: 'PENDING_APPROVAL',
    approvers: {
      tl: entry('TECHNICAL_LEADER'),
      test: entry('DESIGN_ENGINEER_TEST'),
      rel: entry('RELIABILITY_ENGINEER'),
    },
  };
  const P = TECHNICAL_LEADER_LAST;

  it('the Leader waits for the other roles (in the product order); the others wait for nobody', () => {
    expect(rolesAwaited(p, 'tl', APPROVAL_ROUND, P)).toEqual([
      'DESIGN_ENGINEER_TEST',
      'RELIABILITY_ENGINEER',
    ]);
    expect(rolesAwaited(p, 'rel', APPROVAL_ROUND, P)).toEqual([]);
    expect(rolesAwaited(p, 'tl', APPROVAL_ROUND, SPEC_POLICY)).toEqual([]);
    // the delivery round has no order in this policy
    expect(rolesAwaited({ ...p, deliveryApprovers: p.approvers }, 'tl', DELIVERY_ROUND, P)).toEqual([]);
  });

  it("the last awaited approval opens the Leader's turn, and only that one", () => {
    const one = { ...p, approvers: { ...p.approvers, test: entry('DESIGN_ENGINEER_TEST', true) } };
    expect(turnsOpenedBy(one, 'test', APPROVAL_ROUND, P)).toEqual([]);
    expect(rolesAwaited(one, 'tl', APPROVAL_ROUND, P)).toEqual(['RELIABILITY_ENGINEER']);
    const both = { ...one, approvers: { ...one.approvers, rel: entry('RELIABILITY_ENGINEER', true) } };
    expect(turnsOpenedBy(both, 'rel', APPROVAL_ROUND, P)).toEqual(['tl']);
    expect(voteRefusal(both, 'tl', APPROVAL_ROUND, 'approve', P)).toBeNull();
    // under the specification nobody's turn is ever opened by another's vote (all were asked at once)
    expect(turnsOpenedBy(both, 'rel', APPROVAL_ROUND, SPEC_POLICY)).toEqual([]);
  });

  it('every order a policy accepts is one approvalOrder yields', () => {
    const chosen = NON_ADMIN_ROLES.map((role) => ({ id: role, role }));
    const order = approvalOrder(chosen, (e) => e.role, 'approval', P).map((e) => e.id);
    expect(order.at(-1)).toBe('TECHNICAL_LEADER');
  });
});
