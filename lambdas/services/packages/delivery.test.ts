import { describe, expect, it, vi } from 'vitest';
import type { PackageType } from '../../../shared/api/contracts/packages';
import { utcMinute } from '../../../shared/domain/package-deletion';
import { PACKAGE_ERR } from '../../../shared/domain/package-texts';
import { packageTypeLabel } from '../../../shared/domain/package-type-label';
import { useMetrics } from '../../observability/metrics';
import { packageWorld, SIG } from '../../testing/package-test-kit';

/**
 * A generated release package and a second release engineer who delivers it: signed by default (SIGNED),
 * since an unsigned release package is never sent to delivery (decision 193); RELEASE_UNSIGNED ends APPROVED.
 */
async function approvedRelease(type: PackageType = 'RELEASE_SIGNED', name = 'Release 1') {
  const w = packageWorld();
  const t = w.team();
  const approvers = w.approversFor(t, type);
  const p = await w.draft(t.initiator, type, name);
  const signed = type === 'RELEASE_SIGNED';
  await w.service.notify(t.initiator, p.id, w.choice(approvers, signed ? t.release : undefined));
  await w.approveAll(p.id, approvers);
  if (signed) await w.service.sign(t.release, p.id, SIG);
  await w.runJobs();
  const deliverer = w.user('SW_FW_RELEASE_ENGINEER', 'Dora Deliverer');
  const deliveryApprovers = w.approversFor(t, type, 'delivery');
  return { w, t, p, deliverer, deliveryApprovers };
}

describe('deliver (APPROVED|SIGNED → DELIVERY_PENDING)', () => {
  it('starts the delivery round: approvers, tasks and mails, the deliverer recorded', async () => {
    const { w, t, p, deliverer, deliveryApprovers } = await approvedRelease();
    const d = await w.service.deliver(deliverer, p.id, w.choice(deliveryApprovers), SIG);
    expect(d.status).toBe('DELIVERY_PENDING');
    expect(d.deliveryApprovers.map((a) => a.user.id)).toEqual(deliveryApprovers.map((u) => u.id));
    const stored = await w.packages.get(p.id);
    expect([stored?.deliverer?.id, stored?.deliveryApproverCount, stored?.deliveryApprovedCount]).toEqual([
      deliverer.id,
      deliveryApprovers.length,
      0,
    ]);
    expect(stored?.deliveryStartedAt).toBe(w.clock.now().toISOString());
    expect(w.packages.openTasks().map((x) => [x.kind, x.userId, x.stage])).toEqual(
      deliveryApprovers.map((u) => ['DELIVERY', u.id, 'RELEASE']),
    );
    const mails = w.outbox.mails.filter((m) => m.event === 'DELIVERY_REQUESTED');
    expect(mails.map((m) => m.to)).toEqual(deliveryApprovers.map((u) => u.email));
    expect(mails[0]?.subject).toBe('Delivery approval requested: package Release 1');
    expect(mails[0]?.text).toContain(
      `${deliverer.name} (SW/FW Release Engineer) asks you to approve the delivery of the package "Release 1".\nOpen it here: https://portal.example/packages/open/${p.id}`,
    );
    expect((await w.actions(p.id)).at(-1)).toBe('DELIVERY_STARTED');
    expect((await w.service.listDelivery()).map((x) => x.id)).toEqual([p.id]);
    expect((await w.service.listApproval(t.lead, 'DELIVER')).map((x) => x.id)).toEqual([p.id]);
    expect(t.initiator.id).not.toBe(deliverer.id);
  });

  it('refuses dev packages, packages not yet approved, a signer, and the deliverer as approver', async () => {
    const { w, t, p, deliverer, deliveryApprovers } = await approvedRelease();
    const dev = await w.draft(t.initiator, 'DEV_UNSIGNED');
    await expect(
      w.service.deliver(deliverer, dev.id, w.choice(deliveryApprovers), SIG),
    ).rejects.toMatchObject({
      statusCode: 409,
      message: 'Only release packages are delivered',
    });
    const draft = await w.draft(t.initiator, 'RELEASE_SIGNED');
    await expect(
      w.service.deliver(deliverer, draft.id, w.choice(deliveryApprovers), SIG),
    ).rejects.toMatchObject({
      statusCode: 409,
      message: 'The package must be approved (and signed, if signed) before delivery',
    });
    await expect(
      w.service.deliver(deliverer, p.id, w.choice(deliveryApprovers, t.release), SIG),
    ).rejects.toMatchObject({ statusCode: 400, message: 'A delivery has no signer' });
    await expect(w.service.deliver(t.release, p.id, w.choice(deliveryApprovers), SIG)).rejects.toMatchObject({
      statusCode: 400,
      message: 'You cannot choose yourself, or the package initiator, as an approver',
    });
    expect((await w.packages.get(p.id))?.status).toBe('SIGNED');
  });

  it('refuses an unsigned release package with 409: devices refuse it (decision 193), and nothing changes', async () => {
    const { w, p, deliverer, deliveryApprovers } = await approvedRelease('RELEASE_UNSIGNED', 'Unsigned R');
    const before = await w.packages.get(p.id);
    expect(before?.status).toBe('APPROVED');
    const mails = w.outbox.mails.length;
    await expect(w.service.deliver(deliverer, p.id, w.choice(deliveryApprovers), SIG)).rejects.toMatchObject({
      statusCode: 409,
      message: PACKAGE_ERR.unsignedNotDeliverable,
    });
    expect(await w.packages.get(p.id)).toEqual(before);
    expect(w.packages.openTasks()).toEqual([]);
    expect(w.outbox.mails.length).toBe(mails);
    expect(await w.actions(p.id)).not.toContain('DELIVERY_STARTED');
  });
});

