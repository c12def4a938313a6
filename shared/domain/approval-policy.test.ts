import { describe, expect, it } from 'vitest';
import { ROUTES } from '../api/routes';
import { SPEC_POLICY } from './approval-policies';
import {
  APPROVAL_POLICY,
  type ApprovalPolicy,
  approvalOrder,
  approverRoles,
  awaitedApprovers,
  excludedIds,
  minRolesOf,
  needsSigner,
  signerCandidates,
  voteClauses,
  voteNeedsState,
  voteRefusal,
} from './approval-policy';
import { PACKAGE_TYPES } from './model/package';
import { ACTOR_ROLE } from './package-lifecycle';
import { MIN_SIGNED_RELEASE_ROLES, selectionProblem } from './package-rules';
import { NON_ADMIN_ROLES, type NonAdminRole } from './roles';
import { APPROVAL_ROUND, DELIVERY_ROUND } from './voting-rounds';

/** A policy like today's where the Technical Leader approves after every other role. */
const TL_LAST: ApprovalPolicy = {
  ...SPEC_POLICY,
  rounds: {
    ...SPEC_POLICY.rounds,
    approval: {
      ...SPEC_POLICY.rounds.approval,
      approvesAfter: { TECHNICAL_LEADER: NON_ADMIN_ROLES.filter((r) => r !== 'TECHNICAL_LEADER') },
    },
  },
};

const entry = (role: NonAdminRole, approved = false, rejected = false) => ({ role, approved, rejected });

/**
 * Tests of the policy itself: they pass the policy they are about (SPEC_POLICY, TL_LAST) explicitly,
 * so they hold whichever policy the run selects (APPROVAL_POLICY, scripts/test.mjs's second pass).
 */
describe("today's approval policy (DESIGN §2, spec §5, §6)", () => {
  it('every role approves every package type in both rounds, in any order', () => {
    for (const type of PACKAGE_TYPES) {
      expect(approverRoles('approval', type, SPEC_POLICY)).toEqual(NON_ADMIN_ROLES);
      expect(approverRoles('delivery', type, SPEC_POLICY)).toEqual(NON_ADMIN_ROLES);
    }
    expect(voteNeedsState('approval', SPEC_POLICY)).toBe(false);
    expect(voteNeedsState('delivery', SPEC_POLICY)).toBe(false);
  });

  it('every round and type has a minimum of approver roles (decision 332): four for release, two for development, three to deliver', () => {
    expect(minRolesOf('approval', 'RELEASE_SIGNED')).toBe(4);
    expect(minRolesOf('approval', 'RELEASE_UNSIGNED')).toBe(4);
    expect(MIN_SIGNED_RELEASE_ROLES).toBe(4);
    expect(minRolesOf('approval', 'DEV_SIGNED')).toBe(2);
    expect(minRolesOf('approval', 'DEV_UNSIGNED')).toBe(2);
    for (const type of PACKAGE_TYPES) expect(minRolesOf('delivery', type)).toBe(3);
  });

  it('keeps the initiator and the uploader out of the approvers, and the deliverer out of the delivery approvers', () => {
    const p = { initiator: { id: 'ini' } };
    expect(excludedIds(APPROVAL_POLICY.rounds.approval.excluded, p, 'ini')).toEqual(['ini']);
    expect(excludedIds(APPROVAL_POLICY.rounds.delivery.excluded, p, 'rel')).toEqual(['ini', 'rel']);
    const uploaded = { initiator: { id: 'ini' }, uploader: { id: 'up' } };
    expect(excludedIds(APPROVAL_POLICY.rounds.approval.excluded, uploaded)).toEqual(['ini', 'up']);
    expect(excludedIds(APPROVAL_POLICY.rounds.delivery.excluded, uploaded, 'rel')).toEqual([
      'ini',
      'rel',
      'up',
    ]);
    expect(excludedIds(APPROVAL_POLICY.signer.excluded, uploaded)).toEqual(['ini', 'up']);
  });

  it('a release engineer signs a signed package (not its initiator, possibly also an approver) and delivers', () => {
    expect(needsSigner('approval', { signed: true })).toBe(true);
    expect(needsSigner('approval', { signed: false })).toBe(false);
    expect(needsSigner('delivery', { signed: true })).toBe(false);
    const cands = [
      { id: 'ini', userRole: 'SW_FW_RELEASE_ENGINEER' as const },
      { id: 'rel', userRole: 'SW_FW_RELEASE_ENGINEER' as const },
      { id: 'tl', userRole: 'TECHNICAL_LEADER' as const },
    ];
    expect(signerCandidates({ initiator: { id: 'ini' } }, cands).map((c) => c.id)).toEqual(['rel']);
    expect(APPROVAL_POLICY.signer.mayAlsoApprove).toBe(true);
    expect(ACTOR_ROLE.releaseEngineer).toBe(APPROVAL_POLICY.deliverer.role);
    expect(APPROVAL_POLICY.voterKeepsRole).toBe(true);
  });

  it("the route table's role gates are the policy's signer and deliverer roles", () => {
    const access = (id: string) => ROUTES.find((r) => r.id === id)?.access;
    expect(access('signPackage')).toEqual([APPROVAL_POLICY.signer.role]);
    expect(access('rejectSigning')).toEqual([APPROVAL_POLICY.signer.role]);
    expect(access('notifyDeliveryApprovers')).toEqual([APPROVAL_POLICY.deliverer.role]);
  });
});

