import { describe, expect, it } from 'vitest';
import {
  type GrantSubject,
  grantStep,
  liveProposal,
  proposalExpiresAt,
  proposalView,
  ROLE_PROPOSAL_DAYS,
  type RoleProposal,
} from './role-grants';

const NOW = new Date('2026-11-27T08:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

const proposal = (
  by: string,
  at = ago(DAY),
  role: RoleProposal['role'] = 'TECHNICAL_LEADER',
): RoleProposal => ({
  role,
  proposedById: by,
  proposedByName: `Admin ${by}`,
  proposedByEmail: `${by}@example.com`,
  proposedAt: at,
});
const user = (fields: Partial<GrantSubject> = {}): GrantSubject => ({
  id: 'u1',
  email: 'u1@example.com',
  userRole: 'TECHNICAL_LEADER',
  roleStatus: 'REQUESTED',
  ...fields,
});

describe('a grant needs two admins', () => {
  it('proposes where no grant is pending, for a requested or a refused role', () => {
    expect(grantStep({ id: 'a1' }, user(), NOW)).toEqual({ kind: 'PROPOSE' });
    expect(grantStep({ id: 'a1' }, user({ roleStatus: 'REFUSED' }), NOW)).toEqual({ kind: 'PROPOSE' });
  });

  it("confirms another admin's proposal", () => {
    const p = proposal('a1');
    expect(grantStep({ id: 'a2' }, user({ roleProposal: p }), NOW)).toEqual({ kind: 'CONFIRM', proposal: p });
  });

  it('never lets an admin confirm their own proposal', () => {
    expect(grantStep({ id: 'a1' }, user({ roleProposal: proposal('a1') }), NOW)).toEqual({
      kind: 'REFUSED',
      statusCode: 403,
      reason:
        'u1@example.com: you proposed the role Technical Leader; a second administrator must confirm it',
    });
  });

  it('never lets an admin grant themselves, even on a proposal by another admin', () => {
    const self = user({ id: 'a2', roleProposal: proposal('a1') });
    expect(grantStep({ id: 'a2' }, self, NOW)).toMatchObject({ kind: 'REFUSED', statusCode: 403 });
  });

  it('refuses a role already granted', () => {
    expect(grantStep({ id: 'a1' }, user({ roleStatus: 'GRANTED' }), NOW)).toMatchObject({
      kind: 'REFUSED',
      statusCode: 409,
      reason: 'u1@example.com: the role is already granted',
    });
  });

  it(`lets a proposal lapse after ${ROLE_PROPOSAL_DAYS} days: the next grant is a new proposal`, () => {
    const justInTime = user({ roleProposal: proposal('a1', ago(ROLE_PROPOSAL_DAYS * DAY - 1)) });
    expect(grantStep({ id: 'a2' }, justInTime, NOW).kind).toBe('CONFIRM');
    const lapsed = user({ roleProposal: proposal('a1', ago(ROLE_PROPOSAL_DAYS * DAY)) });
    expect(liveProposal(lapsed, NOW)).toBeUndefined();
    expect(grantStep({ id: 'a2' }, lapsed, NOW)).toEqual({ kind: 'PROPOSE' });
    // and the proposer's own lapsed proposal may be made again
    expect(grantStep({ id: 'a1' }, lapsed, NOW)).toEqual({ kind: 'PROPOSE' });
    expect(proposalExpiresAt('2026-11-20T08:00:00.000Z')).toBe('2026-11-27T08:00:00.000Z');
  });

  it('ignores a proposal for a role the user no longer asks for', () => {
    const moved = user({ userRole: 'SW_FW_RELEASE_ENGINEER', roleProposal: proposal('a1') });
    expect(grantStep({ id: 'a2' }, moved, NOW)).toEqual({ kind: 'PROPOSE' });
    expect(proposalView(moved, NOW)).toBeUndefined();
  });

  it("shows a live proposal's role, proposer and end to the admins' list", () => {
    expect(proposalView(user({ roleProposal: proposal('a1', '2026-11-26T08:00:00.000Z') }), NOW)).toEqual({
      role: 'TECHNICAL_LEADER',
      proposedBy: { id: 'a1', name: 'Admin a1', email: 'a1@example.com' },
      proposedAt: '2026-11-26T08:00:00.000Z',
      expiresAt: '2026-12-03T08:00:00.000Z',
    });
  });
});
