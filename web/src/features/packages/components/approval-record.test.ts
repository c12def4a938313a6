import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../api/history';
import { noteOf } from './approval-record';

const event = (action: string, details: Record<string, unknown>): HistoryEvent => ({
  seq: 7,
  at: '2026-11-29T21:00:00.000Z',
  action,
  meaning: 'reassigns the approver of the package',
  actorName: 'Dana Dev',
  actorRole: 'DESIGN_ENGINEER_DEV',
  details,
});

describe('the record of a package says what each decision carried', () => {
  it('a reassignment names whose place went to whom, its reason and how it was signed', () => {
    const note = noteOf(
      event('REASSIGNED', {
        from: { id: 'u-1', name: 'Dana Departed', why: 'notGranted' },
        to: { id: 'u-2', name: 'Terry Lead', role: 'TECHNICAL_LEADER' },
        reason: 'Dana moved to another team',
        signature: { authenticatedBy: 'password' },
      }),
    );
    expect(note).toBe(
      'Dana Departed → Terry Lead. Reason: Dana moved to another team. Signed with: password',
    );
  });

  it("a withdrawal gives its reason (its 'from' is the state it left, not a person)", () => {
    const note = noteOf(event('WITHDRAWN', { from: 'PENDING_APPROVAL', reason: 'Wrong DCC attached' }));
    expect(note).toBe('Reason: Wrong DCC attached');
  });

  it('a rejection still reads as before', () => {
    expect(noteOf(event('REJECTED', { rejectionNote: 'Header field 3 is wrong' }))).toBe(
      'Reason: Header field 3 is wrong',
    );
  });
});
