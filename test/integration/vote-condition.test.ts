import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { decisionCondition } from '../../lambdas/adapters/dynamodb/package-votes';
import { PACKAGE_STATUSES } from '../../shared/api/contracts/packages';
import {
  APPROVAL_POLICY,
  type ApprovalPolicy,
  type Decision,
  type VoteEntry,
  voteRefusal,
} from '../../shared/domain/approval-policy';
import { ROUNDS, type RoundName } from '../../shared/domain/package-lifecycle';
import { NON_ADMIN_ROLES } from '../../shared/domain/roles';
import { dynamoAt, tableOf } from '../support/store';

/**
 * The approval policy's vote rule (`voteRefusal`) and the DynamoDB condition the adapter writes a decision
 * on, rendered from the same policy (`voteClauses` → lambdas/adapters/dynamodb/vote-condition.ts, with the
 * version read: `decisionCondition`), accept and refuse the same votes: random packages (status, both
 * rounds' approvers with random decisions), voters and decisions, each written to the local stack's
 * DynamoDB Local and checked there with the adapter's condition (a ConditionCheck, so the condition alone
 * decides: the adapter also asks `voteRefusal` before it writes, decision 283). Run for today's policy and
 * for one with an order (the Technical Leader approves last), so the order's clauses are checked too. The
 * items carry no `kind`, so no list index sees them; each is deleted after its case.
 */
const TABLE = tableOf('packages');
const ddb = dynamoAt(inject('dynamoEndpoint'));
const USERS = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
const run = `vc-${Date.now().toString(36)}`;

/** Technical Leader last: the ordered variant of today's policy. */
const TL_LAST: ApprovalPolicy = {
  ...APPROVAL_POLICY,
  rounds: {
    approval: {
      ...APPROVAL_POLICY.rounds.approval,
      approvesAfter: {
        TECHNICAL_LEADER: NON_ADMIN_ROLES.filter((r) => r !== 'TECHNICAL_LEADER'),
      },
    },
    delivery: {
      ...APPROVAL_POLICY.rounds.delivery,
      approvesAfter: { TECHNICAL_LEADER: ['RELIABILITY_ENGINEER', 'SW_FW_RELEASE_ENGINEER'] },
    },
  },
};

/** Whether DynamoDB Local holds the adapter's condition of this decision on the stored package. */
async function conditionHolds(
  policy: ApprovalPolicy,
  id: string,
  read: Parameters<typeof decisionCondition>[1],
  c: Pick<VotingCase, 'voter' | 'round' | 'decision'>,
): Promise<boolean> {
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: TABLE,
              Key: { pk: `PKG#${id}`, sk: 'PKG' },
              ...decisionCondition({ policy }, read, c.voter, c.round, c.decision),
            },
          },
        ],
      }),
    );
    return true;
  } catch (e) {
    if (e instanceof TransactionCanceledException) return false;
    throw e;
  }
}

/** A round's approvers: some users, one role each (users may repeat across the two rounds). */
const entries = fc
  .subarray(USERS.slice(0, 5))
  .chain((ids) =>
    fc.tuple(
      fc.constant(ids),
      fc.shuffledSubarray([...NON_ADMIN_ROLES], { minLength: ids.length, maxLength: ids.length }),
      // mostly undecided, so an order has something to wait for
      fc.array(fc.constantFrom([false, false], [false, false], [true, false], [false, true], [true, true]), {
        minLength: ids.length,
        maxLength: ids.length,
      }),
    ),
  )
  .map(([ids, roles, decided]) => {
    const map: Record<string, VoteEntry & { user: { id: string } }> = {};
    ids.forEach((id, i) => {
      const [approved, rejected] = decided[i]!;
      map[id] = { user: { id }, role: roles[i]!, approved, rejected };
    });
    return map;
  });

const votingCase = fc.record({
  exists: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
  // mostly a status a round waits in, so votes are accepted too
  status: fc.oneof(
    { arbitrary: fc.constantFrom('PENDING_APPROVAL', 'DELIVERY_PENDING'), weight: 3 },
    { arbitrary: fc.constantFrom(...PACKAGE_STATUSES), weight: 1 },
  ),
  approvers: entries,
  deliveryApprovers: entries,
  voter: fc.constantFrom(...USERS),
  round: fc.constantFrom<RoundName>('approval', 'delivery'),
  decision: fc.constantFrom<Decision>('approve', 'reject'),
});

