import { describe, expect, it } from 'vitest';
import { voteClauses } from '../../../shared/domain/approval-policy';
import { APPROVAL_ROUND, DELIVERY_ROUND } from '../../../shared/domain/voting-rounds';
import { renderVoteCondition } from './vote-condition';

describe('the DynamoDB vote condition, rendered from the approval policy', () => {
  it("is today's condition for today's policy", () => {
    const c = renderVoteCondition(voteClauses('u1', DELIVERY_ROUND, 'approve'));
    expect(c.expression).toBe('#s = :waiting AND #m.#u.approved = :f AND #m.#u.rejected = :f');
    expect(c.names).toEqual({ '#s': 'status', '#m': 'deliveryApprovers', '#u': 'u1' });
    expect(c.values).toEqual({ ':waiting': 'DELIVERY_PENDING', ':f': false });
  });

  it('adds one approval per awaited approver', () => {
    const c = renderVoteCondition([
      ...voteClauses('tl', APPROVAL_ROUND, 'approve'),
      { kind: 'approved', list: 'approvers', userId: 'a' },
      { kind: 'approved', list: 'approvers', userId: 'b' },
    ]);
    expect(c.expression).toBe(
      '#s = :waiting AND #m.#u.approved = :f AND #m.#u.rejected = :f AND #m.#a0.approved = :t AND #m.#a1.approved = :t',
    );
    expect(c.names).toMatchObject({ '#a0': 'a', '#a1': 'b' });
    expect(c.values).toMatchObject({ ':t': true });
  });

  it('refuses clauses of two rounds in one condition', () => {
    expect(() =>
      renderVoteCondition([
        { kind: 'undecided', list: 'approvers', userId: 'a' },
        { kind: 'approved', list: 'deliveryApprovers', userId: 'b' },
      ]),
    ).toThrow(/one round/);
  });
});
