import { describe, expect, it } from 'vitest';
import { MSG } from '../messages';
import type { ApproverEntry } from './model/package';
import { checkApproverSelection, deliveryLabel, listStatus, packageTypeOf } from './package-rules';

const entry = (approved: boolean, rejected = false): ApproverEntry => ({
  user: { id: 'u', name: 'U', email: 'u@x', userRole: 'TECHNICAL_LEADER' },
  role: 'TECHNICAL_LEADER',
  approved,
  rejected,
});

const candidates = [
  { id: 'dev1', userRole: 'DESIGN_ENGINEER_DEV' as const },
  { id: 'test1', userRole: 'DESIGN_ENGINEER_TEST' as const },
  { id: 'rel1', userRole: 'RELIABILITY_ENGINEER' as const },
  { id: 'sw1', userRole: 'SW_FW_RELEASE_ENGINEER' as const },
  { id: 'lead1', userRole: 'TECHNICAL_LEADER' as const },
  { id: 'admin1', userRole: 'ADMIN' as const },
];
const all = (except: string[] = []) =>
  candidates
    .filter((c) => c.userRole !== 'ADMIN' && !except.includes(c.id))
    .map((c) => ({ role: c.userRole, id: c.id }));

describe('package type', () => {
  it('builds the type from the stage and the sign flag', () => {
    expect(packageTypeOf('DEV', false)).toBe('DEV_UNSIGNED');
    expect(packageTypeOf('RELEASE', true)).toBe('RELEASE_SIGNED');
  });
});

describe('list status (spec §4.3)', () => {
  it('labels nothing for development packages or deliveries not started', () => {
    expect(deliveryLabel({ type: 'DEV_SIGNED', deliveryApprovers: [entry(false, true)] })).toBeNull();
    expect(deliveryLabel({ type: 'RELEASE_SIGNED', deliveryApprovers: [] })).toBeNull();
    expect(listStatus({ type: 'RELEASE_SIGNED', deliveryApprovers: [] })).toBe('NOT_STARTED');
  });
  it("checks rejection before pending: 'Package rejected'", () => {
    const p = { type: 'RELEASE_UNSIGNED' as const, deliveryApprovers: [entry(false, true), entry(false)] };
    expect(deliveryLabel(p)).toBe('Package rejected');
    expect(listStatus(p)).toBe('REJECTED');
  });
  it("counts approvals: 'Approval pending: X/Y'", () => {
    const p = {
      type: 'RELEASE_UNSIGNED' as const,
      deliveryApprovers: [entry(true), entry(false), entry(false)],
    };
    expect(deliveryLabel(p)).toBe('Approval pending: 1/3');
  });
});

describe('approver selection', () => {
  it('accepts one holder per role, the initiator excluded', () => {
    expect(checkApproverSelection(all(['dev1']), candidates, { excluded: ['dev1'] })).toBeNull();
  });
  it('refuses the initiator as an approver', () => {
    expect(checkApproverSelection(all(), candidates, { excluded: ['dev1'] })).toMatch(
      /cannot choose yourself/,
    );
  });
  it('refuses a user who does not hold the role chosen for them', () => {
    const sel = all(['dev1']).map((s) => (s.role === 'TECHNICAL_LEADER' ? { ...s, id: 'rel1' } : s));
    expect(checkApproverSelection(sel, candidates, { excluded: ['dev1'] })).toMatch(
      /chosen twice|does not hold/,
    );
  });
  it('refuses two approvers for one role', () => {
    const sel = [...all(['dev1']), { role: 'TECHNICAL_LEADER', id: 'lead1' }];
    expect(checkApproverSelection(sel, candidates, { excluded: ['dev1'] })).toMatch(/one approver per role/);
  });
  it('requires a choice for every role that has candidates', () => {
    const sel = all(['dev1']).filter((s) => s.role !== 'RELIABILITY_ENGINEER');
    expect(checkApproverSelection(sel, candidates, { excluded: ['dev1'] })).toMatch(
      /RELIABILITY_ENGINEER missing/,
    );
  });
  it("answers 'Not enough approvers in the system!' when fewer than four roles can approve a signed release", () => {
    const few = candidates.filter((c) => ['dev1', 'test1', 'rel1'].includes(c.id));
    expect(checkApproverSelection([], few, { excluded: ['dev1'], requireMinRoles: 4 })).toBe(
      MSG.notEnoughApprovers,
    );
  });
  it('never accepts an admin as an approver', () => {
    expect(checkApproverSelection([{ role: 'ADMIN', id: 'admin1' }], candidates, { excluded: [] })).toMatch(
      /Unknown approver role/,
    );
  });
});
