import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { jsonText } from '../support/api';
import { type KitUsers, StackKit } from '../support/stack-kit';
import { type StackProcess, startStackProcess } from '../support/stack-process';

/**
 * "The Technical Leader approves last" (docs/approval-policy.md, decision 338), over HTTP on a stack of
 * this file's own started with APPROVAL_POLICY=technical-leader-last, so it holds whichever policy the
 * run selects: notify mails only those whose turn is open; the Leader's list and details still show the
 * package; an early approval is refused; the approval that opens the Leader's turn mails them, once.
 */
let stack: StackProcess;
let kit: StackKit;
let u: KitUsers;
let pkg: Package;

interface StoredMail {
  to: string;
  subject: string;
}
async function mailsAbout(name: string): Promise<StoredMail[]> {
  const store = (await (await fetch(`${stack.mailboxUrl.replace(/\/$/, '')}/store`)).json()) as {
    emails: { subject: string; destination: { to: string[] } }[];
  };
  return store.emails
    .filter((m) => m.subject.includes(name))
    .map((m) => ({ to: m.destination.to.join(','), subject: m.subject }));
}
/** Waits until `until` holds of the mails about the package (outbox mail leaves shortly after its commit). */
async function mailsUntil(until: (m: StoredMail[]) => boolean): Promise<StoredMail[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const m = await mailsAbout(pkg.name);
    if (until(m) || Date.now() > deadline) return m;
    await new Promise((r) => setTimeout(r, 200));
  }
}
const approve = (token: string) => kit.call(`/packages/${pkg.id}/approve`, { method: 'POST', token });
const leaderList = async () =>
  jsonText<Package[]>(
    (await kit.must<{ packages: string }>(200, '/dev/packages/approval', { token: u.lead.token })).body
      .packages,
  ).map((p) => p.id);

beforeAll(async () => {
  stack = await startStackProcess({ APPROVAL_POLICY: 'technical-leader-last' });
  kit = new StackKit(stack.url);
  u = await kit.seeded();
}, 900_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

describe('"the Technical Leader approves last" over HTTP', () => {
  it('config.json names the policy the API runs', async () => {
    const config = (await (await fetch(`${stack.url.replace(/\/$/, '')}/config.json`)).json()) as {
      approvalPolicy?: string;
    };
    expect(config.approvalPolicy).toBe('technical-leader-last');
  });

  it('notify mails the approvers whose turn is open, not the Leader; the Leader still lists the package', async () => {
    pkg = await kit.draft(u, 'DEV_UNSIGNED');
    // one approver per role with a candidate (the specification's choice): the seeded four
    const body = kit.notifyBody(u, pkg);
    await kit.must(200, `/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body,
    });
    const asked = await mailsUntil((m) => m.length >= 3);
    expect(asked.map((m) => m.to).sort()).toEqual(
      [u.designTest.email, u.reliability.email, u.release.email].sort(),
    );
    expect(await leaderList()).toContain(pkg.id);
    const details = await kit.must<{ waitingFor: string | null }>(200, `/packages/${pkg.id}/details`, {
      token: u.lead.token,
    });
    expect(details.body.waitingFor).toBe('APPROVE');
  });

  it("refuses the Leader's approval before the others', naming them; nothing changes", async () => {
    const early = await approve(u.lead.token);
    expect([early.status, early.body]).toEqual([
      409,
      {
        errorMessage:
          'You approve this package after Design Engineer (test), Reliability Engineer, SW/FW Release Engineer; wait until they have approved',
      },
    ]);
    expect((await kit.details(pkg.id, u.lead.token)).approvers.every((a) => !a.approved)).toBe(true);
  });

  it("the approval that opens the Leader's turn mails them, exactly once; then the Leader approves", async () => {
    expect((await approve(u.designTest.token)).status).toBe(202);
    // the first approval opens nobody's turn: still no mail to the Leader
    expect((await mailsAbout(pkg.name)).filter((m) => m.to === u.lead.email)).toEqual([]);
    expect((await approve(u.reliability.token)).status).toBe(202);
    expect((await mailsAbout(pkg.name)).filter((m) => m.to === u.lead.email)).toEqual([]);
    expect((await approve(u.release.token)).status).toBe(202);
    const turn = await mailsUntil((m) => m.some((x) => x.to === u.lead.email));
    expect(turn.filter((m) => m.to === u.lead.email)).toEqual([
      { to: u.lead.email, subject: `Your turn to approve: package ${pkg.name}` },
    ]);
    // a retried vote is refused (already decided) and mails nobody again
    expect((await approve(u.release.token)).status).toBe(409);
    expect((await approve(u.lead.token)).status).toBe(202);
    await kit.waitStatus(pkg.id, u.lead.token, 'APPROVED');
    const all = await mailsAbout(pkg.name);
    expect(all.filter((m) => m.to === u.lead.email)).toHaveLength(1);
    expect(await leaderList()).not.toContain(pkg.id);
  });
});
