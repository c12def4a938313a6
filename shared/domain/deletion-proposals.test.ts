import { describe, expect, it } from 'vitest';
import { DELETION_PROPOSAL_DAYS, deletionProposalView, deletionStep } from './deletion-proposals';

const at = '2026-11-29T10:00:00.000Z';
const proposal = {
  proposedById: 'ada',
  proposedByName: 'Ada',
  proposedByEmail: 'ada@example.com',
  proposedAt: at,
  reason: 'left the company',
};
const later = (days: number) => new Date(Date.parse(at) + days * 86_400_000);

describe('two-admin deletions', () => {
  it('proposes when nothing is pending, confirms another admin’s proposal, refuses the proposer’s own', () => {
    expect(deletionStep({ id: 'abe' }, {}, later(0)).kind).toBe('PROPOSE');
    expect(deletionStep({ id: 'abe' }, { deletionProposal: proposal }, later(1))).toEqual({
      kind: 'CONFIRM',
      proposal,
    });
    expect(deletionStep({ id: 'ada' }, { deletionProposal: proposal }, later(1)).kind).toBe('OWN_PROPOSAL');
  });

  it('a lapsed proposal counts as none: the next signed call proposes afresh, and the lists hide it', () => {
    const lapsed = later(DELETION_PROPOSAL_DAYS);
    expect(deletionStep({ id: 'abe' }, { deletionProposal: proposal }, lapsed).kind).toBe('PROPOSE');
    expect(deletionStep({ id: 'ada' }, { deletionProposal: proposal }, lapsed).kind).toBe('PROPOSE');
    expect(deletionProposalView({ deletionProposal: proposal }, lapsed)).toBeUndefined();
    expect(deletionProposalView({ deletionProposal: proposal }, later(1))).toMatchObject({
      proposedBy: { id: 'ada', name: 'Ada' },
      expiresAt: '2026-12-02T10:00:00.000Z',
    });
  });
});
