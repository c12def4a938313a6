import { describe, expect, it } from 'vitest';
import { packageWorld, SIG } from '../../testing/package-test-kit';

async function generated() {
  const w = packageWorld();
  const t = w.team();
  const admin = w.user('ADMIN', 'Ada Admin');
  const p = await w.draft(t.initiator, 'DEV_UNSIGNED', 'To delete');
  const approvers = w.approversFor(t, 'DEV_UNSIGNED');
  await w.service.notify(t.initiator, p.id, w.choice(approvers));
  await w.approveAll(p.id, approvers);
  await w.runJobs();
  return { w, t, admin, p };
}

const IP = '192.0.2.9';
const plain = (...ids: string[]) => ({ ids });
const signed = (
  ids: string[],
  reason = 'Built from the wrong branch',
  password: string = SIG.proof.password,
) => ({
  ids,
  password,
  reason,
});

describe('admin deletes packages', () => {
  it('deletes packages not in flight by the plain list, with tasks and file, audited; the name is free again', async () => {
    const { w, t, admin, p } = await generated();
    const draft = await w.draft(t.initiator, 'DEV_UNSIGNED', 'Still a draft');
    expect(w.artefacts.stored.size).toBe(1);
    const checks = w.signatureChecks.length;
    await w.service.deletePackages(admin, plain(p.id, draft.id, p.id), IP);
    expect(await w.service.listAll()).toEqual([]);
    expect(w.packages.openTasks()).toEqual([]);
    expect(w.artefacts.stored.size).toBe(0);
    // no signature asked for
    expect(w.signatureChecks.length).toBe(checks);
    const last = (await w.audit.history(`PKG#${p.id}`)).events.at(-1);
    expect([last?.action, last?.actorId, last?.meaning]).toEqual([
      'PACKAGE_DELETED',
      admin.id,
      'deletes the package and its generated files',
    ]);
    expect(last?.details?.signature).toBeUndefined();
    // nobody waited on them: no mail
    expect(w.outbox.mails.filter((m) => m.event === 'PACKAGE_DELETED')).toEqual([]);
    const again = await w.draft(t.initiator, 'DEV_UNSIGNED', 'To delete');
    expect(again.status).toBe('DRAFT');
  });

  it('refuses unknown ids and deletes nothing', async () => {
    const { w, admin, p } = await generated();
    await expect(w.service.deletePackages(admin, plain(p.id, 'nope'), IP)).rejects.toMatchObject({
      statusCode: 404,
      message: 'No package with id nope',
    });
    expect((await w.packages.get(p.id))?.status).toBe('APPROVED');
  });

  it('refuses the plain list with 400 when a package is in flight, and deletes nothing of the list', async () => {
    const { w, t, admin, p } = await generated();
    const waiting = await w.draft(t.initiator, 'DEV_UNSIGNED', 'Waiting');
    await w.service.notify(t.initiator, waiting.id, w.choice(w.approversFor(t, 'DEV_UNSIGNED')));
    await expect(w.service.deletePackages(admin, plain(p.id, waiting.id), IP)).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining("Package 'Waiting' is waiting for approval, signature or delivery"),
    });
    expect((await w.packages.get(p.id))?.status).toBe('APPROVED');
    expect((await w.packages.get(waiting.id))?.status).toBe('PENDING_APPROVAL');
    expect(await w.packages.tombstone(waiting.id)).toBeNull();
  });

  it('refuses a wrong password with 403 and a signature without a reason with 400, deleting nothing', async () => {
    const { w, t, admin } = await generated();
    const waiting = await w.draft(t.initiator, 'DEV_UNSIGNED', 'Waiting');
    await w.service.notify(t.initiator, waiting.id, w.choice(w.approversFor(t, 'DEV_UNSIGNED')));
    await expect(
      w.service.deletePackages(admin, signed([waiting.id], 'why', 'wrong'), IP),
    ).rejects.toMatchObject({ statusCode: 403 });
    await expect(
      w.service.deletePackages(admin, { ids: [waiting.id], password: SIG.proof.password }, IP),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: 'A reason is required: say why the package is deleted',
    });
    expect((await w.packages.get(waiting.id))?.status).toBe('PENDING_APPROVAL');
    expect(w.outbox.mails.filter((m) => m.event === 'PACKAGE_DELETED')).toEqual([]);
  });

  it('deletes a package in flight with password and reason: signed audit event, mails to everyone waiting, a tombstone', async () => {
    const w = packageWorld();
    const t = w.team();
    const admin = w.user('ADMIN', 'Ada Admin');
    const p = await w.draft(t.initiator, 'DEV_SIGNED', 'Signed one');
    const approvers = w.approversFor(t, 'DEV_SIGNED');
    await w.service.notify(t.initiator, p.id, w.choice(approvers, t.release));
    await w.service.approve(w.inOrder(approvers)[0]!, p.id, SIG);
    await w.service.deletePackages(admin, signed([p.id]), IP);

    expect(await w.packages.get(p.id)).toBeNull();
    expect(w.packages.openTasks()).toEqual([]);
    const last = (await w.audit.history(`PKG#${p.id}`)).events.at(-1);
    expect([last?.action, last?.actorId, last?.meaning]).toEqual([
      'PACKAGE_DELETED',
      admin.id,
      'deletes the package while people wait on it, signed with the password and a reason; everyone waiting on it is told by mail',
    ]);
    expect(last?.details).toMatchObject({
      status: 'PENDING_APPROVAL',
      reason: 'Built from the wrong branch',
      signature: {
        action: 'deletePackage',
        printedName: 'Ada Admin',
        role: 'ADMIN',
        roleLabel: 'Admin',
        authenticatedBy: 'password',
        meaning: expect.stringContaining('I delete this package while people wait on it'),
      },
    });
    // the initiator, every assigned approver and the signer: one mail each
    const mails = w.outbox.mails.filter((m) => m.event === 'PACKAGE_DELETED');
    expect(mails.map((m) => m.to).sort()).toEqual(
      [t.initiator, ...approvers, t.release]
        .map((u) => u.email)
        .filter((e, i, all) => all.indexOf(e) === i)
        .sort(),
    );
    expect(mails[0]?.subject).toBe('Package deleted: Signed one');
    expect(mails[0]?.text).toContain('Ada Admin (Admin) deleted the package "Signed one"');
    expect(mails[0]?.text).toContain(
      "Ada Admin's reason, in their own words (quoted as written):\n> Built from the wrong branch",
    );
    expect(((last?.details?.notified ?? []) as { email: string }[]).map((n) => n.email).sort()).toEqual(
      mails.map((m) => m.to).sort(),
    );
    expect(await w.packages.tombstone(p.id)).toMatchObject({
      name: 'Signed one',
      status: 'PENDING_APPROVAL',
      deletedBy: { id: admin.id, name: 'Ada Admin', userRole: 'ADMIN' },
      reason: 'Built from the wrong branch',
    });
  });

  it('mails the delivery approvers and the deliverer of a package waiting for delivery, and its signer while it waits to be signed', async () => {
    const w = packageWorld();
    const t = w.team();
    const admin = w.user('ADMIN', 'Ada Admin');
    const approvers = w.approversFor(t, 'RELEASE_SIGNED');
    // a signed release: an unsigned one is never sent to delivery (decision 193)
    const rel = await w.draft(t.initiator, 'RELEASE_SIGNED', 'Release');
    await w.service.notify(t.initiator, rel.id, w.choice(approvers, t.release));
    await w.approveAll(rel.id, approvers);
    await w.service.sign(t.release, rel.id, SIG);
    await w.runJobs();
    const deliveryApprovers = w.approversFor(t, 'RELEASE_SIGNED', 'delivery', [t.release]);
    await w.service.deliver(t.release, rel.id, w.choice(deliveryApprovers), SIG);
    const sig = await w.draft(t.initiator, 'DEV_SIGNED', 'To sign');
    const sigApprovers = w.approversFor(t, 'DEV_SIGNED');
    await w.service.notify(t.initiator, sig.id, w.choice(sigApprovers, t.release));
    await w.approveAll(sig.id, sigApprovers);
    expect((await w.packages.get(sig.id))?.status).toBe('AWAITING_SIGNATURE');

    await w.service.deletePackages(admin, signed([rel.id, sig.id]), IP);
    const to = (id: string) =>
      w.outbox.mails
        .filter((m) => m.event === 'PACKAGE_DELETED' && m.packageId === id)
        .map((m) => m.to)
        .sort();
    expect(to(rel.id)).toEqual([t.initiator, ...deliveryApprovers, t.release].map((u) => u.email).sort());
    expect(to(sig.id)).toEqual([t.initiator, t.release].map((u) => u.email).sort());
  });

  it('answers a later link to a deleted package with who deleted it, when and why', async () => {
    const { w, t, admin } = await generated();
    const waiting = await w.draft(t.initiator, 'DEV_UNSIGNED', 'Waiting');
    await w.service.notify(t.initiator, waiting.id, w.choice(w.approversFor(t, 'DEV_UNSIGNED')));
    await w.service.deletePackages(admin, signed([waiting.id], 'Duplicate of Pacer 2'), IP);
    const said =
      "Package 'Waiting' was deleted by Ada Admin (Admin) on 1 Jan 2026, 09:00 UTC. Reason: Duplicate of Pacer 2";
    await expect(w.service.openOne(t.lead, waiting.id)).rejects.toMatchObject({
      statusCode: 404,
      message: said,
    });
    await expect(w.service.getHeader(waiting.id)).rejects.toMatchObject({ statusCode: 404, message: said });
    // a decision sent from a page opened before the deletion is told the same
    await expect(w.service.approve(t.lead, waiting.id, SIG)).rejects.toMatchObject({
      statusCode: 404,
      message: said,
    });
    await expect(w.service.reject(t.lead, waiting.id, 'late', SIG)).rejects.toMatchObject({
      statusCode: 404,
      message: said,
    });
    await expect(w.service.openOne(t.lead, 'never-was')).rejects.toMatchObject({
      statusCode: 404,
      message: 'Package not found',
    });
  });

  it('refuses a plain deletion that loses to a transition putting the package in flight', async () => {
    const w = packageWorld();
    const t = w.team();
    const p = await w.draft(t.initiator, 'DEV_UNSIGNED', 'Racing');
    const before = await w.packages.get(p.id);
    await w.service.notify(t.initiator, p.id, w.choice(w.approversFor(t, 'DEV_UNSIGNED')));
    // the deletion read the draft before the notify committed
    const outcome = await w.packages.delete(before!, { onlyIn: ['DRAFT'] });
    expect(outcome).toBe('moved');
    expect((await w.packages.get(p.id))?.status).toBe('PENDING_APPROVAL');
  });
});

describe('download and history', () => {
  it('downloads a generated package under a safe file name', async () => {
    const { w, p } = await generated();
    const d = await w.service.download(p.id);
    expect(d.fileName).toBe('To_delete.xml');
    expect(d.base64).toBeTruthy();
  });

  it('refuses a download before generation', async () => {
    const w = packageWorld();
    const p = await w.draft(w.user('DESIGN_ENGINEER_DEV'), 'DEV_UNSIGNED');
    await expect(w.service.download(p.id)).rejects.toMatchObject({ statusCode: 409 });
    await expect(w.service.history('nope')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('returns the events with an intact chain', async () => {
    const { w, t, p } = await generated();
    const h = await w.service.history(p.id);
    expect(h.brokenAtSeq).toBeNull();
    // created, DCC attached, approval requested, one approval each, fully approved, generated
    const n = 3 + w.approversFor(t, 'DEV_UNSIGNED').length + 2;
    expect(h.events.map((e) => e.seq)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });
});
