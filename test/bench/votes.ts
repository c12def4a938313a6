import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { directUsersAt } from '../support/direct-user-records';
import { makeClient } from './client';
import { benchStack, TABLE, templatePackage } from './list-seed';
import { closedLoop, type Load } from './load';
import { info, ms, progress, QUICK, type Row } from './report';

const SECTION = 'votes';
/** votes measured per concurrency: bounded counts, not a duration (each vote is a signature) */
const VOTES = QUICK ? { 1: 20, 10: 60 } : { 1: 60, 10: 200 };
/** unmeasured votes first: the local server loads the approve handler on its first call */
const WARM_UP = 5;

/**
 * Vote latency on one package (budget: p99 at most 1.5× the run before one commit per
 * decision, docs/performance.md): `POST /packages/{id}/approve` over HTTP against a local stack, at 1 and
 * at 10 voters at once, each vote by another approver of the same package. A real package has one
 * approver per role; to give one package this many voters, the stored approver map is widened (as
 * test/integration/concurrency.test.ts does) with users written straight into the users table. One
 * approver is always left undecided, so every measured vote is a counted, non-final vote.
 */
export async function benchVotes(_tmp: string): Promise<Row[]> {
  const { stack, forget, doc } = await benchStack();
  const rows: Row[] = [];
  try {
    const api = makeClient(stack.url);
    for (const clients of [1, 10] as const) {
      const measured = VOTES[clients];
      const warm = clients === 1 ? WARM_UP : 0;
      progress(`votes: a package with ${measured + warm + 1} approvers, ${clients} voter(s) at a time`);
      const { id } = await templatePackage(api, `bench-votes-${clients}`);
      const voters = await directUsersAt(stack, measured + warm + 1, 'TECHNICAL_LEADER');
      await doc.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: { pk: `PKG#${id}`, sk: 'PKG' },
          UpdateExpression: 'SET approvers = :m, approverCount = :n',
          ExpressionAttributeValues: {
            ':m': Object.fromEntries(
              voters.map((v) => [
                v.id,
                {
                  user: { id: v.id, name: v.name, email: v.email, userRole: 'TECHNICAL_LEADER' },
                  role: 'TECHNICAL_LEADER',
                  approved: false,
                  rejected: false,
                },
              ]),
            ),
            ':n': voters.length,
          },
        }),
      );
      const queue = voters.slice(0, -1);
      const vote = async () => {
        const v = queue.shift();
        if (!v) throw new Error('no voter left');
        const r = await api.call(`/packages/${id}/approve`, {
          method: 'POST',
          token: v.token,
          body: { password: SEED_PASSWORD },
        });
        if (r.status !== 202) throw new Error(`vote: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      };
      if (warm) await closedLoop(1, { requests: warm }, vote);
      const load = await closedLoop(clients, { requests: measured }, vote);
      rows.push(voteRow(clients, load));
    }
  } finally {
    await stack.stop();
    forget();
  }
  return rows;
}

function voteRow(clients: number, l: Load): Row {
  return info(
    SECTION,
    `POST /packages/{id}/approve, one package, ${clients} voter${clients > 1 ? 's' : ''} at once`,
    `p50 ${ms(l.p50)} · p99 ${ms(l.p99)} · ${l.rps.toFixed(1)} votes/s · ${l.count} ok${l.failed ? ` · ${l.failed} failed` : ''}`,
    'p99 ≤ 1.5× before one commit per decision',
  );
}
