import { describe, expect, it } from 'vitest';
import { PACKAGE_STATUSES, type PackageStatus } from './model/package';
import {
  APPROVAL_ROUND,
  actorFor,
  actorOf,
  allVoted,
  canTransition,
  DELIVERABLE_STATUSES,
  DELIVERY_ROUND,
  deliveryActionFrom,
  doneStatus,
  GENERATED_STATUSES,
  INITIAL_STATUS,
  isActor,
  isDeliverable,
  isEditable,
  isGenerated,
  isWaitingForApproval,
  isWaitingForDelivery,
  isWaitingForSignature,
  nextStatus,
  ROUNDS,
  roundWaitingIn,
  statusAfter,
  statusesAllowing,
  TRANSITIONS,
  voteRefusal,
  WAITING_STATUSES,
} from './package-lifecycle';

describe('transition table', () => {
  it('names only known statuses', () => {
    for (const t of TRANSITIONS) {
      if (t.from !== '*') expect(PACKAGE_STATUSES).toContain(t.from);
      if (t.to !== null) expect(PACKAGE_STATUSES).toContain(t.to);
    }
  });

  it('reaches every status from DRAFT', () => {
    const seen = new Set<PackageStatus>(['DRAFT']);
    for (let i = 0; i < PACKAGE_STATUSES.length; i++)
      for (const t of TRANSITIONS) if (t.from !== '*' && t.to && seen.has(t.from)) seen.add(t.to);
    expect([...seen].sort()).toEqual([...PACKAGE_STATUSES].sort());
  });

  it('moves a package along the documented path', () => {
    expect(nextStatus('DRAFT', 'notify')).toBe('PENDING_APPROVAL');
    expect(nextStatus('DRAFT', 'editHeader')).toBe('DRAFT');
    expect(nextStatus('DRAFT', 'attachDcc')).toBe('DRAFT');
    expect(nextStatus('PENDING_APPROVAL', 'approve')).toBe('PENDING_APPROVAL');
    expect(nextStatus('PENDING_APPROVAL', 'approve', { lastVote: true })).toBe('GENERATING');
    expect(nextStatus('PENDING_APPROVAL', 'approve', { lastVote: true, signed: true })).toBe(
      'AWAITING_SIGNATURE',
    );
    expect(nextStatus('PENDING_APPROVAL', 'reject')).toBe('REJECTED');
    expect(nextStatus('AWAITING_SIGNATURE', 'sign')).toBe('GENERATING');
    // the generation worker's outcomes (decision 160): the ready package, or back to the deciding state
    expect(nextStatus('GENERATING', 'generated')).toBe('APPROVED');
    expect(nextStatus('GENERATING', 'generated', { signed: true })).toBe('SIGNED');
    expect(nextStatus('GENERATING', 'generationFailed')).toBe('PENDING_APPROVAL');
    expect(nextStatus('GENERATING', 'generationFailed', { signed: true })).toBe('AWAITING_SIGNATURE');
    expect(nextStatus('PENDING_APPROVAL', 'retryGeneration')).toBe('GENERATING');
    expect(nextStatus('AWAITING_SIGNATURE', 'retryGeneration', { signed: true })).toBe('GENERATING');
    expect(nextStatus('AWAITING_SIGNATURE', 'retryGeneration')).toBeUndefined();
    expect(canTransition('GENERATING', 'sign')).toBe(false);
    expect(canTransition('GENERATING', 'rejectSigning')).toBe(false);
    expect(canTransition('GENERATING', 'deliver')).toBe(false);
    expect(nextStatus('AWAITING_SIGNATURE', 'rejectSigning')).toBe('REJECTED');
    expect(nextStatus('APPROVED', 'deliver')).toBe('DELIVERY_PENDING');
    expect(nextStatus('SIGNED', 'deliver')).toBe('DELIVERY_PENDING');
    expect(nextStatus('DELIVERY_PENDING', 'approveDelivery')).toBe('DELIVERY_PENDING');
    expect(nextStatus('DELIVERY_PENDING', 'approveDelivery', { lastVote: true, signed: true })).toBe(
      'DELIVERED',
    );
    expect(nextStatus('DELIVERY_PENDING', 'rejectDelivery')).toBe('DELIVERY_REJECTED');
    expect(nextStatus('DELIVERY_REJECTED', 'redeliver')).toBe('DELIVERY_PENDING');
  });

  it('refuses what the diagram does not show', () => {
    expect(canTransition('PENDING_APPROVAL', 'editHeader')).toBe(false);
    expect(canTransition('DRAFT', 'approve')).toBe(false);
    expect(canTransition('APPROVED', 'sign')).toBe(false);
    expect(canTransition('REJECTED', 'deliver')).toBe(false);
    expect(canTransition('DELIVERED', 'deliver')).toBe(false);
    expect(canTransition('DELIVERY_REJECTED', 'deliver')).toBe(false);
    expect(nextStatus('DELIVERED', 'redeliver')).toBeUndefined();
    expect(nextStatus('REJECTED', 'notify')).toBeUndefined();
  });

  it('lets an admin delete from any status', () => {
    for (const s of PACKAGE_STATUSES) {
      expect(nextStatus(s, 'delete')).toBeNull();
      expect(actorOf(s, 'delete')).toBe('admin');
    }
  });

  it('names who may act', () => {
    expect(actorOf('DRAFT', 'notify')).toBe('initiator');
    expect(actorOf('PENDING_APPROVAL', 'reject')).toBe('approver');
    expect(actorOf('AWAITING_SIGNATURE', 'sign')).toBe('signer');
    expect(actorOf('SIGNED', 'deliver')).toBe('releaseEngineer');
    expect(actorOf('DELIVERY_PENDING', 'rejectDelivery')).toBe('deliveryApprover');
    expect(actorOf('DRAFT', 'sign')).toBeUndefined();
  });

  it('recognises actors by relationship or role', () => {
    const p = {
      initiator: { id: 'i' },
      approvers: { a: {} },
      signer: { id: 's' },
      deliveryApprovers: { d: {} },
    };
    const u = (
      id: string,
      userRole: 'TECHNICAL_LEADER' | 'SW_FW_RELEASE_ENGINEER' | 'ADMIN' = 'TECHNICAL_LEADER',
    ) => ({
      id,
      userRole,
    });
    expect(isActor(p, u('i'), 'initiator')).toBe(true);
    expect(isActor(p, u('a'), 'initiator')).toBe(false);
    expect(isActor(p, u('a'), 'approver')).toBe(true);
    expect(isActor(p, u('d'), 'approver')).toBe(false);
    expect(isActor(p, u('s'), 'signer')).toBe(true);
    expect(isActor(p, u('a'), 'signer')).toBe(false);
    expect(isActor(p, u('d'), 'deliveryApprover')).toBe(true);
    expect(isActor(p, u('a'), 'deliveryApprover')).toBe(false);
    expect(isActor(p, u('x', 'SW_FW_RELEASE_ENGINEER'), 'releaseEngineer')).toBe(true);
    expect(isActor(p, u('x'), 'releaseEngineer')).toBe(false);
    expect(isActor(p, u('x', 'ADMIN'), 'admin')).toBe(true);
    expect(isActor(p, u('x', 'SW_FW_RELEASE_ENGINEER'), 'admin')).toBe(false);
  });
});

