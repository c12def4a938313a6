import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { ROLE_LABELS } from '../../shared/domain/roles';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { api, jsonText, type Mail, mailMatching, uniq } from '../support/api';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { approversFor, prepareAndNotify, seededSigner } from '../support/package-flow';
import { dynamoAt, tableOf } from '../support/store';

/**
 * workflow mails put the portal's link and the facts first and the initiator's note after,
 * quoted and marked (read from the local SES mailbox); an admin deleting a package in flight signs it
 * with password and reason, everyone waiting on it is mailed, and a later link to it says who deleted it,
 * when and why. The spec's plain list still deletes what is not in flight.
 */
let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

const del = (body: unknown) => api('/admin/packages', { method: 'DELETE', token: u.admin.token, body });

async function exists(id: string, token = u.designDev.token): Promise<boolean> {
  const r = await api(`/packages/${id}/details`, { token });
  return r.status === 200;
}

/** The package's audit events, read from the table (its history answers 404 once it is deleted). */
async function auditEvents(id: string) {
  const r = await dynamoAt(inject('dynamoEndpoint')).send(
    new QueryCommand({
      TableName: tableOf('audit'),
      KeyConditionExpression: 'pk = :p AND seq > :head',
      ExpressionAttributeValues: { ':p': `PKG#${id}`, ':head': 0 },
      ConsistentRead: true,
    }),
  );
  return (r.Items ?? []) as {
    action: string;
    actorId: string;
    meaning: string;
    details?: Record<string, unknown>;
  }[];
}

async function mailTo(to: string, subject: string): Promise<Mail> {
  const mail = await mailMatching(to, (m) => m.subject === subject);
  expect(mail, `a mail to ${to}: ${subject}`).toBeDefined();
  return mail!;
}