describe('approve-delivery and reject-delivery (the delivery round)', () => {
  it('delivers on the last vote and mails the initiator and the deliverer', async () => {
    const { w, t, p, deliverer, deliveryApprovers } = await approvedRelease('RELEASE_SIGNED', 'Release D');
    await w.service.deliver(deliverer, p.id, w.choice(deliveryApprovers), SIG);
    const ordered = w.inOrder(deliveryApprovers, 'delivery');
    const decider = ordered.at(-1)!;
    for (const u of ordered.slice(0, -1)) {
      expect((await w.service.approveDelivery(u, p.id, SIG)).outcome).toBe('WAITING_FOR_APPROVALS');
      expect(w.packages.openTasks().some((x) => x.userId === u.id)).toBe(false);
    }
    await expect(w.service.approveDelivery(deliverer, p.id, SIG)).rejects.toMatchObject({
      statusCode: 403,
      message: 'You are not an approver of this delivery',
    });
    const last = await w.service.approveDelivery(decider, p.id, SIG);
    expect([last.outcome, last.pkg.status]).toEqual(['DELIVERED', 'DELIVERED']);
    const file = (await w.packages.get(p.id))!.artefact!;
    expect(last.pkg.mLifePath).toBe(last.pkg.linkToS3);
    expect(w.packages.openTasks()).toEqual([]);
    const mails = w.outbox.mails.filter((m) => m.event === 'DELIVERED');
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [t.initiator.email, 'Package delivered: Release D'],
      [deliverer.email, 'Package delivered: Release D'],
    ]);
    expect(mails[1]?.text).toBe(
      [
        `Hello ${deliverer.name},`,
        '',
        '"Release D" is delivered.',
        `Open it here: https://portal.example/packages/open/${p.id}`,
        '',
        'Package: Release D',
        `Type: ${packageTypeLabel(p.type)}`,
        `Resource: ${p.resourceName}`,
        `File delivered: generated on ${utcMinute(file.generatedAt)}, ${file.sizeBytes} bytes`,
        `SHA-256: ${file.sha256}`,
      ].join('\n'),
    );
    const history = (await w.audit.history(`PKG#${p.id}`)).events;
    const n = deliveryApprovers.length;
    expect(history.filter((e) => e.action === 'DELIVERY_APPROVED').map((e) => e.details?.approved)).toEqual(
      ordered.map((_, i) => `${i + 1}/${n}`),
    );
    expect(history.at(-1)?.action).toBe('DELIVERED');
    // the delivery names the file it delivers (decision 302)
    expect(history.at(-1)?.details?.delivered).toEqual({
      key: file.key,
      sizeBytes: file.sizeBytes,
      sha256: file.sha256,
      generatedAt: file.generatedAt,
    });
    await expect(w.service.approveDelivery(decider, p.id, SIG)).rejects.toMatchObject({
      statusCode: 409,
      message: 'You have already decided on this package',
    });
    await expect(w.service.rejectDelivery(ordered[0]!, p.id, 'late', SIG)).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it('ends the round on a rejection and lets a release engineer re-deliver', async () => {
    const { w, t, p, deliverer, deliveryApprovers } = await approvedRelease('RELEASE_SIGNED', 'Release X');
    await w.service.deliver(deliverer, p.id, w.choice(deliveryApprovers), SIG);
    const started = (await w.packages.get(p.id))?.deliveryStartedAt;
    await w.service.approveDelivery(t.test, p.id, SIG);
    const r = await w.service.rejectDelivery(t.lead, p.id, 'not this week', SIG);
    expect([r.status, r.rejectionNote]).toEqual(['DELIVERY_REJECTED', 'not this week']);
    expect(w.packages.openTasks()).toEqual([]);
    const mails = w.outbox.mails.filter((m) => m.event === `DELIVERY_REJECTED#${t.lead.id}`);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [t.initiator.email, 'Delivery rejected: Release X'],
      [deliverer.email, 'Delivery rejected: Release X'],
    ]);
    expect(mails[1]?.text).toBe(
      [
        `Hello ${deliverer.name},`,
        '',
        `${t.lead.name} (Technical Leader) rejected the delivery of the package "Release X". The package stays approved and is not delivered to devices; the release engineer may deliver it again.`,
        `Open it here: https://portal.example/packages/open/${p.id}`,
        '',
        'Package: Release X',
        'Type: Release package, signed',
        `Resource: ${p.resourceName}`,
        `Delivery rejected by: ${t.lead.name} (Technical Leader)`,
        '',
        `${t.lead.name}'s reason, in their own words (quoted as written):`,
        '> not this week',
      ].join('\n'),
    );
    expect((await w.actions(p.id)).at(-1)).toBe('DELIVERY_REJECTED');
    await expect(w.service.approveDelivery(t.reliability, p.id, SIG)).rejects.toMatchObject({
      statusCode: 409,
      message: 'The package is not waiting for delivery approval',
    });

    w.clock.advance(60_000);
    const again = await w.service.deliver(deliverer, p.id, w.choice(deliveryApprovers), SIG);
    expect([again.status, again.rejectionNote]).toEqual(['DELIVERY_PENDING', undefined]);
    expect(again.deliveryApprovers.every((a) => !a.approved && !a.rejected)).toBe(true);
    const stored = await w.packages.get(p.id);
    expect([stored?.deliveryApprovedCount, stored?.deliveryStartedAt]).toEqual([0, started]);
    expect((await w.actions(p.id)).at(-1)).toBe('REDELIVERED');
    expect(w.outbox.mails.filter((m) => m.event === 'DELIVERY_REQUESTED')).toHaveLength(
      2 * deliveryApprovers.length,
    );
  });

  it('mails a deliverer who is also the initiator once', async () => {
    const w = packageWorld();
    const t = w.team();
    const initiator = w.user('SW_FW_RELEASE_ENGINEER', 'Ivy Initiator');
    const approvers = [w.user('DESIGN_ENGINEER_DEV'), t.test, t.lead, t.reliability, t.release];
    const p = await w.draft(initiator, 'RELEASE_SIGNED');
    await w.service.notify(initiator, p.id, w.choice(approvers, t.release));
    await w.approveAll(p.id, approvers);
    await w.service.sign(t.release, p.id, SIG);
    await w.runJobs();
    await w.runJobs();
    await w.service.deliver(initiator, p.id, w.choice(approvers), SIG);
    await w.approveAll(p.id, approvers, 'delivery');
    expect(w.outbox.mails.filter((m) => m.event === 'DELIVERED').map((m) => m.to)).toEqual([initiator.email]);
  });
});