describe('the choice of approvers reads the policy', () => {
  const cands = NON_ADMIN_ROLES.map((r, i) => ({ id: `u${i}`, userRole: r }));
  const all = cands.map((c) => ({ role: c.userRole, id: c.id }));
  const pkg = { type: 'DEV_UNSIGNED' as const, initiator: { id: 'ini' } };

  it('asks for every role with candidates today', () => {
    expect(selectionProblem('approval', pkg, all, cands, 'ini')).toBeNull();
    expect(selectionProblem('approval', pkg, all.slice(1), cands, 'ini')).toMatch(
      /DESIGN_ENGINEER_DEV missing/,
    );
    // the deliverer may not approve the delivery
    expect(selectionProblem('delivery', pkg, all, cands, 'u4')).toMatch(/cannot choose yourself/);
  });

  it('leaves out a role the policy does not list for the package type', () => {
    const noReliabilityOnDev: ApprovalPolicy = {
      ...APPROVAL_POLICY,
      rounds: {
        ...APPROVAL_POLICY.rounds,
        approval: {
          ...APPROVAL_POLICY.rounds.approval,
          roles: {
            ...APPROVAL_POLICY.rounds.approval.roles,
            DEV_UNSIGNED: NON_ADMIN_ROLES.filter((r) => r !== 'RELIABILITY_ENGINEER'),
          },
        },
      },
    };
    const withoutReliability = all.filter((s) => s.role !== 'RELIABILITY_ENGINEER');
    expect(
      selectionProblem('approval', pkg, withoutReliability, cands, 'ini', noReliabilityOnDev),
    ).toBeNull();
    expect(selectionProblem('approval', pkg, all, cands, 'ini', noReliabilityOnDev)).toBe(
      'A Reliability Engineer does not approve this package',
    );
  });
});

