import { describe, expect, it } from 'vitest';
import type { PackageType } from '../../../shared/api/contracts/packages';
import { APPROVAL_POLICY } from '../../../shared/domain/approval-policy';
import { type NonAdminRole, ROLE_LABELS } from '../../../shared/domain/roles';
import { DEVELOPMENT_MEANINGS } from '../../../shared/domain/signature-meanings';
import { MSG } from '../../../shared/messages';
import { packageWorld, SIG } from '../../testing/package-test-kit';

/**
 * A team and the approvers the policy asks for a package of `type` (one per role), in the order chosen
 * and in an order the policy lets them approve (`ordered`; its last decides the round).
 */
async function world(type: PackageType = 'DEV_UNSIGNED') {
  const w = packageWorld();
  const t = w.team();
  const approvers = w.approversFor(t, type);
  const ordered = w.inOrder(approvers);
  return { w, t, approvers, ordered, first: ordered[0]!, last: ordered.at(-1)! };
}

/** "1/4", "2/4", …: the count an audit event of each vote carries. */
const counts = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}/${n}`);

describe('notify (DRAFT → PENDING_APPROVAL)', () => {
  it('sends the draft to one approver per role: tasks, one mail each, an audit event', async () => {
    const { w, t, approvers } = await world();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED', 'Pacer 1.0');
    const sent = await w.service.notify(t.initiator, p.id, w.choice(approvers));
    expect(sent.status).toBe('PENDING_APPROVAL');
    expect(sent.approvers.map((a) => [a.user.id, a.approved, a.rejected])).toEqual(
      approvers.map((u) => [u.id, false, false]),
    );
    const stored = await w.packages.get(p.id);
    expect([stored?.approverCount, stored?.approvedCount]).toEqual([approvers.length, 0]);
    expect(w.packages.openTasks().map((x) => [x.kind, x.userId, x.stage])).toEqual(
      approvers.map((u) => ['APPROVE', u.id, 'DEV']),
    );
    // those whose turn is open (all, without an order in the policy; the others when their turn opens)
    const mails = w.outbox.mails.filter((m) => m.event === 'APPROVAL_REQUESTED');
    const open = approvers.filter(
      (u) => (APPROVAL_POLICY.rounds.approval.approvesAfter[u.userRole as NonAdminRole] ?? []).length === 0,
    );
    expect(mails.map((m) => m.to)).toEqual(open.map((u) => u.email));
    expect(mails[0]?.subject).toBe('Approval requested: package Pacer 1.0');
    expect(mails[0]?.text).toBe(
      [
        `Hello ${approvers[0]!.name},`,
        '',
        `${t.initiator.name} (Design Engineer (dev)) asks you to approve the package "Pacer 1.0".`,
        `Open it here: https://portal.example/packages/open/${p.id}`,
        '',
        'Package: Pacer 1.0',
        'Type: Development package, unsigned',
        `Resource: ${sent.resourceName}`,
        `Initiator: ${t.initiator.name} (Design Engineer (dev))`,
        `Asked by: ${t.initiator.name} (Design Engineer (dev))`,
        `Asked of you: your approval, as ${ROLE_LABELS[approvers[0]!.userRole]}`,
        '',
        `${t.initiator.name}'s note (the initiator's own words, quoted as written):`,
        '> why',
      ].join('\n'),
    );
    expect(mails[0]?.id).toBe(`${p.id}#${stored?.version}#APPROVAL_REQUESTED#${approvers[0]!.id}`);
    expect((await w.actions(p.id)).at(-1)).toBe('APPROVAL_REQUESTED');
  });

  it('is refused to anyone but the initiator, after the draft, and without a DCC', async () => {
    const { w, t, approvers } = await world();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED');
    await expect(w.service.notify(t.lead, p.id, w.choice(approvers))).rejects.toMatchObject({
      statusCode: 403,
      message: "Only the package's initiator can notify approvers",
    });
    await w.service.notify(t.initiator, p.id, w.choice(approvers));
    await expect(w.service.notify(t.initiator, p.id, w.choice(approvers))).rejects.toMatchObject({
      statusCode: 409,
      message: 'The package was already sent for approval; its notify approvers can no longer change',
    });
    const r = w.resource('DEV');
    const bare = await w.service.generate(t.initiator, r.id, {
      packageName: 'no dcc',
      packageType: 'DEV_UNSIGNED',
      note: 'n',
    });
    await expect(w.service.notify(t.initiator, bare.id, w.choice(approvers))).rejects.toMatchObject({
      statusCode: 409,
      message: 'Attach a DCC to the package before notifying approvers',
    });
  });

  it('refuses bad choices by name and changes nothing', async () => {
    const { w, t, approvers } = await world();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED');
    const replaced = approvers[1]!;
    const waiting = w.user(replaced.userRole, 'Wanda Waiting', { roleStatus: 'REQUESTED' });
    const cases: [Parameters<typeof w.choice>[0], string][] = [
      [
        approvers.map((u) => (u === replaced ? waiting : u)),
        `Wanda Waiting cannot be chosen: their role ${ROLE_LABELS[replaced.userRole]} waits for an administrator's approval`,
      ],
      [approvers.slice(0, -1), `Choose an approver for every role: ${approvers.at(-1)!.userRole} missing`],
      [[t.initiator, ...approvers], 'You cannot choose yourself, or the package initiator, as an approver'],
    ];
    for (const [chosen, message] of cases)
      await expect(w.service.notify(t.initiator, p.id, w.choice(chosen))).rejects.toMatchObject({
        statusCode: 400,
        message,
      });
    expect((await w.packages.get(p.id))?.status).toBe('DRAFT');
    expect(w.packages.openTasks()).toEqual([]);
    expect(w.outbox.mails).toEqual([]);
  });

  it('asks a signed package for a release engineer as signer, an unsigned one for none', async () => {
    const { w, t, approvers } = await world('DEV_SIGNED');
    const signed = await w.draft(t.initiator, 'DEV_SIGNED');
    await expect(w.service.notify(t.initiator, signed.id, w.choice(approvers))).rejects.toMatchObject({
      statusCode: 400,
      message: 'Choose a signer for a signed package',
    });
    await expect(w.service.notify(t.initiator, signed.id, w.choice(approvers, t.lead))).rejects.toMatchObject(
      {
        statusCode: 400,
        message: 'The chosen signer is not a SW/FW Release Engineer',
      },
    );
    const unsigned = await w.draft(t.initiator, 'DEV_UNSIGNED');
    await expect(
      w.service.notify(t.initiator, unsigned.id, w.choice(w.approversFor(t, 'DEV_UNSIGNED'), t.release)),
    ).rejects.toMatchObject({ statusCode: 400, message: 'Only signed packages have a signer' });
    const ok = await w.service.notify(t.initiator, signed.id, w.choice(approvers, t.release));
    expect(ok.signer?.id).toBe(t.release.id);
  });

  it('refuses a signed package when no release engineer may sign', async () => {
    const w = packageWorld();
    const initiator = w.user('DESIGN_ENGINEER_DEV');
    const lead = w.user('TECHNICAL_LEADER');
    const test = w.user('DESIGN_ENGINEER_TEST');
    const p = await w.draft(initiator, 'DEV_SIGNED');
    await expect(w.service.notify(initiator, p.id, w.choice([test, lead]))).rejects.toMatchObject({
      statusCode: 400,
      message: MSG.noSigners,
    });
  });

  it('needs four approver roles for a signed release package', async () => {
    const w = packageWorld();
    const initiator = w.user('DESIGN_ENGINEER_DEV');
    const lead = w.user('TECHNICAL_LEADER');
    const release = w.user('SW_FW_RELEASE_ENGINEER');
    const p = await w.draft(initiator, 'RELEASE_SIGNED');
    await expect(w.service.notify(initiator, p.id, w.choice([lead, release], release))).rejects.toMatchObject(
      {
        statusCode: 400,
        // the spec's words first, then the policy's minimum and whom an admin could grant (decision 332)
        message: `${MSG.notEnoughApprovers} This package (Release package, signed) needs at least 4 approver roles; only 2 have someone who may approve: ask an admin to grant the Design Engineer (dev), Design Engineer (test) or Reliability Engineer role to a colleague who may approve it.`,
      },
    );
  });
});

