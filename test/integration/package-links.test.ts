import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { api, jsonText, type Mail, mailMatching } from '../support/api';
import { createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import {
  approveAllButLast,
  approversFor,
  lastApprover,
  lastSteps,
  prepareAndNotify,
  seededSigner,
  waitForStatus,
} from '../support/package-flow';

/**
 * every workflow mail links to the package itself (the SPA's deep link /packages/open/{id}),
 * and GET /packages/{id}/details answers that link with the package and what it waits for from the
 * caller, by the rules of the approval and signing lists.
 */
let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

interface Details {
  package?: string;
  waitingFor?: string | null;
  errorMessage?: string;
}
const details = (id: string, token?: string) => api<Details>(`/packages/${id}/details`, { token });

async function waitingFor(id: string, token: string): Promise<string | null | undefined> {
  const r = await details(id, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(jsonText<Package>(r.body.package).id).toBe(id);
  return r.body.waitingFor;
}

/** The mail's one link: the deep link of the package, on the portal's address. */
async function linkIn(to: string, subject: string): Promise<string> {
  const mail: Mail | undefined = await mailMatching(to, (m) => m.subject === subject);
  expect(mail, `a mail to ${to}: ${subject}`).toBeDefined();
  const links = mail!.text.match(/https?:\/\/\S+/g) ?? [];
  expect(links, mail!.text).toHaveLength(1);
  expect(mail!.text).toContain(`Open it here: ${links[0]}`);
  return new URL(links[0]!).pathname;
}

describe('mail links to the package and GET /packages/{id}/details', () => {
  it('links every mail of a signed release package to it, and tells each reader what waits for them', async () => {
    const resource = await uploadPatch(u.designDev.token, 'release');
    const pkg = await createPackage(u.designDev.token, resource.id, 'RELEASE_SIGNED');
    const own = `/packages/open/${pkg.id}`;

    // a draft waits for no decision, for anyone
    expect(await waitingFor(pkg.id, u.designDev.token)).toBeNull();
    expect(await waitingFor(pkg.id, u.lead.token)).toBeNull();

    // approval requested: each approver's mail opens the package, which waits for their approval (the
    // first in the policy's order: decision 272)
    const [first] = approversFor(u, pkg.type);
    const last = lastApprover(u, pkg.type);
    const signer = seededSigner(u);
    await prepareAndNotify(u, pkg);
    expect(await linkIn(first!.email, `Approval requested: package ${pkg.name}`)).toBe(own);
    expect(await waitingFor(pkg.id, first!.token)).toBe('APPROVE');
    expect(await waitingFor(pkg.id, u.designDev.token)).toBeNull();

    // fully approved: the signer's mail opens it, and it waits for their signature
    await approveAllButLast(u, pkg);
    expect(await waitingFor(pkg.id, first!.token)).toBeNull();
    const approved = await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: last.token });
    expect([approved.status, approved.body.outcome]).toEqual([200, 'WAITING_FOR_SIGNING']);
    expect(await linkIn(signer.email, `Signature requested: package ${pkg.name}`)).toBe(own);
    expect(await waitingFor(pkg.id, signer.token)).toBe('SIGN');
    const sign = await api(`/packages/${pkg.id}/generate-signed`, { method: 'POST', token: signer.token });
    // the signed XML is generated off the request path (decision 160); the mail goes when it is ready
    expect([sign.status, sign.body.outcome], JSON.stringify(sign.body)).toEqual([202, 'GENERATING']);
    await waitForStatus(pkg, signer.token, 'SIGNED');
    expect(await linkIn(u.designDev.email, `Package signed: ${pkg.name}`)).toBe(own);
    expect(await waitingFor(pkg.id, signer.token)).toBeNull();

    // delivery: the delivery approvers' mails open it, and it waits for their delivery approval (the
    // policy's delivery approvers but the release engineer who starts it)
    const deliveryVoters = approversFor(u, pkg.type, 'delivery').filter((a) => a.id !== u.release.id);
    const deliveryApprovers = deliveryVoters.map(({ role, id }) => ({ role, id }));
    const [deciding] = deliveryVoters;
    const deliver = () =>
      api(`/delivery/packages/${pkg.id}/notify-approvers`, {
        method: 'POST',
        token: u.release.token,
        body: { approvers: deliveryApprovers },
      });
    const delivered = await deliver();
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    expect(await linkIn(deciding!.email, `Delivery approval requested: package ${pkg.name}`)).toBe(own);
    expect(await waitingFor(pkg.id, deciding!.token)).toBe('APPROVE_DELIVERY');
    expect(await waitingFor(pkg.id, u.designDev.token)).toBeNull();

    // a delivery rejection: the initiator's and the deliverer's mails open it
    const reject = await api(`/delivery/packages/${pkg.id}/reject`, {
      method: 'POST',
      token: deciding!.token,
      body: { 'rejection-reason': 'Wrong fleet' },
    });
    expect(reject.status, JSON.stringify(reject.body)).toBe(200);
    expect(await linkIn(u.designDev.email, `Delivery rejected: ${pkg.name}`)).toBe(own);
    expect(await linkIn(u.release.email, `Delivery rejected: ${pkg.name}`)).toBe(own);
    expect(await waitingFor(pkg.id, deciding!.token)).toBeNull();

    // re-delivered and approved by all: the delivered mails open it
    expect((await deliver()).status).toBe(200);
    for (const who of deliveryVoters) {
      const r = await api(`/delivery/packages/${pkg.id}/approve`, { method: 'POST', token: who.token });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    }
    expect(await linkIn(u.designDev.email, `Package delivered: ${pkg.name}`)).toBe(own);
    expect(await linkIn(u.release.email, `Package delivered: ${pkg.name}`)).toBe(own);
  }, 120_000);

  it('links the generated and the rejected mails of unsigned packages to the package', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    await prepareAndNotify(u, pkg);
    await approveAllButLast(u, pkg);
    // lastSteps waits until the package generated off the request path is APPROVED (decision 160)
    const [last] = await lastSteps(u, pkg);
    expect(last!.status, JSON.stringify(last!.body)).toBe(202);
    expect(await linkIn(u.designDev.email, `Package approved: ${pkg.name}`)).toBe(`/packages/open/${pkg.id}`);

    const other = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    await prepareAndNotify(u, other);
    // one of the policy's approvers (the first in its order) rejects
    const r = await api(`/packages/${other.id}/reject`, {
      method: 'POST',
      token: approversFor(u, other.type)[0]!.token,
      body: { 'rejection-reason': 'Missing test report' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await linkIn(u.designDev.email, `Approval rejected: ${other.name}`)).toBe(
      `/packages/open/${other.id}`,
    );
    expect(await waitingFor(other.id, u.lead.token)).toBeNull();
  }, 60_000);

  it('refuses a signed-out caller, an unknown package and a malformed id, and changes nothing', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const anonymous = await details(pkg.id);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.package).toBeUndefined();
    const unknown = await details('no-such-package', u.lead.token);
    expect([unknown.status, unknown.body.errorMessage]).toEqual([404, 'Package not found']);
    const tooLong = await details('x'.repeat(65), u.lead.token);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errorMessage).toEqual(expect.any(String));
    expect(tooLong.body.package).toBeUndefined();
    const after = await details(pkg.id, u.designDev.token);
    expect(jsonText<Package>(after.body.package)).toMatchObject({ id: pkg.id, status: 'DRAFT' });
  });
});
