import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import type { PublicUser } from '../../shared/api/contracts/user';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { api, jsonText, mailMatching } from '../support/api';
import { settledAuditVerify } from '../support/audit-verify-run';
import { type DirectUser, directUsers } from '../support/direct-users';
import { createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import {
  approveAllButLast,
  approversFor,
  lastSteps,
  prepareAndNotify,
  seededDeliverer,
} from '../support/package-flow';
import { dynamoAt, tableOf } from '../support/store';

/**
 * Decision 336 on the local stack: deleting an administrator's account, or a DELIVERED package's record
 * with its artefacts, takes two admins. The first admin's signed call proposes (202, "Waiting for a second
 * admin to confirm…"); the proposer's own confirmation is refused (409); an engineer is refused (403); a
 * second admin's identical signed call deletes. The record holds one event per step, and audit:verify finds
 * nothing to say about these subjects.
 */
let u: Awaited<ReturnType<typeof seededUsers>>;
let proposer: DirectUser;
let confirmer: DirectUser;
beforeAll(async () => {
  u = await seededUsers();
  const admins = await directUsers(2, 'ADMIN', 'Deleting admin');
  proposer = admins[0]!;
  confirmer = admins[1]!;
}, 120_000);

const signed = (ids: string[], reason = 'Left the company; access must end') => ({
  ids,
  password: SEED_PASSWORD,
  reason,
});
const delUsers = (token: string, body: unknown) =>
  api<{ status?: string; message?: string; errorMessage?: string }>('/admin/users', {
    method: 'DELETE',
    token,
    body,
  });
const delPackages = (token: string, body: unknown) =>
  api<{ status?: string; message?: string; errorMessage?: string }>('/admin/packages', {
    method: 'DELETE',
    token,
    body,
  });

/** A subject's audit events, read from the table (a deleted subject's history route answers 404). */
async function eventsOf(subject: string) {
  const r = await dynamoAt(inject('dynamoEndpoint')).send(
    new QueryCommand({
      TableName: tableOf('audit'),
      KeyConditionExpression: 'pk = :p AND seq > :head',
      ExpressionAttributeValues: { ':p': subject, ':head': 0 },
      ConsistentRead: true,
    }),
  );
  return (r.Items ?? []) as { action: string; actorId: string; details?: Record<string, unknown> }[];
}

async function adminUsers(): Promise<PublicUser[]> {
  const r = await api<{ users: string }>('/admin/users', { token: u.admin.token });
  expect(r.status).toBe(200);
  return jsonText<PublicUser[]>(r.body.users);
}

/** A RELEASE_SIGNED package approved, signed and delivered. */
async function deliveredPackage(): Promise<Package> {
  const resource = await uploadPatch(u.designDev.token, 'release');
  const pkg = await createPackage(u.designDev.token, resource.id, 'RELEASE_SIGNED');
  await prepareAndNotify(u, pkg);
  await approveAllButLast(u, pkg);
  await lastSteps(u, pkg);
  const deliverer = seededDeliverer(u);
  const voters = approversFor(u, pkg.type, 'delivery').filter((v) => v.id !== deliverer.id);
  const started = await api(`/delivery/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: deliverer.token,
    body: { approvers: voters.map(({ role, id }) => ({ role, id })) },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  for (const v of voters) {
    const r = await api(`/delivery/packages/${pkg.id}/approve`, { method: 'POST', token: v.token });
    expect([200, 202]).toContain(r.status);
  }
  const d = await api<{ package: string }>(`/packages/${pkg.id}/details`, { token: u.lead.token });
  const now = jsonText<Package>(d.body.package);
  expect(now.status).toBe('DELIVERED');
  return now;
}

describe("an administrator's account takes two admins to delete", () => {
  it('one admin proposes (202), cannot confirm alone (409), an engineer is refused (403), a second admin deletes', async () => {
    const [target] = await directUsers(1, 'ADMIN', 'Leaving admin');

    // unsigned (the helper signs a bare list, so name the missing proof): refused, nothing changes
    const plain = await delUsers(proposer.token, { ids: [target!.id], password: undefined });
    expect(plain.status, JSON.stringify(plain.body)).toBe(400);
    expect(plain.body.errorMessage).toMatch(/takes two administrators, each signing/);
    // a signed call without a reason, and an admin deleting themselves: refused
    expect((await delUsers(proposer.token, { ids: [target!.id], password: SEED_PASSWORD })).status).toBe(400);
    expect((await delUsers(proposer.token, signed([proposer.id]))).status).toBe(403);

    const first = await delUsers(proposer.token, signed([target!.id]));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body.status).toBe('PROPOSED');
    expect(first.body.message).toMatch(/^Waiting for a second admin to confirm the deletion of/);
    const listed = (await adminUsers()).find((x) => x.id === target!.id);
    expect(listed?.deletionProposal).toMatchObject({
      proposedBy: { id: proposer.id },
      reason: 'Left the company; access must end',
    });
    // the person concerned and the other admins are told
    expect(
      await mailMatching(target!.email, (m) => /deletion of your account proposed/.test(m.subject)),
    ).toBeDefined();
    expect(
      await mailMatching(confirmer.email, (m) => m.subject.includes(`deletion of ${target!.email} proposed`)),
    ).toBeDefined();

    const own = await delUsers(proposer.token, signed([target!.id]));
    expect(own.status).toBe(409);
    expect(own.body.errorMessage).toMatch(/a second administrator must confirm it/);
    const engineer = await delUsers(u.designDev.token, signed([target!.id]));
    expect(engineer.status).toBe(403);
    expect((await adminUsers()).some((x) => x.id === target!.id)).toBe(true);

    const second = await delUsers(confirmer.token, signed([target!.id], 'Confirmed with HR'));
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.status).toBe('DELETED');
    expect((await adminUsers()).some((x) => x.id === target!.id)).toBe(false);

    const events = await eventsOf(`USER#${target!.id}`);
    const proposed = events.filter((e) => e.action === 'USER_DELETION_PROPOSED');
    const deleted = events.filter((e) => e.action === 'USER_DELETED');
    expect(proposed.map((e) => e.actorId)).toEqual([proposer.id]);
    expect(deleted.map((e) => e.actorId)).toEqual([confirmer.id]);
    expect(deleted[0]!.details).toMatchObject({
      proposedBy: proposer.id,
      signature: { action: 'confirmDeletion', authenticatedBy: 'password' },
    });
    const r = await settledAuditVerify(inject('dataDir'), 60_000);
    expect(
      r.disagreements.filter((l) => l.includes(`USER#${target!.id}`)),
      r.out,
    ).toEqual([]);
  }, 120_000);
});

