import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTable } from '../../infra/local/local-aws';
import type { Package } from '../../shared/api/contracts/packages';
import { checkCompleteness, completenessInputOf } from '../../shared/domain/audit-completeness';
import { SEED_PASSWORD, SEED_USERS } from '../../shared/domain/seed-users';
import type { ApiResult } from '../support/api';
import { settledAuditVerify } from '../support/audit-verify-run';
import { cheapenPasswords } from '../support/cheap-signatures';
import { approversFor } from '../support/package-flow';
import { type KitUsers, StackKit } from '../support/stack-kit';
import { type StackProcess, startStackProcess } from '../support/stack-process';
import { dynamoAt, scanAll } from '../support/store';

/**
 * The process-level crash (decision 291): the whole local stack (gateway, functions, DynamoDB Local,
 * s3rver) is killed with SIGKILL while approvals are in flight, started again on the same data folder,
 * and every approver whose call got no answer sends it again. Then every decided approval has exactly
 * one APPROVED event, no event claims an approval the state lacks, and audit:verify --local passes.
 * Rounds kill at the moment a vote becomes visible to a reader (the window between a vote and its
 * record, as the outside tester did) and at random moments. Bounded: FRP_KILL_ROUNDS rounds (default 6)
 * of FRP_KILL_PACKAGES packages (default 3), each with every approver voting at once.
 */
const ROUNDS = Number(process.env.FRP_KILL_ROUNDS ?? 6);
const PACKAGES = Number(process.env.FRP_KILL_PACKAGES ?? 3);

let dataDir: string;
let stack: StackProcess;
let kit: StackKit;
let u: KitUsers;

interface Tally {
  round: string;
  approvals: number;
  decided: number;
  withoutEvent: number;
  eventWithoutDecision: number;
  problems: string[];
}
const tallies: Tally[] = [];

/**
 * Starts the stack on the killed one's data folder. A start that fails is tried once more (its error
 * printed first): what this test proves is the record after a restart, and a restart an operator sees
 * fail is also tried again; a second failure fails the round with both outputs.
 */
async function start(): Promise<void> {
  const env = { LOGIN_MAX_FAILURES_PER_SOURCE: '100000' };
  try {
    stack = await startStackProcess(env, dataDir);
  } catch (first) {
    console.error(
      `the stack did not start on ${dataDir}; trying once more:\n${(first as Error).message.slice(-4000)}`,
    );
    stack = await startStackProcess(env, dataDir);
  }
  kit = new StackKit(stack.url);
}

/**
 * SIGKILL to the stack's whole process group: nothing it runs gets to finish or clean up. Resolves once
 * every process of the group is gone, the emulators too: on a busy machine a dying DynamoDB Local can
 * still hold its data files when the next stack starts on the same folder.
 */
async function killStack(): Promise<void> {
  const child = stack.child;
  const gone = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {}
  await gone;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && groupAlive(child.pid!)) await new Promise((r) => setTimeout(r, 100));
}

/** Whether any process of the process group `pgid` still exists (signal 0 checks without sending). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once any of the packages shows a counted vote to a reader of the table (or after `ms`). */
async function firstVoteVisible(ids: string[], ms: number): Promise<void> {
  const ddb = dynamoAt(stack.dynamoEndpoint);
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const seen = await Promise.all(
      ids.map((id) =>
        ddb
          .send(
            new GetCommand({
              TableName: localTable('packages'),
              Key: { pk: `PKG#${id}`, sk: 'PKG' },
              ConsistentRead: true,
            }),
          )
          .then((r) => Number(r.Item?.approvedCount ?? 0))
          .catch(() => 0),
      ),
    );
    if (seen.some((n) => n > 0)) return;
  }
}

/** An approval as its approver sends it: no answer (the stack died) means send it again. */
const approve = (base: StackKit, id: string, token: string): Promise<ApiResult | null> =>
  base.call(`/packages/${id}/approve`, { method: 'POST', token }).catch(() => null);