describe('a stored package file that is not the generated one (decision 302)', () => {
  it('refuses the last vote with 409: nothing is delivered or recorded, the last voter retries once the file is restored', async () => {
    const { w, t, p, deliverer, deliveryApprovers } = await approvedRelease('RELEASE_SIGNED', 'Release S');
    await w.service.deliver(deliverer, p.id, w.choice(deliveryApprovers), SIG);
    const ordered = w.inOrder(deliveryApprovers, 'delivery');
    const decider = ordered.at(-1)!;
    for (const u of ordered.slice(0, -1)) await w.service.approveDelivery(u, p.id, SIG);
    const file = (await w.packages.get(p.id))!.artefact!;
    w.artefacts.swap(file.key);

    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    // the Powertools Logger writes errors to stderr, JSON a line
    const spies = [process.stdout, process.stderr].map((s) =>
      vi.spyOn(s, 'write').mockImplementation(capture),
    );
    const counted: string[] = [];
    useMetrics({ count: (name) => void counted.push(name) });
    const refused = w.service.approveDelivery(decider, p.id, SIG);
    await refused.catch(() => undefined);
    for (const spy of spies) spy.mockRestore();
    useMetrics(undefined);
    // one line saying what was found, and one count of the metric the alarm watches
    const logged = written
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .filter((l) => l.kind === 'artefact-mismatch');
    expect(logged).toMatchObject([
      {
        level: 'ERROR',
        check: 'delivery',
        packageId: p.id,
        file: 'xml',
        key: file.key,
        problem: 'differs',
        recorded: { sha256: file.sha256, sizeBytes: file.sizeBytes },
      },
    ]);
    expect(counted).toEqual(['ArtefactMismatch']);
    await expect(refused).rejects.toMatchObject({
      statusCode: 409,
      message: `The stored package file does not match the one generated on ${utcMinute(file.generatedAt)} (it is ${file.sizeBytes + 1} bytes with SHA-256 ffffffffffff…, not ${file.sizeBytes} bytes with SHA-256 ${file.sha256.slice(0, 12)}… as recorded), so the package was not delivered — tell an admin. Your approval was not recorded: once the file is restored, approve the delivery again to deliver it`,
    });
    const held = (await w.packages.get(p.id))!;
    // the refused last vote commits nothing (decision 283): every other vote stays in
    expect([held.status, held.deliveryApprovedCount]).toEqual([
      'DELIVERY_PENDING',
      deliveryApprovers.length - 1,
    ]);
    expect(await w.actions(p.id)).not.toContain('DELIVERED');
    expect(w.outbox.mails.filter((m) => m.event === 'DELIVERED')).toEqual([]);
    // the decider's task stays: the delivery waits in their list for the retry
    expect(w.packages.openTasks().map((x) => [x.kind, x.userId])).toEqual([['DELIVERY', decider.id]]);
    expect((await w.service.listApproval(decider, 'DELIVER')).map((x) => x.id)).toEqual([p.id]);
    // refused again while the file is still not the generated one
    await expect(w.service.approveDelivery(decider, p.id, SIG)).rejects.toMatchObject({ statusCode: 409 });

    w.artefacts.restore(file.key);
    const done = await w.service.approveDelivery(decider, p.id, SIG);
    expect([done.outcome, done.pkg.status, done.pkg.mLifePath]).toEqual(['DELIVERED', 'DELIVERED', file.key]);
    expect(w.packages.openTasks()).toEqual([]);
    expect((await w.actions(p.id)).filter((a) => a === 'DELIVERED')).toHaveLength(1);
    expect((await w.actions(p.id)).filter((a) => a === 'DELIVERY_APPROVED')).toHaveLength(
      deliveryApprovers.length,
    );
    expect(t.initiator.id).not.toBe(decider.id);
  });

  it('refuses the download and the statement with 409 and the reason, which were served before the swap', async () => {
    const { w, p } = await approvedRelease('RELEASE_SIGNED', 'Release T');
    const file = (await w.packages.get(p.id))!.artefact!;
    expect((await w.service.download(p.id)).base64).toBeDefined();
    expect(await w.service.provenanceStatement(p.id)).toBeDefined();
    w.artefacts.swap(file.key, 'xml');
    w.artefacts.swap(file.key, 'statement');
    const at = utcMinute(file.generatedAt);
    await expect(w.service.download(p.id)).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringMatching(
        new RegExp(
          `^The stored package file does not match the one generated on ${at} \\(it is .*\\); it was not served — tell an admin$`,
        ),
      ),
    });
    await expect(w.service.provenanceStatement(p.id)).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringMatching(
        new RegExp(
          `^The stored provenance statement does not match the one signed on ${at} \\(it is .*\\); it was not served — tell an admin$`,
        ),
      ),
    });
  });
});