describe("a delivered package's record takes two admins to delete", () => {
  it('one admin proposes (202), cannot confirm alone (409), an engineer is refused (403), a second admin deletes; audit:verify stays clean', async () => {
    const pkg = await deliveredPackage();

    const plain = await delPackages(proposer.token, [pkg.id]);
    expect(plain.status, JSON.stringify(plain.body)).toBe(400);
    expect(plain.body.errorMessage).toMatch(/takes two administrators/);

    const first = await delPackages(proposer.token, signed([pkg.id], 'Recalled by the device team'));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body.message).toMatch(/^Waiting for a second admin to confirm the deletion of/);
    const page = await api<{ packages: string }>(`/admin/packages?offset=0&limit=25&search=${pkg.name}`, {
      token: u.admin.token,
    });
    const row = jsonText<Package[]>(page.body.packages).find((p) => p.id === pkg.id);
    expect(row?.deletionProposal).toMatchObject({
      proposedBy: { id: proposer.id },
      reason: 'Recalled by the device team',
    });
    expect(
      await mailMatching(u.designDev.email, (m) => m.subject === `Deletion proposed: package ${pkg.name}`),
    ).toBeDefined();

    expect((await delPackages(proposer.token, signed([pkg.id]))).status).toBe(409);
    expect((await delPackages(u.release.token, signed([pkg.id]))).status).toBe(403);
    const still = await api(`/packages/${pkg.id}/details`, { token: u.lead.token });
    expect(still.status).toBe(200);

    const second = await delPackages(confirmer.token, signed([pkg.id], 'Agreed: recalled'));
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const gone = await api<{ errorMessage?: string }>(`/packages/${pkg.id}/details`, { token: u.lead.token });
    expect(gone.status).toBe(404);
    expect(gone.body.errorMessage).toMatch(/was deleted by .* Reason: Agreed: recalled/);

    const events = await eventsOf(`PKG#${pkg.id}`);
    expect(events.filter((e) => e.action === 'PACKAGE_DELETION_PROPOSED').map((e) => e.actorId)).toEqual([
      proposer.id,
    ]);
    const deleted = events.filter((e) => e.action === 'PACKAGE_DELETED');
    expect(deleted.map((e) => e.actorId)).toEqual([confirmer.id]);
    expect(deleted[0]!.details).toMatchObject({ proposedBy: proposer.id });

    const r = await settledAuditVerify(inject('dataDir'), 60_000);
    expect(
      r.disagreements.filter((l) => l.includes(`PKG#${pkg.id}`)),
      r.out,
    ).toEqual([]);
  }, 300_000);
});
