import type { VoteClause } from '../../../shared/domain/approval-policy';

/** A DynamoDB condition with its placeholders. */
export interface RenderedCondition {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * The ConditionExpression of a vote, rendered from the approval policy's clauses
 * (`voteClauses`, shared/domain/approval-policy.ts), so the rule is written once. Fixed placeholders the
 * vote's UpdateExpression shares: `#s` the status, `#m` the round's map, `#u` the voter. A missing entry
 * fails `#m.#u.approved = :f` (a missing attribute compares unequal), so "chosen" needs no clause of its
 * own; `test/integration/vote-condition.test.ts` runs it against DynamoDB Local beside `voteRefusal`.
 */
export function renderVoteCondition(clauses: readonly VoteClause[]): RenderedCondition {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  let awaited = 0;
  const list = (name: string) => {
    if (names['#m'] !== undefined && names['#m'] !== name) throw new Error('A vote reads one round');
    names['#m'] = name;
  };
  for (const c of clauses) {
    switch (c.kind) {
      case 'statusIs':
        parts.push('#s = :waiting');
        names['#s'] = 'status';
        values[':waiting'] = c.status;
        break;
      case 'undecided':
        list(c.list);
        parts.push('#m.#u.approved = :f AND #m.#u.rejected = :f');
        names['#u'] = c.userId;
        values[':f'] = false;
        break;
      case 'approved': {
        list(c.list);
        const n = `#a${awaited++}`;
        parts.push(`#m.${n}.approved = :t`);
        names[n] = c.userId;
        values[':t'] = true;
        break;
      }
      default: {
        const never: never = c;
        throw new Error(`Unknown vote clause ${JSON.stringify(never)}`);
      }
    }
  }
  return { expression: parts.join(' AND '), names, values };
}
