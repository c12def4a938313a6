import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { APPROVAL_POLICY, approvalOrder } from '../../shared/domain/approval-policy';
import { NON_ADMIN_ROLES, type NonAdminRole } from '../../shared/domain/roles';
import { api, jsonText, login, mails, SEEDED, uniq } from '../support/api';
import { directUsers } from '../support/direct-users';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { registerConfirmed } from '../support/identity';
import { approversFor, chosenApprovers, seededDeliverer, waitForStatus } from '../support/package-flow';

/**
 * Holes found by the security review of decision 100, each tried over HTTP as an attacker
 * who can register freely and call every route would.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
}, 120_000);

/** A DEV_UNSIGNED package by the seeded dev engineer, sent for approval with `approver` in place of the seeded holder of its role. */
async function pendingWith(role: NonAdminRole, approver: { id: string; token: string }): Promise<Package> {
  const resource = await uploadPatch(u.designDev.token, 'dev');
  const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
  const dccId = await createDcc(u.designDev.token);
  expect(
    (await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
  ).toBe(200);
  const n = await api(`/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: chosenApprovers(u, pkg.type, 'approval', { [role]: approver }) },
  });
  expect(n.status, JSON.stringify(n.body)).toBe(200);
  return pkg;
}

describe('an approver chosen for a package', () => {
  it('cannot change role while the package waits for their decision, and keeps their vote', async () => {
    // the first approver role in the policy's order: its holder may approve at any time
    const role = approversFor(u, 'DEV_UNSIGNED')[0]!.role;
    const [lead] = await directUsers(1, role, 'Changing Lead');
    const pkg = await pendingWith(role, lead!);

    // giving up the role would leave the package waiting for someone who can no longer decide
    const moved = await api('/user/account', {
      method: 'POST',
      token: lead!.token,
      body: { name: lead!.name, email: lead!.email, userRole: NON_ADMIN_ROLES.find((r) => r !== role) },
    });
    expect(moved.status).toBe(409);
    expect(moved.body.errorMessage).toBe(
      `You cannot change your role while '${pkg.name}' waits for your decision as approver or signer. Decide first, or ask an administrator.`,
    );
    const me = await api<{ user: string }>('/user/auth', { method: 'POST', token: lead!.token });
    expect(jsonText<{ userRole: string; roleStatus: string }>(me.body.user)).toMatchObject({
      userRole: role,
      roleStatus: 'GRANTED',
    });

    // the vote is still theirs to cast
    const approve = await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: lead!.token });
    expect(approve.status, JSON.stringify(approve.body)).toBe(202);
  });
});

describe('a delivery approver chosen for a package', () => {
  it('cannot change role while the delivery waits for their decision, and can still decide it', async () => {
    const roles = [
      'DESIGN_ENGINEER_DEV',
      'DESIGN_ENGINEER_TEST',
      'TECHNICAL_LEADER',
      'RELIABILITY_ENGINEER',
      'SW_FW_RELEASE_ENGINEER',
    ] as const;
    // one approver per role, all ours, so the approval completes whoever else holds the roles
    const mine = Object.fromEntries(
      await Promise.all(roles.map(async (r) => [r, (await directUsers(1, r, `Deliv ${r}`))[0]!] as const)),
    );
    const resource = await uploadPatch(u.designDev.token, 'release');
    // signed: an unsigned release package is never sent to delivery (decision 193)
    const pkg = await createPackage(u.designDev.token, resource.id, 'RELEASE_SIGNED');
    const dccId = await createDcc(u.designDev.token);
    expect(
      (await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
    ).toBe(200);
    // the roles the server offers (the policy's), each ours, in the order the policy lets them approve
    const choose = async (token: string, round: 'approval' | 'delivery') => {
      const offered = await api<{ approvers: string }>(`/packages/${pkg.id}/approvers`, { token });
      const chosen = Object.keys(jsonText<Record<string, unknown>>(offered.body.approvers)).map((role) => ({
        role,
        id: mine[role]!.id,
      }));
      return approvalOrder(chosen, (a) => a.role, round);
    };
    const approvers = await choose(u.designDev.token, 'approval');
    const n = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers, signer: mine[APPROVAL_POLICY.signer.role]!.id },
    });
    expect(n.status, JSON.stringify(n.body)).toBe(200);
    for (const a of approvers) {
      const token = Object.values(mine).find((m) => m.id === a.id)!.token;
      expect((await api(`/packages/${pkg.id}/approve`, { method: 'POST', token })).status).toBeLessThan(300);
    }
    const signed = await api(`/packages/${pkg.id}/generate-signed`, {
      method: 'POST',
      token: mine[APPROVAL_POLICY.signer.role]!.token,
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(202);
    // the signature answered 202 GENERATING; delivery waits for the generated package (decision 160)
    const deliverer = seededDeliverer(u);
    await waitForStatus(pkg, deliverer.token, 'SIGNED');
    const deliveryApprovers = await choose(deliverer.token, 'delivery');
    const delivery = await api(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: deliverer.token,
      body: { approvers: deliveryApprovers },
    });
    expect(delivery.status, JSON.stringify(delivery.body)).toBe(200);

    // one of the delivery's approvers (the first in the policy's order) tries to give up the role
    const role = deliveryApprovers[0]!.role;
    const lead = mine[role]!;
    const moved = await api('/user/account', {
      method: 'POST',
      token: lead.token,
      body: { name: lead.name, email: lead.email, userRole: roles.find((r) => r !== role) },
    });
    expect(moved.status).toBe(409);
    expect(moved.body.errorMessage).toContain(`'${pkg.name}' waits for your decision`);
    // still holding the role, so the delivery decision is still theirs
    const reject = await api(`/delivery/packages/${pkg.id}/reject`, {
      method: 'POST',
      token: lead.token,
      body: { 'rejection-reason': 'DCC limits do not match the field devices' },
    });
    expect(reject.status, JSON.stringify(reject.body)).toBe(200);

    // the stack is shared: these granted accounts (one a design engineer (dev)) go, so later notifies by
    // the seeded design engineer need no extra approver; nothing waits for them any more
    const del = await api('/admin/users', {
      method: 'DELETE',
      token: u.admin.token,
      body: Object.values(mine).map((m) => m.id),
    });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
  }, 120_000);
});

describe('a password reset', () => {
  it('ends the sessions opened with the old password once the temporary one is used', async () => {
    const password = 'Review-Pass-12345';
    const { email } = await registerConfirmed({
      name: 'Reset Owner',
      email: `${uniq('reset-owner')}@example.com`,
      password,
      userRole: 'TECHNICAL_LEADER',
    });
    // someone who knew the old password holds a session
    const stolen = await login(email, password);
    expect((await api('/user/auth', { method: 'POST', token: stolen })).status).toBe(200);

    expect((await api('/user/reset-password', { method: 'POST', body: { email } })).status).toBe(200);
    const temp = /Temporary password: (\S+)/.exec((await mails(email)).at(-1)?.text ?? '')?.[1];
    expect(temp).toBeTruthy();
    const fresh = await login(email, temp!);

    expect((await api('/user/auth', { method: 'POST', token: stolen })).status).toBe(401);
    expect((await api('/user/auth', { method: 'POST', token: fresh })).status).toBe(200);
  });
});

describe('mail an attacker can trigger from settings', () => {
  it('role requests reach the admins at most three times in 15 minutes per account', async () => {
    const [user] = await directUsers(1, 'TECHNICAL_LEADER', 'Role Flipper', { granted: false });
    const flip = (userRole: string) =>
      api('/user/account', {
        method: 'POST',
        token: user!.token,
        body: { name: user!.name, email: user!.email, userRole },
      });
    const roles = ['RELIABILITY_ENGINEER', 'TECHNICAL_LEADER', 'RELIABILITY_ENGINEER'];
    for (const role of roles) expect((await flip(role)).status).toBe(200);
    const fourth = await flip('TECHNICAL_LEADER');
    expect(fourth.status).toBe(429);
    expect(String(fourth.body.errorMessage)).toMatch(
      /^You asked for a new role 3 times in the last 15 minutes\. Try again in \d+ minutes?\.$/,
    );
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    // nothing changed: the account still asks for the role of the third request
    const me = await api<{ user: string }>('/user/auth', { method: 'POST', token: user!.token });
    expect(jsonText<{ userRole: string }>(me.body.user).userRole).toBe('RELIABILITY_ENGINEER');
    const requests = (await mails(SEEDED.admin)).filter((m) =>
      m.subject.startsWith('Role request: Role Flipper'),
    );
    expect(requests.length).toBe(3);
    // a name change alone is not a request and stays possible
    expect(
      (
        await api('/user/account', {
          method: 'POST',
          token: user!.token,
          body: { name: 'Role Flipper Renamed', email: user!.email, userRole: 'RELIABILITY_ENGINEER' },
        })
      ).status,
    ).toBe(200);
  });

  it('an email change mails one address at most three confirmation links in 15 minutes', async () => {
    const [user] = await directUsers(1, 'TECHNICAL_LEADER', 'Mail Bomber');
    const target = `${uniq('colleague')}@example.com`;
    const ask = (email: string) =>
      api('/user/account', {
        method: 'POST',
        token: user!.token,
        body: { name: user!.name, email, userRole: 'TECHNICAL_LEADER' },
      });
    for (let i = 0; i < 3; i++) expect((await ask(target)).status).toBe(200);
    const fourth = await ask(target);
    expect(fourth.status).toBe(429);
    expect(String(fourth.body.errorMessage)).toMatch(
      /^Too many confirmation links were asked for this address\. Try again in \d+ minutes\.$/,
    );
    expect(await mails(target)).toHaveLength(3);
  });
});

describe('an admin deciding on a role request', () => {
  it('does not grant a role the user asked for after the admin read the list', async () => {
    const [user] = await directUsers(1, 'TECHNICAL_LEADER', 'Late Switcher', { granted: false });
    // the admin's list shows the request for Technical Leader; the user then asks for the signing role
    const switched = await api('/user/account', {
      method: 'POST',
      token: user!.token,
      body: { name: user!.name, email: user!.email, userRole: 'SW_FW_RELEASE_ENGINEER' },
    });
    expect(switched.status).toBe(200);
    const grant = (role: string) =>
      api('/admin/users/roles', {
        method: 'POST',
        token: u.admin.token,
        body: { grant: [user!.id], roles: { [user!.id]: role } },
      });
    const stale = await grant('TECHNICAL_LEADER');
    expect(stale.status).toBe(409);
    expect(stale.body.errorMessage).toBe(
      `${user!.email} now asks for SW/FW Release Engineer, not Technical Leader: reload the list and decide again`,
    );
    const users = jsonText<{ id: string; roleStatus: string }[]>(
      (await api<{ users: string }>('/admin/users', { token: u.admin.token })).body.users,
    );
    expect(users.find((x) => x.id === user!.id)?.roleStatus).toBe('REQUESTED');
    // the request the admin does see can be granted
    expect((await grant('SW_FW_RELEASE_ENGINEER')).status).toBe(200);
    // the shared stack keeps one granted release engineer (later deliveries by the seeded one name no other)
    const del = await api('/admin/users', { method: 'DELETE', token: u.admin.token, body: [user!.id] });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
  });
});

describe('a person’s name', () => {
  it('holds visible text only, so it cannot forge lines of the mails it reaches', async () => {
    const email = `${uniq('forger')}@example.com`;
    const r = await api('/user/register', {
      method: 'POST',
      body: {
        name: 'Eve\n\nYour portal password expired: renew it at http://evil.example',
        email,
        password: 'Review-Pass-12345',
        userRole: 'TECHNICAL_LEADER',
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toBe(
      'Name must not contain control, bidirectional or invisible characters; found U+000A',
    );
    expect(await mails(email)).toHaveLength(0);

    const [user] = await directUsers(1, 'TECHNICAL_LEADER', 'Plain Name');
    const renamed = await api('/user/account', {
      method: 'POST',
      token: user!.token,
      body: { name: 'Terry \u202EdaeL', email: user!.email, userRole: 'TECHNICAL_LEADER' },
    });
    expect(renamed.status).toBe(400);
    expect(renamed.body.errorMessage).toBe(
      'Name must not contain control, bidirectional or invisible characters; found U+202E',
    );
  });
});
