import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  type Decision,
  voteClauses,
  voteNeedsState,
  voteRefusal,
} from '../../../shared/domain/approval-policy';
import { ROUNDS, type RoundName } from '../../../shared/domain/package-lifecycle';
import type { OutboxMail, VoteResult } from '../../ports/package-repository';
import { dynamo } from '../aws-clients';
import { outboxPuts } from './outbox';
import { fromItem, pkgKey } from './package-items';
import type { PackageTableContext } from './package-table-context';
import { refusedByCondition } from './package-transact';
import { renderVoteCondition } from './vote-condition';

/** Votes and rejections of the package table (split from package-repository.ts to keep each file readable). */

/**
 * One approver's decision in a round as an atomic update, on the approval policy's condition
 * (`voteClauses`: the package waits in the round, the approver is chosen and undecided and, to approve,
 * whoever the policy's order puts first approved; rendered by vote-condition.ts). Only a round with an
 * order reads the package first, for the ids of the approvers it waits for.
 */
async function decision(
  ctx: PackageTableContext,
  id: string,
  userId: string,
  round: RoundName,
  at: string,
  decision: Decision,
) {
  const r = ROUNDS[round];
  const state = decision === 'approve' && voteNeedsState(round, ctx.policy) ? await ctx.get(id) : null;
  const c = renderVoteCondition(voteClauses(userId, r, decision, state, ctx.policy));
  return {
    TableName: ctx.table,
    Key: pkgKey(id),
    ConditionExpression: c.expression,
    ExpressionAttributeNames: { ...c.names, '#m': r.list, '#u': userId, '#v': 'version', '#s': 'status' },
    ExpressionAttributeValues: { ...c.values, ':t': true, ':f': false, ':at': at, ':one': 1 },
  } satisfies UpdateCommandInput;
}

export async function votePackage(
  ctx: PackageTableContext,
  id: string,
  userId: string,
  round: RoundName,
  at: string,
): Promise<VoteResult> {
  const d = await decision(ctx, id, userId, round, at, 'approve');
  try {
    const r = await dynamo().send(
      new UpdateCommand({
        ...d,
        UpdateExpression:
          'SET #m.#u.approved = :t, #m.#u.decidedAt = :at, updatedAt = :at ADD #c :one, #v :one',
        ExpressionAttributeNames: { ...d.ExpressionAttributeNames, '#c': ROUNDS[round].votes },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { ok: true, pkg: fromItem(r.Attributes ?? {}) };
  } catch (e) {
    if (!(e instanceof ConditionalCheckFailedException)) throw e;
    return { ok: false, reason: await whyRefused(ctx, id, userId, round, 'approve') };
  }
}

export async function rejectPackage(
  ctx: PackageTableContext,
  id: string,
  userId: string,
  round: RoundName,
  note: string,
  at: string,
  mails: OutboxMail[] = [],
): Promise<VoteResult> {
  const d = await decision(ctx, id, userId, round, at, 'reject');
  const update = {
    ...d,
    UpdateExpression:
      'SET #m.#u.rejected = :t, #m.#u.rejectionNote = :note, #m.#u.decidedAt = :at, rejectionNote = :note, #s = :to, updatedAt = :at ADD #v :one',
    ExpressionAttributeValues: {
      ...d.ExpressionAttributeValues,
      ':note': note,
      ':to': ROUNDS[round].rejected,
    },
  };
  try {
    if (mails.length) {
      // the rejection and its mails commit together (decision 095); the transaction returns no item
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [{ Update: update }, ...outboxPuts(ctx.outboxTable(), mails)],
        }),
      );
      const pkg = await ctx.get(id);
      if (!pkg) return { ok: false, reason: 'notFound' };
      return { ok: true, pkg };
    }
    const r = await dynamo().send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
    return { ok: true, pkg: fromItem(r.Attributes ?? {}) };
  } catch (e) {
    if (!refusedByCondition(e)) throw e;
    return { ok: false, reason: await whyRefused(ctx, id, userId, round, 'reject') };
  }
}

/** Why the conditional update failed, read from the package as it is now. */
async function whyRefused(
  ctx: PackageTableContext,
  id: string,
  userId: string,
  round: RoundName,
  decision: Decision,
) {
  return voteRefusal(await ctx.get(id), userId, ROUNDS[round], decision, ctx.policy) ?? 'notWaiting';
}
