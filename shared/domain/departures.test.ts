import { describe, expect, it } from 'vitest';
import type { ApproverEntry, UserRef } from '../api/contracts/packages';
import { APPROVAL_POLICY } from './approval-policy';
import {
  type AccountNow,
  departureReason,
  departuresOf,
  departureText,
  type WaitingState,
} from './departures';
import { canTransition, isActor, nextStatus } from './package-lifecycle';
import type { Role } from './roles';

const ref = (id: string, name: string): UserRef => ({
  id,
  name,
  email: `${id}@x`,
  userRole: 'DESIGN_ENGINEER_TEST',
});
const entry = (id: string, name: string, decided = false): ApproverEntry => ({
  user: ref(id, name),
  role: 'DESIGN_ENGINEER_TEST',
  approved: decided,
  rejected: false,
});
const granted = (userRole: Role): AccountNow => ({
  userRole,
  roleStatus: 'GRANTED',
  emailConfirmed: true,
});

const waiting = (status: WaitingState['status']): WaitingState => ({
  status,
  approvers: { dana: entry('dana', 'Dana Design'), tim: entry('tim', 'Tim Done', true) },
  signer: ref('rel', 'Rel Signer'),
  deliveryApprovers: {},
});

describe('departures', () => {
  it('names an undecided approver whose role was changed, refused or deleted, and no one else', () => {
    const p = waiting('PENDING_APPROVAL');
    expect(departuresOf(p, new Map([['dana', granted('DESIGN_ENGINEER_TEST')]]))).toEqual([]);
    expect(departureReason('DESIGN_ENGINEER_TEST', granted('TECHNICAL_LEADER'))).toBe('roleChanged');
    expect(
      departureReason('DESIGN_ENGINEER_TEST', {
        userRole: 'DESIGN_ENGINEER_TEST',
        roleStatus: 'REFUSED',
        emailConfirmed: true,
      }),
    ).toBe('notGranted');
    const gone = departuresOf(p, new Map([['dana', null]]));
    expect(gone).toEqual([
      { seat: 'approver', userId: 'dana', name: 'Dana Design', role: 'DESIGN_ENGINEER_TEST', why: 'deleted' },
    ]);
    expect(departureText(gone[0]!)).toBe(
      'waits for Dana Design (Design Engineer (test)), who no longer holds that role: reassign or withdraw',
    );
  });

  it('looks at the signer only while the package awaits the signature, and at nobody in a draft', () => {
    const signing = waiting('AWAITING_SIGNATURE');
    const left = departuresOf(signing, new Map([['rel', granted('DESIGN_ENGINEER_DEV')]]));
    expect(left.map((d) => [d.seat, d.userId, d.role])).toEqual([
      ['signer', 'rel', APPROVAL_POLICY.signer.role],
    ]);
    expect(departuresOf(waiting('DRAFT'), new Map())).toEqual([]);
  });

  it('lets the initiator or an admin reassign in every waiting status and withdraw only from approval or signature', () => {
    expect(nextStatus('PENDING_APPROVAL', 'withdraw')).toBe('DRAFT');
    expect(nextStatus('AWAITING_SIGNATURE', 'withdraw')).toBe('DRAFT');
    expect(canTransition('DELIVERY_PENDING', 'withdraw')).toBe(false);
    expect(canTransition('DELIVERY_PENDING', 'reassign')).toBe(true);
    expect(canTransition('APPROVED', 'reassign')).toBe(false);
    const p = { initiator: { id: 'ida' } };
    expect(isActor(p, { id: 'ida', userRole: 'DESIGN_ENGINEER_DEV' }, 'owner')).toBe(true);
    expect(isActor(p, { id: 'adm', userRole: 'ADMIN' }, 'owner')).toBe(true);
    expect(isActor(p, { id: 'tim', userRole: 'TECHNICAL_LEADER' }, 'owner')).toBe(false);
  });
});