describe('approve and reject (the approval round)', () => {
  it('counts each vote once and generates an unsigned package on the last one', async () => {
    const { w, t, approvers, ordered, first, last: decider } = await world();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED', 'Pacer 2.0');
    await w.service.notify(t.initiator, p.id, w.choice(approvers));
    for (const [i, u] of ordered.slice(0, -1).entries()) {
      const r = await w.service.approve(u, p.id, SIG);
      expect(r.outcome).toBe('WAITING_FOR_APPROVALS');
      expect((await w.packages.get(p.id))?.approvedCount).toBe(i + 1);
      expect(w.packages.openTasks().some((x) => x.userId === u.id)).toBe(false);
    }
    await expect(w.service.approve(first, p.id, SIG)).rejects.toMatchObject({
      statusCode: 409,
      message: 'You have already decided on this package',
    });
    await expect(w.service.approve(t.initiator, p.id, SIG)).rejects.toMatchObject({
      statusCode: 403,
      message: 'You are not an approver of this package',
    });
    const answer = await w.service.approve(decider, p.id, SIG);
    // generated off the request path (decision 160): GENERATING until the worker's job ran
    expect([answer.outcome, answer.pkg.status, answer.pkg.generation?.requestedBy.id]).toEqual([
      'GENERATING',
      'GENERATING',
      decider.id,
    ]);
    expect(w.artefacts.stored.size).toBe(0);
    await w.runJobs();
    const last = { pkg: (await w.packages.get(p.id))! };
    expect([last.pkg.status, last.pkg.generation]).toEqual(['APPROVED', undefined]);
    expect(last.pkg.linkToS3).toMatch(/^packages\//);
    expect(w.packages.openTasks()).toEqual([]);
    const generated = w.artefacts.stored.get(last.pkg.linkToS3!);
    expect(generated?.approvals.map((a) => a.id)).toEqual(approvers.map((u) => u.id));
    expect(generated?.signedBy).toBeUndefined();
    const mail = w.outbox.mails.find((m) => m.event === 'PACKAGE_GENERATED');
    expect([mail?.to, mail?.subject]).toEqual([t.initiator.email, 'Package approved: Pacer 2.0']);
    expect(mail?.text).toContain('Every approver approved "Pacer 2.0". The package is generated.');
    expect(await w.actions(p.id)).toEqual([
      'PACKAGE_CREATED',
      'DCC_ATTACHED',
      'APPROVAL_REQUESTED',
      ...approvers.map(() => 'APPROVED'),
      'FULLY_APPROVED',
      'PACKAGE_GENERATED',
    ]);
    const votes = (await w.audit.history(`PKG#${p.id}`)).events.filter((e) => e.action === 'APPROVED');
    expect(votes.map((e) => e.details?.approved)).toEqual(counts(approvers.length));
    await expect(w.service.approve(decider, p.id, SIG)).rejects.toMatchObject({ statusCode: 409 });
  });

  it('commits the last vote with the transition and both events; a crash before the hand-over is finished by the decider’s retry', async () => {
    const { w, t, approvers, ordered, first, last: decider } = await world();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED');
    await w.service.notify(t.initiator, p.id, w.choice(approvers));
    for (const u of ordered.slice(0, -1)) await w.service.approve(u, p.id, SIG);
    expect((await w.service.approve(decider, p.id, SIG)).outcome).toBe('GENERATING');
    const trail = (await w.audit.history(`PKG#${p.id}`)).events;
    // one commit: the vote's event and the transition's, consecutive, the state already GENERATING
    expect(trail.slice(-2).map((e) => [e.action, e.details?.status, e.at])).toEqual([
      ['APPROVED', 'PENDING_APPROVAL', trail.at(-1)!.at],
      ['FULLY_APPROVED', 'GENERATING', trail.at(-1)!.at],
    ]);
    // the function died after the commit, before the worker got the job: no job was ever handed over
    w.jobs.take();
    // another approver's retry is told they decided; the decider's hands the job over again
    await expect(w.service.approve(first, p.id, SIG)).rejects.toMatchObject({ statusCode: 409 });
    const retry = await w.service.approve(decider, p.id, SIG);
    expect([retry.outcome, w.jobs.started.length]).toEqual(['GENERATING', 1]);
    expect((await w.audit.history(`PKG#${p.id}`)).events).toHaveLength(trail.length);
    await w.runJobs();
    expect((await w.packages.get(p.id))?.status).toBe('APPROVED');
    expect((await w.actions(p.id)).filter((a) => a === 'APPROVED')).toHaveLength(approvers.length);
    await expect(w.service.approve(decider, p.id, SIG)).rejects.toMatchObject({ statusCode: 409 });
  });

  it('hands a signed package to its signer on the last vote', async () => {
    const { w, t, approvers, ordered } = await world('DEV_SIGNED');
    const p = await w.draft(t.initiator, 'DEV_SIGNED', 'Pacer S');
    await w.service.notify(t.initiator, p.id, w.choice(approvers, t.release));
    for (const u of ordered.slice(0, -1)) await w.service.approve(u, p.id, SIG);
    const last = await w.service.approve(ordered.at(-1)!, p.id, SIG);
    expect([last.outcome, last.pkg.status]).toEqual(['WAITING_FOR_SIGNING', 'AWAITING_SIGNATURE']);
    expect(w.artefacts.stored.size).toBe(0);
    expect(w.packages.openTasks().map((x) => [x.kind, x.userId])).toEqual([['SIGN', t.release.id]]);
    const mail = w.outbox.mails.find((m) => m.event === 'SIGNATURE_REQUESTED');
    expect([mail?.to, mail?.subject]).toEqual([t.release.email, 'Signature requested: package Pacer S']);
    expect(mail?.text).toContain(`Open it here: https://portal.example/packages/open/${p.id}`);
    expect((await w.actions(p.id)).at(-1)).toBe('FULLY_APPROVED');
  });

  it('keeps a fully approved package in the last approver’s list when generation fails, and the retry finishes it', async () => {
    const { w, t, approvers, ordered, first, last: decider } = await world();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED');
    await w.service.notify(t.initiator, p.id, w.choice(approvers));
    for (const u of ordered.slice(0, -1)) await w.service.approve(u, p.id, SIG);
    w.artefacts.failGenerate = new Error('storage down');
    expect((await w.service.approve(decider, p.id, SIG)).outcome).toBe('GENERATING');
    await w.runJobs('The XML package could not be written');
    // back where the decision was taken, the decision kept, the reason shown, nothing stored
    const failed = (await w.packages.get(p.id))!;
    expect([
      failed.status,
      failed.approvedCount,
      failed.generation?.state,
      failed.generation?.reason,
    ]).toEqual(['PENDING_APPROVAL', approvers.length, 'FAILED', 'The XML package could not be written']);
    expect(w.artefacts.stored.size).toBe(0);
    expect((await w.actions(p.id)).slice(-2)).toEqual(['FULLY_APPROVED', 'GENERATION_FAILED']);
    expect((await w.service.listApproval(decider, 'DEV')).map((x) => x.id)).toEqual([p.id]);
    // only the decider may start it again
    await expect(w.service.retryGeneration(first, p.id)).rejects.toMatchObject({ statusCode: 403 });
    await expect(w.service.approve(first, p.id, SIG)).rejects.toMatchObject({ statusCode: 409 });
    w.artefacts.failGenerate = undefined;
    w.clock.advance(3_600_000);
    const retry = await w.service.retryGeneration(decider, p.id);
    expect([retry.outcome, retry.pkg.status]).toEqual(['GENERATING', 'GENERATING']);
    // retried again before a worker took it: handed over again (decision 284); one run generates it
    expect((await w.service.retryGeneration(decider, p.id)).outcome).toBe('GENERATING');
    await w.runJobs();
    await expect(w.service.retryGeneration(decider, p.id)).rejects.toMatchObject({ statusCode: 409 });
    const approved = (await w.packages.get(p.id))!;
    expect(approved.status).toBe('APPROVED');
    // the XML carries the time of the decision, not of the retry an hour later
    expect(w.artefacts.stored.get(approved.linkToS3!)?.ref.generatedAt).toBe(failed.generation?.requestedAt);
    expect((await w.actions(p.id)).slice(-2)).toEqual(['GENERATION_RETRIED', 'PACKAGE_GENERATED']);
    expect((await w.packages.get(p.id))?.approvedCount).toBe(approvers.length);
  });

  it('refuses a vote by someone whose role changed since they were chosen', async () => {
    const { w, t, approvers } = await world();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED');
    await w.service.notify(t.initiator, p.id, w.choice(approvers));
    const moved = { ...t.lead, userRole: 'RELIABILITY_ENGINEER' as const };
    const message =
      'You were chosen as Technical Leader for this package, but you no longer hold that role (you are now Reliability Engineer), so you cannot decide on it';
    await expect(w.service.approve(moved, p.id, SIG)).rejects.toMatchObject({ statusCode: 403, message });
    await expect(w.service.reject(moved, p.id, 'no', SIG)).rejects.toMatchObject({
      statusCode: 403,
      message,
    });
  });

  it('ends the round on any rejection: REJECTED, tasks gone, the initiator mailed', async () => {
    const { w, t, approvers, first } = await world();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED', 'Pacer R');
    await w.service.notify(t.initiator, p.id, w.choice(approvers));
    await w.service.approve(first, p.id, SIG);
    const r = await w.service.reject(t.lead, p.id, 'header wrong', SIG);
    expect([r.status, r.rejectionNote]).toEqual(['REJECTED', 'header wrong']);
    expect(r.approvers.find((a) => a.user.id === t.lead.id)).toMatchObject({
      rejected: true,
      rejectionNote: 'header wrong',
    });
    expect(w.packages.openTasks()).toEqual([]);
    const mail = w.outbox.mails.find((m) => m.event === `REJECTED#${t.lead.id}`);
    expect([mail?.to, mail?.subject]).toEqual([t.initiator.email, 'Approval rejected: Pacer R']);
    expect(mail?.text).toContain(
      `${t.lead.name} (Technical Leader) rejected the package "Pacer R" in approval. The package is rejected: it will not be generated.\nOpen it here: https://portal.example/packages/open/${p.id}`,
    );
    expect(mail?.text).toContain(
      `${t.lead.name}'s reason, in their own words (quoted as written):\n> header wrong`,
    );
    expect((await w.actions(p.id)).at(-1)).toBe('REJECTED');
    const undecided = approvers.find((u) => u !== first && u !== t.lead)!;
    await expect(w.service.approve(undecided, p.id, SIG)).rejects.toMatchObject({
      statusCode: 409,
      message: 'The package is not waiting for package approval',
    });
    await expect(w.service.reject(first, p.id, 'late', SIG)).rejects.toMatchObject({
      statusCode: 409,
      message: 'You have already decided on this package',
    });
    await expect(w.service.reject(t.lead, 'missing', 'x', SIG)).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('decisions are electronic signatures (decision 141)', () => {
  it('checks the password before anything changes, and records name, role, UTC time and meaning', async () => {
    const { w, t, approvers, first } = await world();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED', 'Pacer 2.1');
    await w.service.notify(t.initiator, p.id, w.choice(approvers));
    const before = await w.packages.get(p.id);
    const trail = (await w.audit.history(`PKG#${p.id}`)).events.length;
    const wrong = { ...SIG, proof: { password: 'not it' } };
    await expect(w.service.approve(first, p.id, wrong)).rejects.toMatchObject({ statusCode: 403 });
    await expect(w.service.reject(t.lead, p.id, 'no', wrong)).rejects.toMatchObject({ statusCode: 403 });
    expect(await w.packages.get(p.id)).toEqual(before);
    expect((await w.audit.history(`PKG#${p.id}`)).events).toHaveLength(trail);
    expect(w.signatureChecks).toEqual(['not it', 'not it']);

    const r = await w.service.approve(first, p.id, SIG);
    const approval = r.pkg.approvers.find((a) => a.user.id === first.id);
    // a development package is approved for testing, not for release
    expect(approval?.meaning).toBe(DEVELOPMENT_MEANINGS.approve);
    const last = (await w.audit.history(`PKG#${p.id}`)).events.at(-1);
    expect(last?.details?.signature).toEqual({
      action: 'approve',
      meaning: DEVELOPMENT_MEANINGS.approve,
      printedName: first.name,
      role: first.userRole,
      roleLabel: ROLE_LABELS[first.userRole],
      signedAt: approval?.decidedAt,
      authenticatedBy: 'password',
    });
    expect(approval?.decidedAt).toMatch(/Z$/);
  });
});
