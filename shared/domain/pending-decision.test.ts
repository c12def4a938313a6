import { describe, expect, it } from 'vitest';
import { PACKAGE_STATUSES } from './model/package';
import { type DecisionState, waitsForDecisionOf } from './pending-decision';

const open = { approved: false, rejected: false };
const approved = { approved: true, rejected: false };

describe('waitsForDecisionOf', () => {
  it('holds for an undecided approver or the signer while approvals are pending', () => {
    const p: DecisionState = {
      status: 'PENDING_APPROVAL',
      approvers: { a: open, b: approved },
      signer: { id: 's' },
    };
    expect(waitsForDecisionOf(p, 'a')).toBe(true);
    expect(waitsForDecisionOf(p, 'b')).toBe(false);
    expect(waitsForDecisionOf(p, 's')).toBe(true);
    expect(waitsForDecisionOf(p, 'nobody')).toBe(false);
  });

  it('holds for the signer only while the signature is awaited, and for undecided delivery approvers', () => {
    expect(
      waitsForDecisionOf(
        { status: 'AWAITING_SIGNATURE', signer: { id: 's' }, approvers: { a: approved } },
        's',
      ),
    ).toBe(true);
    expect(
      waitsForDecisionOf(
        { status: 'AWAITING_SIGNATURE', signer: { id: 's' }, approvers: { a: approved } },
        'a',
      ),
    ).toBe(false);
    const delivery: DecisionState = {
      status: 'DELIVERY_PENDING',
      deliveryApprovers: { d: open, e: approved },
    };
    expect(waitsForDecisionOf(delivery, 'd')).toBe(true);
    expect(waitsForDecisionOf(delivery, 'e')).toBe(false);
  });

  it('never holds in a state that waits for nobody', () => {
    const everyone: Omit<DecisionState, 'status'> = {
      approvers: { u: open },
      signer: { id: 'u' },
      deliveryApprovers: { u: open },
    };
    const waiting = ['PENDING_APPROVAL', 'AWAITING_SIGNATURE', 'DELIVERY_PENDING'];
    for (const status of PACKAGE_STATUSES)
      expect(waitsForDecisionOf({ ...everyone, status }, 'u'), status).toBe(waiting.includes(status));
  });
});
