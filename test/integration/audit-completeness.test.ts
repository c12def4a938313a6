import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { jsonText } from '../support/api';
import { removeEventAndRechain } from '../support/audit-tamper';
import { settledAuditVerify } from '../support/audit-verify-run';
import { approversFor } from '../support/package-flow';
import { type KitUsers, StackKit } from '../support/stack-kit';
import { type StackProcess, startStackProcess } from '../support/stack-process';
import { dynamoAt, s3At } from '../support/store';

/**
 * `npm run audit:verify` checks that the record is complete, not only unbroken (decision 290): on a stack
 * of its own (the forgery below must not spoil the shared stack's check after the run), an approval's
 * event removed from an otherwise unbroken chain (renumbered, re-hashed, head and bucket copy rewritten)
 * passes every chain check, and audit:verify fails naming the package and the approver.
 */
let stack: StackProcess;
let kit: StackKit;
let u: KitUsers;
let pkg: Package;

beforeAll(async () => {
  stack = await startStackProcess();
  kit = new StackKit(stack.url);
  u = await kit.seeded();
  pkg = await kit.notified(u, 'DEV_UNSIGNED');
  for (const voter of approversFor(u, pkg.type).slice(0, 2))
    await kit.must(202, `/packages/${pkg.id}/approve`, { method: 'POST', token: voter.token });
}, 900_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

describe('audit:verify: the state and the record agree', () => {
  it('passes on the untouched record of a package in its approval round', async () => {
    const r = await settledAuditVerify(stack.dataDir);
    expect(r.out).toMatch(/OK: the table and the bucket agree, and every hash chain is unbroken/);
    expect(r.out).toMatch(/OK: the state and the record agree/);
    expect(r.code, r.out).toBe(0);
  }, 90_000);

  it('fails naming the package and the approver when an approval event is gone from an unbroken chain', async () => {
    const first = approversFor(u, pkg.type)[0]!;
    const h = await kit.must<{ history: string }>(200, `/packages/${pkg.id}/history`, {
      token: u.admin.token,
    });
    const approval = jsonText<{ seq: number; action: string; actorId?: string }[]>(h.body.history).find(
      (e) => e.action === 'APPROVED' && e.actorId === first.id,
    );
    expect(approval).toBeDefined();
    await removeEventAndRechain(
      dynamoAt(stack.dynamoEndpoint),
      s3At(stack.s3Endpoint),
      `PKG#${pkg.id}`,
      approval!.seq,
    );

    const r = await settledAuditVerify(stack.dataDir);
    // every chain still verifies, in the table and in the bucket
    expect(r.chainProblems, r.out).toEqual([]);
    expect(r.out).toMatch(/OK: the table and the bucket agree, and every hash chain is unbroken/);
    expect(r.code, r.out).toBe(1);
    expect(r.disagreements).toEqual([
      expect.stringMatching(
        new RegExp(
          `^FAIL PKG#${pkg.id}: missing: approval approver ${first.id} \\(.*\\) approved at \\S+, but the record has no APPROVED event$`,
        ),
      ),
      // the approval after it now claims to be the first
      expect.stringMatching(
        new RegExp(`^FAIL PKG#${pkg.id}: mismatch: .*says approved 2/\\d+, but it is approval 1/`),
      ),
    ]);
    expect(r.out).toMatch(/2 disagreements between the state and the record/);
  }, 90_000);
});
