import { type Decision, voteClauses, voteRefusal } from '../../../shared/domain/approval-policy';
import { ROUNDS, type RoundName } from '../../../shared/domain/package-lifecycle';
import type { PackageRecord, PlanDecision, VoteResult } from '../../ports/package-repository';
import { decidedPackage } from '../decided-package';
import { commitRecorded } from './audit-commit';
import { commitItems } from './package-commit';
import { toItem } from './package-items';
import type { PackageTableContext } from './package-table-context';
import type { PackageTransactItem } from './package-transact';
import { renderVoteCondition } from './vote-condition';

/** Votes and rejections of the package table (split from package-repository.ts to keep each file readable). */

/**
 * The write of a decided package: a Put of `next` on the approval policy's vote condition (`voteClauses`:
 * the package waits in the round, the voter is chosen and undecided and, to approve, whoever the policy's
 * order puts first approved; rendered by vote-condition.ts) and on the version read (`read`), so the
 * counter the plan read (its `approved: "k/n"`) is the stored one.
 */
export function decisionPut(
  ctx: Pick<PackageTableContext, 'table' | 'policy'>,
  read: PackageRecord,
  userId: string,
  round: RoundName,
  decision: Decision,
  next: PackageRecord,
): PackageTransactItem {
  return {
    Put: {
      TableName: ctx.table,
      Item: toItem(next),
      ...decisionCondition(ctx, read, userId, round, decision),
    },
  };
}

/**
 * The condition of a decision's write (test/integration/vote-condition.test.ts runs it on DynamoDB Local
 * beside `voteRefusal`): the policy's clauses and the version read.
 */
export function decisionCondition(
  ctx: Pick<PackageTableContext, 'policy'>,
  read: Pick<PackageRecord, 'version'> & Parameters<typeof voteClauses>[3],
  userId: string,
  round: RoundName,
  decision: Decision,
) {
  const c = renderVoteCondition(voteClauses(userId, ROUNDS[round], decision, read, ctx.policy));
  return {
    ConditionExpression: `${c.expression} AND #v = :v`,
    ExpressionAttributeNames: { ...c.names, '#v': 'version' },
    ExpressionAttributeValues: { ...c.values, ':v': read.version },
  };
}

/**
 * One approver's decision and what its plan commits with it, in one transaction (decision 283): read,
 * refuse by the policy's rule (voteRefusal) what it refuses, else plan and write on the condition above.
 * A write that lost to a concurrent one (another vote moved the version, another event the chain head)
 * reads again and decides again: the vote is then counted on the new state, or refused by it.
 */
export function decidePackage(
  ctx: PackageTableContext,
  id: string,
  userId: string,
  round: RoundName,
  decision: Decision,
  at: string,
  plan: PlanDecision,
  note?: string,
): Promise<VoteResult> {
  let before: number | undefined;
  return commitRecorded<VoteResult>(
    ctx.audit,
    async (lost) => {
      const read = await ctx.get(id);
      const refusal = voteRefusal(read, userId, ROUNDS[round], decision, ctx.policy);
      if (refusal || !read) return { done: { ok: false, reason: refusal ?? 'notFound' } };
      // the package write held on this very version and still failed: an item beside it (a mail id
      // written before) refused, which no new try changes
      if (lost === 'state' && read.version === before)
        throw new Error(`a decision on package ${id} was refused by an item committed with it`);
      before = read.version;
      const { next, commit } = await plan(decidedPackage(read, userId, round, decision, at, note));
      return {
        items: [
          decisionPut(ctx, read, userId, round, decision, next),
          ...(await commitItems(ctx, id, commit)),
        ],
        events: commit.events ?? [],
        result: { ok: true, pkg: next },
      };
    },
    { retryStateConflicts: true },
  );
}
