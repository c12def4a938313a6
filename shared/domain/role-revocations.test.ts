import { describe, expect, it } from 'vitest';
import { SPEC_POLICY, TECHNICAL_LEADER_LAST } from './approval-policies';
import { revocationStep, rolesThePolicyNeeds, secondAdminNeeded } from './role-revocations';

const holder = (id: string, userRole: 'TECHNICAL_LEADER' | 'RELIABILITY_ENGINEER' | 'ADMIN') => ({
  id,
  userRole,
});

describe('no quorum shrinks by one admin alone', () => {
  it('reads the roles the policy needs from its rounds, signer and deliverer', () => {
    expect([...rolesThePolicyNeeds(SPEC_POLICY)].sort()).toEqual(
      [
        'DESIGN_ENGINEER_DEV',
        'DESIGN_ENGINEER_TEST',
        'RELIABILITY_ENGINEER',
        'SW_FW_RELEASE_ENGINEER',
        'TECHNICAL_LEADER',
      ].sort(),
    );
    expect(rolesThePolicyNeeds(TECHNICAL_LEADER_LAST).has('TECHNICAL_LEADER')).toBe(true);
  });

  it('takes a second admin for the last holder of a needed role, not while another holds it', () => {
    const holders = [
      holder('t1', 'TECHNICAL_LEADER'),
      holder('t2', 'TECHNICAL_LEADER'),
      holder('r1', 'RELIABILITY_ENGINEER'),
    ];
    const leaving = (...ids: string[]) =>
      holders.filter((h) => ids.includes(h.id)).map((h) => ({ ...h, holds: true }));
    expect(secondAdminNeeded(SPEC_POLICY, holders, leaving('t1')).size).toBe(0);
    expect(secondAdminNeeded(SPEC_POLICY, holders, leaving('r1')).get('r1')).toMatch(
      /leaves no one holding Reliability Engineer, a role the approval policy needs/,
    );
    // both Technical Leaders in one call: the call would empty the role, so both take a second admin
    expect([...secondAdminNeeded(SPEC_POLICY, holders, leaving('t1', 't2')).keys()]).toEqual(['t1', 't2']);
  });

  it('lets one admin refuse a role that was only requested, and always takes two for an administrator', () => {
    const why = secondAdminNeeded(
      SPEC_POLICY,
      [],
      [
        { id: 'q', userRole: 'TECHNICAL_LEADER', holds: false },
        { id: 'a', userRole: 'ADMIN', holds: true },
      ],
    );
    expect(why.has('q')).toBe(false);
    expect(why.get('a')).toBe('an administrator account');
  });

  it("confirms another admin's live proposal, waits on one's own, and lets a lapsed one go", () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const proposal = {
      role: 'TECHNICAL_LEADER' as const,
      proposedById: 'ada',
      proposedByName: 'Ada',
      proposedByEmail: 'ada@x',
      proposedAt: '2026-11-29T10:00:00Z',
      reason: 'moved team',
    };
    const u = {
      id: 'u',
      userRole: 'TECHNICAL_LEADER' as const,
      roleStatus: 'GRANTED' as const,
      revocationProposal: proposal,
    };
    expect(revocationStep({ id: 'abe' }, u, now, undefined).kind).toBe('CONFIRM');
    expect(revocationStep({ id: 'ada' }, u, now, undefined).kind).toBe('OWN_PROPOSAL');
    const later = new Date('2026-12-03T12:00:00Z');
    expect(revocationStep({ id: 'abe' }, u, later, 'last holder')).toEqual({
      kind: 'PROPOSE',
      why: 'last holder',
    });
    expect(revocationStep({ id: 'abe' }, { ...u, revocationProposal: undefined }, now, undefined)).toEqual({
      kind: 'NOW',
    });
  });
});
