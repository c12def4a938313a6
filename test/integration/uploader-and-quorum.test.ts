import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { jsonText, uniq } from '../support/api';
import { type DirectUser, directUsersAt } from '../support/direct-user-records';
import { approversFor, seededSigner } from '../support/package-flow';
import { type KitUsers, StackKit } from '../support/stack-kit';
import { type StackProcess, startStackProcess } from '../support/stack-process';

/**
 * No one reviews their own bytes (decision 331) and quorums fixed by the policy (decision 332), over HTTP
 * on a stack of this file's own: who holds which role is known here (the shared stack gathers the
 * granted users of every earlier file), and revoking a role leaves no other file short of approvers.
 * Tess (the seeded Design Engineer (test)) uploads the firmware with her pipeline token; Dana (Design
 * Engineer (dev)) makes the package from it and sends it on; Tom, a second Design Engineer (test), may
 * approve in Tess's place.
 */
let stack: StackProcess;
let kit: StackKit;
let u: KitUsers;
let tom: DirectUser;
let pkg: Package;

/** the upload names the person and the token they uploaded with; the person is kept out */
let tessUpload = '';
const tessRefused = () => `${tessUpload} uploaded the firmware of this package, so they cannot review it`;

beforeAll(async () => {
  stack = await startStackProcess();
  kit = new StackKit(stack.url);
  u = await kit.seeded();
  [tom] = (await directUsersAt(stack, 1, 'DESIGN_ENGINEER_TEST', 'Tom Second')) as [DirectUser];
}, 900_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

/** Dana's notify call for `pkg` with `body`. */
const notify = (body: Record<string, unknown>) =>
  kit.call(`/packages/${pkg.id}/notify-approvers`, { method: 'POST', token: u.designDev.token, body });

describe('the uploader of the firmware reviews none of it', () => {
  it("a package made from a pipeline token's upload pins the token's owner as the uploader", async () => {
    const token = await kit.must<{ token: string }>(201, '/access-tokens', {
      method: 'POST',
      token: u.designTest.token,
      body: { name: uniq('ci'), expiresInDays: 30, scopes: ['resources:upload'] },
    });
    const resource = await kit.uploadPatch(token.body.token, 'release');
    expect(resource.uploadedBy.id).toBe(u.designTest.id);
    expect(resource.uploadedBy.name).toMatch(/^Tess Tester \(access token 'ci-/);
    tessUpload = resource.uploadedBy.name;
    pkg = await kit.createPackage(u.designDev.token, resource.id, 'RELEASE_SIGNED');
    const dcc = await kit.createDcc(u.designDev.token);
    await kit.must(200, `/packages/${pkg.id}/dcc/${dcc}`, { method: 'POST', token: u.designDev.token });
  });

  it('is not offered as an approver or signer; the answer names them', async () => {
    const r = await kit.must<{ approvers: string; signers: string; uploader: { id: string; name: string } }>(
      200,
      `/packages/${pkg.id}/approvers?signers=true`,
      { token: u.designDev.token },
    );
    expect(r.body.uploader).toEqual({ id: u.designTest.id, name: tessUpload });
    const offered = jsonText<Record<string, { id: string }[]>>(r.body.approvers);
    expect(offered.DESIGN_ENGINEER_TEST?.map((x) => x.id)).toEqual([tom.id]);
    expect(jsonText<{ id: string }[]>(r.body.signers).map((x) => x.id)).toEqual([u.release.id]);
  });

  it('chosen as the Design Engineer (test) approver, or as the signer, is refused with the reason; nothing changes', async () => {
    const withTess = approversFor(u, pkg.type).map(({ role, id }) => ({ role, id }));
    expect(withTess.some((a) => a.id === u.designTest.id)).toBe(true);
    const asApprover = await notify({ approvers: withTess, signer: seededSigner(u).id });
    expect([asApprover.status, asApprover.body]).toEqual([400, { errorMessage: tessRefused() }]);

    const valid = approversFor(u, pkg.type, 'approval', { DESIGN_ENGINEER_TEST: tom }).map(
      ({ role, id }) => ({ role, id }),
    );
    const asSigner = await notify({ approvers: valid, signer: u.designTest.id });
    expect([asSigner.status, asSigner.body]).toEqual([400, { errorMessage: tessRefused() }]);
    expect((await kit.details(pkg.id, u.designDev.token)).status).toBe('DRAFT');

    await kit.must(200, `/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: valid, signer: seededSigner(u).id },
    });
    // each approval answers 202; the last of a signed package 200: it waits for the signer
    const voters = approversFor(u, pkg.type, 'approval', { DESIGN_ENGINEER_TEST: tom });
    for (const [i, a] of voters.entries())
      await kit.must(i === voters.length - 1 ? 200 : 202, `/packages/${pkg.id}/approve`, {
        method: 'POST',
        token: a.token,
      });
    await kit.must(202, `/packages/${pkg.id}/generate-signed`, { method: 'POST', token: u.release.token });
    await kit.waitStatus(pkg.id, u.designDev.token, 'SIGNED');
  }, 180_000);

  it('chosen as a delivery approver, is refused with the reason', async () => {
    const withTess = approversFor(u, pkg.type, 'delivery', {}, [u.release.id]).map(({ role, id }) => ({
      role,
      id,
    }));
    expect(withTess.map((a) => a.id)).toContain(u.designTest.id);
    const r = await kit.call(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.release.token,
      body: { approvers: withTess },
    });
    expect([r.status, r.body]).toEqual([400, { errorMessage: tessRefused() }]);
    expect((await kit.details(pkg.id, u.designDev.token)).status).toBe('SIGNED');
  });
});

describe("a delivery below the policy's minimum (decision 332)", () => {
  it('is refused once an admin revoked a role, whoever is left to choose; nothing changes', async () => {
    const refused = await kit.call('/admin/users/roles', {
      method: 'POST',
      token: u.admin.token,
      body: { refuse: [tom.id] },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    const offered = await kit.must<{ approvers: string }>(200, `/packages/${pkg.id}/approvers`, {
      token: u.release.token,
    });
    expect(Object.keys(jsonText<Record<string, unknown>>(offered.body.approvers)).sort()).toEqual([
      'RELIABILITY_ENGINEER',
      'TECHNICAL_LEADER',
    ]);
    const r = await kit.call(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.release.token,
      body: {
        approvers: [
          { role: 'TECHNICAL_LEADER', id: u.lead.id },
          { role: 'RELIABILITY_ENGINEER', id: u.reliability.id },
        ],
      },
    });
    expect([r.status, r.body]).toEqual([
      400,
      {
        errorMessage:
          'Its delivery needs at least 3 approver roles; only 2 have someone who may approve: ask an admin to grant the Design Engineer (dev), Design Engineer (test) or SW/FW Release Engineer role to a colleague who may approve it.',
      },
    ]);
    expect((await kit.details(pkg.id, u.designDev.token)).status).toBe('SIGNED');
  });
});