async function round(name: string, moment: 'visible' | 'random'): Promise<void> {
  const pkgs: Package[] = [];
  for (let i = 0; i < PACKAGES; i++) pkgs.push(await kit.notified(u, 'DEV_UNSIGNED'));
  const votes = pkgs.flatMap((p) => approversFor(u, p.type).map((v) => ({ pkg: p, voter: v })));
  const before = kit;
  const answers = votes.map((v) => approve(before, v.pkg.id, v.voter.token));
  if (moment === 'visible')
    await firstVoteVisible(
      pkgs.map((p) => p.id),
      60_000,
    );
  else await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 1500)));
  await killStack();
  const first = await Promise.all(answers);
  await start();
  // every approver who got no answer (or a 5xx) sends the same approval again, until it is answered
  for (const [i, v] of votes.entries()) {
    let r = first[i];
    for (let tries = 0; (!r || r.status >= 500) && tries < 5; tries++)
      r = await approve(kit, v.pkg.id, v.voter.token);
    if (!r || ![200, 202, 409].includes(r.status))
      throw new Error(
        `approval of ${v.pkg.id} by ${v.voter.id} answered ${r?.status} ${JSON.stringify(r?.body)}`,
      );
  }
  const ddb = dynamoAt(stack.dynamoEndpoint);
  const [packages, users, resources, dcc, audit] = await Promise.all(
    (['packages', 'users', 'resources', 'dcc', 'audit'] as const).map((t) => scanAll(ddb, localTable(t))),
  );
  const mine = new Set(pkgs.map((p) => `PKG#${p.id}`));
  const problems = checkCompleteness(
    completenessInputOf(
      { packages: packages!, users: users!, resources: resources!, dcc: dcc!, audit: audit! },
      new Date(),
      SEED_USERS,
    ),
  )
    .filter((d) => mine.has(d.subject))
    .map((d) => `${d.subject}: ${d.kind}: ${d.message}`);
  const approvals = audit!.filter((e) => mine.has(String(e.pk)) && e.action === 'APPROVED');
  let decided = 0;
  let withoutEvent = 0;
  let eventWithoutDecision = 0;
  for (const p of packages!.filter((x) => x.kind === 'PACKAGE' && mine.has(String(x.pk)))) {
    for (const [id, entry] of Object.entries(p.approvers as Record<string, { approved: boolean }>)) {
      const events = approvals.filter((e) => e.pk === p.pk && e.actorId === id).length;
      if (entry.approved) decided += 1;
      if (entry.approved && events !== 1) withoutEvent += 1;
      if (!entry.approved && events > 0) eventWithoutDecision += 1;
    }
  }
  tallies.push({
    round: name,
    approvals: votes.length,
    decided,
    withoutEvent,
    eventWithoutDecision,
    problems,
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'frp-kill-'));
  await start();
  // signatures at cheap scrypt parameters, so every approver's vote is in flight at once (same code path)
  await cheapenPasswords(
    dynamoAt(stack.dynamoEndpoint),
    SEED_USERS.map((s) => ({ email: s.email, password: SEED_PASSWORD })),
  );
  u = await kit.seeded();
}, 900_000);

afterAll(async () => {
  const sum = (k: 'approvals' | 'decided' | 'withoutEvent' | 'eventWithoutDecision') =>
    tallies.reduce((n, t) => n + t[k], 0);
  console.log(
    [
      `killed ${tallies.length} times: ${sum('approvals')} approvals sent, ${sum('decided')} counted, ${sum('withoutEvent')} counted without exactly one event, ${sum('eventWithoutDecision')} events without a decision`,
      ...tallies.map(
        (t) =>
          `  ${t.round}: ${t.decided}/${t.approvals} counted, ${t.withoutEvent} without event, ${t.eventWithoutDecision} event without decision${t.problems.length ? `\n    ${t.problems.join('\n    ')}` : ''}`,
      ),
    ].join('\n'),
  );
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('SIGKILL of the local stack while approvals are in flight', () => {
  for (let i = 0; i < ROUNDS; i++) {
    const moment = i % 2 === 0 ? 'visible' : 'random';
    it(`round ${i + 1}: killed at ${moment === 'visible' ? 'the moment a vote becomes visible' : 'a random moment'}, restarted, retried: every counted approval has exactly one event`, async () => {
      await round(`round ${i + 1} (${moment})`, moment);
      const t = tallies.at(-1)!;
      expect({
        withoutEvent: t.withoutEvent,
        eventWithoutDecision: t.eventWithoutDecision,
        problems: t.problems,
      }).toEqual({
        withoutEvent: 0,
        eventWithoutDecision: 0,
        problems: [],
      });
    }, 600_000);
  }

  it('ends with audit:verify --local passing on the data folder that was killed and restarted', async () => {
    const r = await settledAuditVerify(dataDir, 60_000);
    expect(r.code, r.out).toBe(0);
  }, 120_000);
});