describe('derived status sets', () => {
  it('match the statuses the code used to list by hand', () => {
    expect([...DELIVERABLE_STATUSES].sort()).toEqual(['APPROVED', 'DELIVERY_REJECTED', 'SIGNED']);
    expect([...GENERATED_STATUSES].sort()).toEqual(
      ['APPROVED', 'DELIVERED', 'DELIVERY_PENDING', 'DELIVERY_REJECTED', 'SIGNED'].sort(),
    );
    expect([...WAITING_STATUSES].sort()).toEqual([
      'AWAITING_SIGNATURE',
      'DELIVERY_PENDING',
      'PENDING_APPROVAL',
    ]);
    expect(statusesAllowing('editHeader')).toEqual(['DRAFT']);
  });

  it('answers the predicates', () => {
    expect(PACKAGE_STATUSES.filter(isEditable)).toEqual(['DRAFT']);
    expect(PACKAGE_STATUSES.filter(isWaitingForApproval)).toEqual(['PENDING_APPROVAL']);
    expect(PACKAGE_STATUSES.filter(isWaitingForSignature)).toEqual(['AWAITING_SIGNATURE']);
    expect(PACKAGE_STATUSES.filter(isWaitingForDelivery)).toEqual(['DELIVERY_PENDING']);
    expect(PACKAGE_STATUSES.filter(isDeliverable).sort()).toEqual([
      'APPROVED',
      'DELIVERY_REJECTED',
      'SIGNED',
    ]);
    expect(isGenerated('REJECTED')).toBe(false);
    expect(isGenerated('SIGNED')).toBe(true);
    expect(deliveryActionFrom('DELIVERY_REJECTED')).toBe('redeliver');
    expect(deliveryActionFrom('SIGNED')).toBe('deliver');
    expect(deliveryActionFrom('DRAFT')).toBeUndefined();
  });
});