describe('votes', () => {
  const p = {
    status: 'PENDING_APPROVAL',
    approvers: {
      dev: entry('DESIGN_ENGINEER_DEV', true),
      test: entry('DESIGN_ENGINEER_TEST'),
      tl: entry('TECHNICAL_LEADER'),
      rel: entry('SW_FW_RELEASE_ENGINEER', false, true),
    },
  };

  it('today: any chosen undecided approver decides while the round waits, once', () => {
    expect(voteRefusal(null, 'tl', APPROVAL_ROUND)).toBe('notFound');
    expect(voteRefusal(p, 'x', APPROVAL_ROUND)).toBe('notAssigned');
    expect(voteRefusal(p, 'tl', DELIVERY_ROUND)).toBe('notAssigned');
    expect(voteRefusal(p, 'dev', APPROVAL_ROUND)).toBe('alreadyDecided');
    expect(voteRefusal(p, 'rel', APPROVAL_ROUND, 'reject')).toBe('alreadyDecided');
    expect(voteRefusal({ ...p, status: 'REJECTED' }, 'tl', APPROVAL_ROUND)).toBe('notWaiting');
    expect(voteRefusal(p, 'tl', APPROVAL_ROUND, 'approve', SPEC_POLICY)).toBeNull();
    expect(voteRefusal(p, 'tl', APPROVAL_ROUND, 'reject')).toBeNull();
  });

  it('an order makes an approval wait for the roles before it; a rejection never waits', () => {
    expect(awaitedApprovers(p, 'tl', APPROVAL_ROUND, TL_LAST).sort()).toEqual(['dev', 'rel', 'test']);
    expect(voteRefusal(p, 'tl', APPROVAL_ROUND, 'approve', TL_LAST)).toBe('notYourTurn');
    expect(voteRefusal(p, 'tl', APPROVAL_ROUND, 'reject', TL_LAST)).toBeNull();
    expect(voteRefusal(p, 'test', APPROVAL_ROUND, 'approve', TL_LAST)).toBeNull();
    const othersDone = {
      ...p,
      approvers: {
        ...p.approvers,
        test: entry('DESIGN_ENGINEER_TEST', true),
        rel: entry('SW_FW_RELEASE_ENGINEER', true),
      },
    };
    expect(voteRefusal(othersDone, 'tl', APPROVAL_ROUND, 'approve', TL_LAST)).toBeNull();
    // the order is checked last: a decided or unchosen voter hears that first
    expect(voteRefusal({ ...p, status: 'REJECTED' }, 'tl', APPROVAL_ROUND, 'approve', TL_LAST)).toBe(
      'notWaiting',
    );
  });

  it('an order the round accepts: each approver after the roles it waits for, otherwise as chosen', () => {
    const chosen = [
      { id: 'test', role: 'DESIGN_ENGINEER_TEST' },
      { id: 'tl', role: 'TECHNICAL_LEADER' },
      { id: 'rel', role: 'SW_FW_RELEASE_ENGINEER' },
    ];
    const ids = (policy?: ApprovalPolicy, round: 'approval' | 'delivery' = 'approval') =>
      approvalOrder(chosen, (e) => e.role, round, policy).map((e) => e.id);
    expect(ids(SPEC_POLICY)).toEqual(['test', 'tl', 'rel']);
    expect(ids(TL_LAST)).toEqual(['test', 'rel', 'tl']);
    expect(ids(TL_LAST, 'delivery')).toEqual(['test', 'tl', 'rel']);
    // each approval in that order is accepted once those before it approved
    const approvers: Record<string, ReturnType<typeof entry>> = Object.fromEntries(
      chosen.map((c) => [c.id, entry(c.role as NonAdminRole)]),
    );
    for (const id of ids(TL_LAST)) {
      expect(
        voteRefusal({ status: 'PENDING_APPROVAL', approvers }, id, APPROVAL_ROUND, 'approve', TL_LAST),
      ).toBeNull();
      approvers[id] = { ...approvers[id]!, approved: true };
    }
  });

  it('the storage condition as data: status, undecided entry and, with an order, the awaited approvals', () => {
    expect(voteClauses('tl', APPROVAL_ROUND, 'approve')).toEqual([
      { kind: 'statusIs', status: 'PENDING_APPROVAL' },
      { kind: 'undecided', list: 'approvers', userId: 'tl' },
    ]);
    expect(voteNeedsState('approval', TL_LAST)).toBe(true);
    const ordered = voteClauses('tl', APPROVAL_ROUND, 'approve', p, TL_LAST);
    expect(
      ordered
        .slice(2)
        .map((c) => c.kind === 'approved' && c.userId)
        .sort(),
    ).toEqual(['dev', 'rel', 'test']);
    expect(voteClauses('tl', APPROVAL_ROUND, 'reject', p, TL_LAST)).toHaveLength(2);
  });
});