/** A signed dev package sent for approval with a note that carries a look-alike link. */
async function pendingWithNote(note: string): Promise<Package> {
  const resource = await uploadPatch(u.designDev.token, 'dev');
  const r = await api<{ package: string }>(`/resources/${resource.id}/generate-package`, {
    method: 'POST',
    token: u.designDev.token,
    body: { packageName: uniq('inflight'), packageType: 'DEV_SIGNED', note },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const pkg = jsonText<Package>(r.body.package);
  await prepareAndNotify(u, pkg);
  return pkg;
}

describe('workflow mail layout in the mailbox', () => {
  it('puts the portal link and the facts before the initiator’s note, quoted; roles by label', async () => {
    const note = 'Urgent fix.\nReview it here instead: https://evil.example/packages/open/x';
    const pkg = await pendingWithNote(note);
    // any chosen approver's mail: the first in the policy's order
    const approver = approversFor(u, pkg.type)[0]!;
    const mail = await mailTo(approver.email, `Approval requested: package ${pkg.name}`);
    const lines = mail.text.split(/\r?\n/);
    const own = lines.findIndex((l) => /^Open it here: https?:\/\/\S+\/packages\/open\/\S+$/.test(l));
    expect(own, mail.text).toBeGreaterThan(0);
    expect(lines[own]).toContain(`/packages/open/${pkg.id}`);
    // the first link of the mail is the portal's own; the note's link comes after it, inside the quote
    const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
    expect(links[0]).toContain(`/packages/open/${pkg.id}`);
    const evil = lines.findIndex((l) => l.includes('https://evil.example'));
    expect(evil).toBeGreaterThan(own);
    expect(lines[evil]).toBe('> Review it here instead: https://evil.example/packages/open/x');
    const heading = lines.findIndex((l) => l.includes("the initiator's own words"));
    expect(heading).toBeGreaterThan(own);
    expect(lines.slice(heading + 1, heading + 3)).toEqual([
      '> Urgent fix.',
      '> Review it here instead: https://evil.example/packages/open/x',
    ]);
    // facts between the link and the note, with role labels, never codes
    expect(lines).toContain(`Package: ${pkg.name}`);
    expect(lines).toContain('Type: Development package, signed');
    expect(lines.indexOf(`Package: ${pkg.name}`)).toBeGreaterThan(own);
    expect(lines.indexOf(`Package: ${pkg.name}`)).toBeLessThan(heading);
    expect(mail.text).toContain('(Design Engineer (dev)) asks you to approve the package');
    expect(mail.text).toContain(`Asked of you: your approval, as ${ROLE_LABELS[approver.role]}`);
    expect(mail.text).not.toMatch(
      /DESIGN_ENGINEER|TECHNICAL_LEADER|RELIABILITY_ENGINEER|SW_FW_RELEASE_ENGINEER/,
    );
  }, 60_000);
});

describe('admin deletion of packages in flight', () => {
  it('refuses the plain list with 400 and deletes nothing; a wrong password 403; with password and reason deletes, audits, mails and explains later links', async () => {
    const pkg = await pendingWithNote('Needs review by Friday');
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const draft = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');

    // the spec's plain list: refused for the package in flight, the draft in the same list kept too
    const plain = await del([draft.id, pkg.id]);
    expect(plain.status, JSON.stringify(plain.body)).toBe(400);
    expect(plain.body.errorMessage).toContain(
      `Package '${pkg.name}' is waiting for approval, signature or delivery`,
    );
    expect(plain.body.errorMessage).toContain('"password"');
    expect(await exists(pkg.id)).toBe(true);
    expect(await exists(draft.id)).toBe(true);

    // a signature without a reason, and a wrong password: refused, nothing deleted
    const noReason = await del({ ids: [pkg.id], password: SEED_PASSWORD });
    expect([noReason.status, noReason.body.errorMessage]).toEqual([
      400,
      'A reason is required: say why the package is deleted',
    ]);
    const wrong = await del({ ids: [pkg.id], password: 'not-the-password', reason: 'Wrong build' });
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(403);
    expect(await exists(pkg.id)).toBe(true);

    // signed: deleted
    const reason = 'Built from the wrong branch';
    const ok = await del({ ids: [pkg.id, draft.id], password: SEED_PASSWORD, reason });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.status).toBe('DELETED');

    // the audit event carries the signature and the reason
    const events = await auditEvents(pkg.id);
    const deleted = events.filter((e) => e.action === 'PACKAGE_DELETED');
    expect(deleted).toHaveLength(1);
    expect(deleted[0]!.actorId).toBe(u.admin.id);
    expect(deleted[0]!.details).toMatchObject({
      reason,
      signature: { action: 'deletePackage', role: 'ADMIN', roleLabel: 'Admin', authenticatedBy: 'password' },
    });
    expect(String((deleted[0]!.details!.signature as { meaning: string }).meaning)).toContain(
      'I delete this package while people wait on it',
    );

    // everyone waiting on it is mailed: initiator, the policy's approvers and the signer
    for (const who of [u.designDev, ...approversFor(u, pkg.type), seededSigner(u)]) {
      const mail = await mailTo(who.email, `Package deleted: ${pkg.name}`);
      expect(mail.text).toContain(`deleted the package "${pkg.name}"`);
      expect(mail.text).toContain(`> ${reason}`);
      expect(mail.text).not.toContain('ADMIN');
    }

    // a later link (the approval mail's) says who deleted it, when and why
    const link = await api<{ errorMessage: string }>(`/packages/${pkg.id}/details`, { token: u.lead.token });
    expect(link.status).toBe(404);
    expect(link.body.errorMessage).toMatch(
      new RegExp(
        `^Package '${pkg.name}' was deleted by .+ \\(Admin\\) on \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2} UTC\\. Reason: ${reason}$`,
      ),
    );
    const header = await api<{ errorMessage: string }>(`/packages/${pkg.id}/header`, { token: u.lead.token });
    expect([header.status, header.body.errorMessage]).toEqual([404, link.body.errorMessage]);
    // the draft went with it, said as deleted too (no reason of its own: the batch's reason)
    expect(await exists(draft.id)).toBe(false);
  }, 120_000);

  it('still deletes packages not in flight by the spec’s plain list, and their later link says so', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const draft = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const dccId = await createDcc(u.designDev.token);
    expect(
      (await api(`/packages/${draft.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
    ).toBe(200);
    const r = await del([draft.id]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await exists(draft.id)).toBe(false);
    const link = await api<{ errorMessage: string }>(`/packages/${draft.id}/details`, {
      token: u.designDev.token,
    });
    expect(link.status).toBe(404);
    expect(link.body.errorMessage).toMatch(
      new RegExp(
        `^Package '${draft.name}' was deleted by .+ \\(Admin\\) on .+ UTC\\. No reason was given\\.$`,
      ),
    );
    const deleted = (await auditEvents(draft.id)).filter((e) => e.action === 'PACKAGE_DELETED');
    expect(deleted).toHaveLength(1);
    expect(deleted[0]!.details?.signature).toBeUndefined();
  }, 60_000);
});