type VotingCase = typeof votingCase extends fc.Arbitrary<infer T> ? T : never;

/** Hand-written cases that reach every answer, run before the random ones (so the coverage checks below
 * never depend on the draw). */
function reachEveryAnswer(): VotingCase[] {
  const pending = (approvers: VotingCase['approvers']): VotingCase => ({
    exists: true,
    status: 'PENDING_APPROVAL',
    approvers,
    deliveryApprovers: {},
    voter: 'u0',
    round: 'approval',
    decision: 'approve',
  });
  const undecided = (id: string, role: VotingCase['approvers'][string]['role']) => ({
    user: { id },
    role,
    approved: false,
    rejected: false,
  });
  const one = { u0: undecided('u0', 'RELIABILITY_ENGINEER') };
  return [
    pending(one), // accepted
    { ...pending(one), exists: false }, // notFound
    { ...pending(one), voter: 'u5' }, // notAssigned
    pending({ u0: { ...one.u0, approved: true } }), // alreadyDecided
    { ...pending(one), status: 'SIGNED' }, // notWaiting
    // notYourTurn when the Technical Leader approves last; accepted under today's policy
    pending({ u0: undecided('u0', 'TECHNICAL_LEADER'), u1: undecided('u1', 'RELIABILITY_ENGINEER') }),
  ];
}

async function agree(policy: ApprovalPolicy, runs: number) {
  let n = 0;
  const seen = new Map<string, number>();
  const check = async (c: VotingCase) => {
    const id = `${run}-${n++}`;
    const state = {
      status: c.status,
      approvers: c.approvers,
      deliveryApprovers: c.deliveryApprovers,
    };
    if (c.exists)
      await ddb.send(
        new PutCommand({
          TableName: TABLE,
          Item: {
            pk: `PKG#${id}`,
            sk: 'PKG',
            id,
            header: '{}',
            ...state,
            approverCount: Object.keys(c.approvers).length,
            approvedCount: Object.values(c.approvers).filter((e) => e.approved).length,
            deliveryApproverCount: Object.keys(c.deliveryApprovers).length,
            deliveryApprovedCount: Object.values(c.deliveryApprovers).filter((e) => e.approved).length,
            version: 1,
          },
        }),
      );
    try {
      const expected = voteRefusal(c.exists ? state : null, c.voter, ROUNDS[c.round], c.decision, policy);
      // the state as the adapter read it: the stored item (version 1)
      const holds = await conditionHolds(policy, id, { ...state, version: 1 }, c);
      expect(holds, JSON.stringify({ expected, case: c })).toBe(expected === null);
      const outcome = expected ?? 'accepted';
      seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
    } finally {
      if (c.exists)
        await ddb.send(new DeleteCommand({ TableName: TABLE, Key: { pk: `PKG#${id}`, sk: 'PKG' } }));
    }
  };
  for (const c of reachEveryAnswer()) await check(c);
  await fc.assert(fc.asyncProperty(votingCase, check), { numRuns: runs });
  return seen;
}

describe('the vote condition in DynamoDB Local and the approval policy agree', () => {
  it("on random votes under today's policy", { timeout: 180_000 }, async () => {
    const seen = await agree(APPROVAL_POLICY, 200);
    // the cases reach every answer of today's rule
    for (const outcome of ['accepted', 'notFound', 'notAssigned', 'alreadyDecided', 'notWaiting'])
      expect(seen.get(outcome), outcome).toBeGreaterThan(0);
    expect(seen.has('notYourTurn')).toBe(false);
  });

  it('on random votes under a policy with an order (the Technical Leader approves last)', {
    timeout: 180_000,
  }, async () => {
    const seen = await agree(TL_LAST, 200);
    for (const outcome of ['accepted', 'notYourTurn', 'alreadyDecided', 'notWaiting'])
      expect(seen.get(outcome), outcome).toBeGreaterThan(0);
  });
});
