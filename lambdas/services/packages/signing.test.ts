import { describe, expect, it } from 'vitest';
import { packageWorld, SIG } from '../../testing/package-test-kit';

/** A signed dev package every approver approved: it waits for the release engineer's signature. */
async function awaitingSignature(name = 'Signed 1') {
  const w = packageWorld();
  const t = w.team();
  const approvers = w.approversFor(t, 'DEV_SIGNED');
  const p = await w.draft(t.initiator, 'DEV_SIGNED', name);
  await w.service.notify(t.initiator, p.id, w.choice(approvers, t.release));
  await w.approveAll(p.id, approvers);
  return { w, t, p };
}

describe('sign (AWAITING_SIGNATURE → SIGNED)', () => {
  it('generates the package signed by the signer, clears the task, mails the initiator', async () => {
    const { w, t, p } = await awaitingSignature();
    expect((await w.service.listSigning(t.release, 'DEV')).map((x) => x.id)).toEqual([p.id]);
    const answer = await w.service.sign(t.release, p.id, SIG);
    expect([answer.status, answer.generation?.state]).toEqual(['GENERATING', 'RUNNING']);
    await w.runJobs();
    const signed = (await w.packages.get(p.id))!;
    expect([signed.status, signed.generation]).toEqual(['SIGNED', undefined]);
    expect(signed.mLifePath).toBe(signed.linkToS3);
    expect(w.artefacts.stored.get(signed.linkToS3!)?.signedBy?.id).toBe(t.release.id);
    expect(w.packages.openTasks()).toEqual([]);
    expect(await w.service.listSigning(t.release, 'DEV')).toEqual([]);
    const mail = w.outbox.mails.find((m) => m.event === 'SIGNED');
    expect([mail?.to, mail?.subject]).toEqual([t.initiator.email, 'Package signed: Signed 1']);
    expect(mail?.text).toContain(`${t.release.name} signed "Signed 1". The signed package is ready.`);
    const events = (await w.audit.history(`PKG#${p.id}`)).events.slice(-2);
    expect(events.map((e) => [e.action, e.actorId, e.details?.artefactKey])).toEqual([
      ['SIGNED', t.release.id, undefined],
      ['PACKAGE_GENERATED', t.release.id, signed.linkToS3],
    ]);
  });

  it('is refused to anyone but the signer, and once the package no longer waits', async () => {
    const { w, t, p } = await awaitingSignature();
    await expect(w.service.sign(t.lead, p.id, SIG)).rejects.toMatchObject({
      statusCode: 403,
      message: 'You are not the signer of this package',
    });
    await w.service.sign(t.release, p.id, SIG);
    // the signer's retry before any worker took the job (a crash before the hand-over, decision 284): the
    // job is handed over again, nothing else is written
    const events = (await w.audit.history(`PKG#${p.id}`)).events.length;
    expect((await w.service.sign(t.release, p.id, SIG)).status).toBe('GENERATING');
    expect(w.jobs.started).toHaveLength(2);
    // to the worker of the package's stage both times: only it holds that stage's signing key
    expect(w.jobs.started.map((j) => j.stage)).toEqual([p.resourceStage, p.resourceStage]);
    expect((await w.audit.history(`PKG#${p.id}`)).events).toHaveLength(events);
    await expect(w.service.rejectSigning(t.release, p.id, 'no', SIG)).rejects.toMatchObject({
      statusCode: 409,
    });
    // both runs: one claims the job and commits it, the other stands down
    await w.runJobs();
    expect((await w.actions(p.id)).filter((a) => a === 'PACKAGE_GENERATED')).toHaveLength(1);
    await expect(w.service.sign(t.release, p.id, SIG)).rejects.toMatchObject({
      statusCode: 409,
      message: 'The package is not waiting for a signature',
    });
  });

  it('keeps only the winner’s file when two signatures race', async () => {
    const { w, t, p } = await awaitingSignature();
    const results = await Promise.allSettled([
      w.service.sign(t.release, p.id, SIG),
      w.service.sign(t.release, p.id, SIG),
    ]);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(lost.reason).toMatchObject({
      statusCode: 409,
      message: 'The package was signed meanwhile; reload it to see the signed package',
    });
    expect(w.jobs.started).toHaveLength(1);
    await w.runJobs();
    const stored = await w.packages.get(p.id);
    expect([...w.artefacts.stored.keys()]).toEqual([stored?.artefact?.key]);
  });

  it('tells a signature that lost to a refusal, and leaves no file', async () => {
    const { w, t, p } = await awaitingSignature();
    const [signing, refusing] = await Promise.allSettled([
      w.service.sign(t.release, p.id, SIG),
      w.service.rejectSigning(t.release, p.id, 'wrong file', SIG),
    ]);
    expect(refusing.status).toBe('fulfilled');
    expect((signing as PromiseRejectedResult).reason).toMatchObject({
      statusCode: 409,
      message: 'Signing of this package was rejected meanwhile; it cannot be signed or rejected again',
    });
    expect(w.artefacts.stored.size).toBe(0);
  });
});

describe('reject-signing (AWAITING_SIGNATURE → REJECTED)', () => {
  it('records the reason, clears the task and mails the initiator', async () => {
    const { w, t, p } = await awaitingSignature('Signed 2');
    const r = await w.service.rejectSigning(t.release, p.id, 'bad header', SIG);
    expect([r.status, r.rejectionNote]).toEqual(['REJECTED', 'bad header']);
    expect(w.packages.openTasks()).toEqual([]);
    const mail = w.outbox.mails.find((m) => m.event === `SIGNING_REJECTED#${t.release.id}`);
    expect([mail?.to, mail?.subject]).toEqual([t.initiator.email, 'Signature refused: Signed 2']);
    expect((await w.actions(p.id)).at(-1)).toBe('SIGNING_REJECTED');
    await expect(w.service.rejectSigning(t.lead, p.id, 'x', SIG)).rejects.toMatchObject({ statusCode: 403 });
  });
});