describe('voting rounds', () => {
  it('describe approval and delivery with the same shape, consistent with the table', () => {
    for (const round of Object.values(ROUNDS)) {
      expect(roundWaitingIn(round.waiting)).toBe(round);
      expect(nextStatus(round.waiting, round.reject)).toBe(round.rejected);
      expect(nextStatus(round.waiting, round.vote)).toBe(round.waiting);
      for (const signed of [true, false])
        expect(nextStatus(round.waiting, round.vote, { lastVote: true, signed })).toBe(
          doneStatus(round, signed),
        );
      expect(actorOf(round.waiting, round.vote)).toBe(round.voter);
      expect(actorOf(round.waiting, round.reject)).toBe(round.voter);
      const starts = statusesAllowing(round.start);
      for (const s of starts) expect(nextStatus(s, round.start)).toBe(round.waiting);
      if (round.restart) expect(nextStatus(round.rejected, round.restart)).toBe(round.waiting);
    }
    expect(roundWaitingIn('AWAITING_SIGNATURE')).toBeUndefined();
    expect(APPROVAL_ROUND.list).toBe('approvers');
    expect(DELIVERY_ROUND.list).toBe('deliveryApprovers');
  });

  it('counts the last vote', () => {
    const c = { approverCount: 3, approvedCount: 2, deliveryApproverCount: 2, deliveryApprovedCount: 2 };
    expect(allVoted(c, APPROVAL_ROUND)).toBe(false);
    expect(allVoted(c, DELIVERY_ROUND)).toBe(true);
    expect(allVoted({ ...c, approvedCount: 3 }, APPROVAL_ROUND)).toBe(true);
  });
});

describe('helpers the services read', () => {
  it('start, actor and destination of an action', () => {
    expect(INITIAL_STATUS).toBe('DRAFT');
    expect(actorFor('deliver')).toBe('releaseEngineer');
    expect(actorFor('sign')).toBe('signer');
    expect(statusAfter('sign')).toBe('GENERATING');
    expect(statusAfter('rejectSigning')).toBe('REJECTED');
    expect(statusAfter('delete')).toBeNull();
    // every row of an action names the same actor, so actorFor needs no status
    for (const t of TRANSITIONS) expect(actorFor(t.action)).toBe(t.who);
  });

  it('tells why a vote is refused, in the order callers are told', () => {
    const entry = (approved: boolean, rejected = false) => ({ approved, rejected });
    const p = {
      status: 'PENDING_APPROVAL' as const,
      approvers: { a: entry(false), b: entry(true), c: entry(false, true) },
    };
    expect(voteRefusal(null, 'a', APPROVAL_ROUND)).toBe('notFound');
    expect(voteRefusal(p, 'x', APPROVAL_ROUND)).toBe('notAssigned');
    expect(voteRefusal(p, 'a', DELIVERY_ROUND)).toBe('notAssigned');
    expect(voteRefusal(p, 'b', APPROVAL_ROUND)).toBe('alreadyDecided');
    expect(voteRefusal(p, 'c', APPROVAL_ROUND)).toBe('alreadyDecided');
    expect(voteRefusal({ ...p, status: 'REJECTED' }, 'a', APPROVAL_ROUND)).toBe('notWaiting');
    expect(voteRefusal(p, 'a', APPROVAL_ROUND)).toBeNull();
  });
});
