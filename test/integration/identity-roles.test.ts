import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/api/routes';
import type { Role } from '../../shared/domain/roles';
import { roleLabel } from '../../shared/domain/roles';
import { API_ERR } from '../../shared/messages';
import {
  api,
  jsonText,
  localDynamo,
  localTable,
  login,
  mails,
  SEEDED,
  SEEDED_ADMIN_2,
  uniq,
} from '../support/api';
import { directUsers } from '../support/direct-users';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { decideRoles, type Registered, registerConfirmed } from '../support/identity';
import { chosenApprovers, seededSigner } from '../support/package-flow';

/** a chosen role is a request; it holds authority only once an admin granted it. */

const PASSWORD = 'Role-Tests-Pass-1';
const waiting = (label: string) =>
  `Your role ${label} waits for an administrator's approval. Until then you can only see and change your own settings.`;

interface ListedUser {
  id: string;
  email: string;
  userRole: string;
  roleStatus: string;
  requestedRole?: string;
  roleProposal?: { role: string; proposedBy: { id: string; email: string } };
}

async function newcomer(userRole: string): Promise<Registered & { token: string }> {
  const u = await registerConfirmed({
    name: `Rolf ${userRole}`,
    email: `${uniq('role')}@example.com`,
    password: PASSWORD,
    userRole,
  });
  return { ...u, token: await login(u.email, PASSWORD) };
}

async function listed(adminToken: string, id: string): Promise<ListedUser> {
  const all = jsonText<ListedUser[]>(
    (await api<{ users: string }>('/admin/users', { token: adminToken })).body.users,
  );
  return all.find((u) => u.id === id)!;
}

const dccBody = () => ({ deviceId: uniq('d'), telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 });

async function auditOf(userId: string): Promise<{ action: string; actorRole: string; meaning: string }[]> {
  const r = await (await localDynamo()).send(
    new QueryCommand({
      TableName: localTable('audit'),
      KeyConditionExpression: 'pk = :p AND seq > :z',
      ExpressionAttributeValues: { ':p': `USER#${userId}`, ':z': 0 },
    }),
  );
  return (r.Items ?? []) as { action: string; actorRole: string; meaning: string }[];
}

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
}, 60_000);

describe('a requested role holds no authority', () => {
  it('signs in and sees itself, but reads nothing and is refused every act with the reason', async () => {
    const dev = await newcomer('DESIGN_ENGINEER_DEV');
    expect((await api('/user/auth', { method: 'POST', token: dev.token })).status).toBe(200);
    for (const path of ['/dev/packages', '/resources/patch/dev', '/dcc']) {
      const read = await api(path, { token: dev.token });
      expect(read.status, path).toBe(403);
      expect(read.body.errorMessage, path).toBe(waiting('Design Engineer (dev)'));
    }

    const form = new FormData();
    form.append('resourceFile', new Blob([new Uint8Array(64)]), 'x.bin');
    const upload = await api(`/resources/patch/dev?name=${uniq('p')}`, {
      method: 'POST',
      token: dev.token,
      body: form,
    });
    expect(upload.status).toBe(403);
    expect(upload.body.errorMessage).toBe(waiting('Design Engineer (dev)'));

    const resource = await uploadPatch(u.designDev.token, 'dev');
    const generate = await api(`/resources/${resource.id}/generate-package`, {
      method: 'POST',
      token: dev.token,
      body: { packageName: uniq('pkg'), packageType: 'DEV_UNSIGNED', note: 'x' },
    });
    expect(generate.status).toBe(403);
    expect(generate.body.errorMessage).toBe(waiting('Design Engineer (dev)'));
    const dcc = await api('/dcc', {
      method: 'POST',
      token: dev.token,
      body: { deviceId: uniq('d'), telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
    });
    expect(dcc.status).toBe(403);
    expect(dcc.body.errorMessage).toBe(waiting('Design Engineer (dev)'));
  });

  it('is never offered as an approver or signer, and a notify naming it is refused by name', async () => {
    const lead = await newcomer('TECHNICAL_LEADER');
    const rel = await newcomer('SW_FW_RELEASE_ENGINEER');
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_SIGNED');
    const dccId = await createDcc(u.designDev.token);
    await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });

    const offered = await api<{ approvers: string; signers: string }>(
      `/packages/${pkg.id}/approvers?signers=true`,
      {
        token: u.designDev.token,
      },
    );
    expect(offered.status).toBe(200);
    const text = JSON.stringify(offered.body);
    expect(text).toContain(u.lead.id);
    expect(text).not.toContain(lead.id);
    expect(text).not.toContain(rel.id);

    // the policy's approvers, the pending newcomer as the Technical Leader
    const approvers = chosenApprovers(u, pkg.type, 'approval', { TECHNICAL_LEADER: lead });
    const r = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers, signer: seededSigner(u).id },
    });
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toBe(
      `Rolf TECHNICAL_LEADER cannot be chosen: their role Technical Leader waits for an administrator's approval`,
    );
    const bySigner = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: {
        approvers: chosenApprovers(u, pkg.type),
        signer: rel.id,
      },
    });
    expect(bySigner.status).toBe(400);
    expect(String(bySigner.body.errorMessage)).toContain(
      "role SW/FW Release Engineer waits for an administrator's approval",
    );
    // nothing changed: the package is still a draft
    const devList = jsonText<{ id: string; status: string }[]>(
      (await api<{ packages: string }>('/dev/packages', { token: u.designDev.token })).body.packages,
    );
    expect(devList.find((p) => p.id === pkg.id)?.status).toBe('DRAFT');
  });
});

describe('the route gate, generated from the route table', () => {
  const sample = (path: string) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'stage' ? 'dev' : `no-such-${name.toLowerCase()}`,
    );
  const guarded = ROUTES.filter((r) => Array.isArray(r.access) && !r.access.includes('ADMIN'));

  it('refuses every call that changes something to each requested role it names, before reading input', async () => {
    const writes = guarded.filter((r) => r.method !== 'GET');
    expect(writes.length).toBeGreaterThan(15);
    for (const r of writes) {
      for (const role of r.access as readonly Role[]) {
        const [pending] = await directUsers(1, role, 'Gate', { granted: false });
        const res = await api(sample(r.path), { method: r.method, token: pending!.token, body: {} });
        expect(res.status, `${r.id} as ${role}`).toBe(403);
        expect(res.body.errorMessage, `${r.id} as ${role}`).toBe(waiting(roleLabel(role)));
      }
    }
  }, 120_000);

  it('refuses a requested role its approval and signing lists too (it reads nothing)', async () => {
    const [pending] = await directUsers(1, 'SW_FW_RELEASE_ENGINEER', 'Reader', { granted: false });
    for (const path of [
      '/dev/packages/approval',
      '/release/packages/signing',
      '/deliver/packages/approval',
    ]) {
      const r = await api(path, { token: pending!.token });
      expect(r.status, path).toBe(403);
      expect(r.body.errorMessage, path).toBe(waiting(roleLabel('SW_FW_RELEASE_ENGINEER')));
    }
  });

  it('refuses an unconfirmed account as well, even with a granted role', async () => {
    const [unconfirmed] = await directUsers(1, 'TECHNICAL_LEADER', 'Unconfirmed', { confirmed: false });
    const r = await api('/dcc', { method: 'POST', token: unconfirmed!.token, body: {} });
    expect(r.status).toBe(403);
    expect(r.body.errorMessage).toBe(API_ERR.emailNotConfirmed);
  });
});

describe('admins decide', () => {
  it('lists the request with its status, is mailed about it, and a grant gives authority, mailed and audited', async () => {
    const lead = await newcomer('TECHNICAL_LEADER');
    expect(await listed(u.admin.token, lead.id)).toMatchObject({
      roleStatus: 'REQUESTED',
      requestedRole: 'TECHNICAL_LEADER',
    });
    expect(
      (await mails(SEEDED.admin)).some(
        (m) =>
          m.subject === 'Role request: Rolf TECHNICAL_LEADER asks for Technical Leader' &&
          m.text.includes(lead.email),
      ),
    ).toBe(true);

    // one admin's grant is a proposal: listed with its proposer, no authority yet
    const proposed = await api<{ users: string; outcomes: Record<string, string> }>('/admin/users/roles', {
      method: 'POST',
      token: u.admin.token,
      body: { grant: [lead.id] },
    });
    expect(proposed.status).toBe(200);
    expect(proposed.body.outcomes).toEqual({ [lead.id]: 'PROPOSED' });
    expect(jsonText<ListedUser[]>(proposed.body.users)[0]).toMatchObject({
      id: lead.id,
      roleStatus: 'REQUESTED',
    });
    expect(await listed(u.admin.token, lead.id)).toMatchObject({
      roleStatus: 'REQUESTED',
      roleProposal: { role: 'TECHNICAL_LEADER', proposedBy: { id: u.admin.id, email: SEEDED.admin } },
    });
    expect((await api('/dcc', { method: 'POST', token: lead.token, body: dccBody() })).status).toBe(403);
    // a second admin confirms it
    const granted = await api<{ users: string; outcomes: Record<string, string> }>('/admin/users/roles', {
      method: 'POST',
      token: await login(SEEDED_ADMIN_2),
      body: { grant: [lead.id] },
    });
    expect(granted.status).toBe(200);
    expect(granted.body.outcomes).toEqual({ [lead.id]: 'GRANTED' });
    expect(jsonText<ListedUser[]>(granted.body.users)[0]).toMatchObject({
      id: lead.id,
      roleStatus: 'GRANTED',
    });
    const after = await listed(u.admin.token, lead.id);
    expect(after.roleStatus).toBe('GRANTED');
    expect(after).not.toHaveProperty('requestedRole');
    expect(
      (await mails(lead.email)).some(
        (m) => m.subject === 'Firmware Release Portal: your role Technical Leader was granted',
      ),
    ).toBe(true);
    const trail = await auditOf(lead.id);
    expect(trail.find((e) => e.action === 'ROLE_GRANTED')).toMatchObject({
      actorRole: 'ADMIN',
      meaning: `grants the role Technical Leader to ${lead.email}, confirming the proposal of Ada Admin (${SEEDED.admin})`,
    });
    // the same token now has authority: it may create a DCC
    expect((await api('/dcc', { method: 'POST', token: lead.token, body: dccBody() })).status).toBe(201);
  });

  it('a refusal leaves no authority, is mailed and audited', async () => {
    const rel = await newcomer('RELIABILITY_ENGINEER');
    const r = await api('/admin/users/roles', {
      method: 'POST',
      token: u.admin.token,
      body: { refuse: [rel.id] },
    });
    expect(r.status).toBe(200);
    expect(await listed(u.admin.token, rel.id)).toMatchObject({ roleStatus: 'REFUSED' });
    const dcc = await api('/dcc', {
      method: 'POST',
      token: rel.token,
      body: { deviceId: uniq('d'), telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
    });
    expect(dcc.status).toBe(403);
    expect(dcc.body.errorMessage).toContain('Your role Reliability Engineer was refused by an administrator');
    expect(
      (await mails(rel.email)).some(
        (m) => m.subject === 'Firmware Release Portal: your role Reliability Engineer was refused',
      ),
    ).toBe(true);
    expect((await auditOf(rel.id)).map((e) => e.action)).toContain('ROLE_REFUSED');
  });

  it('refuses bad decisions with clear 4xx and changes nothing', async () => {
    const [a] = await directUsers(1, 'TECHNICAL_LEADER', 'Pending', { granted: false });
    const call = (body: unknown, token = u.admin.token) =>
      api('/admin/users/roles', { method: 'POST', token, body });
    const both = await call({ grant: [a!.id], refuse: [a!.id] });
    expect(both.status).toBe(400);
    expect(both.body.errorMessage).toBe('Send either "grant" or "refuse" with a list of user ids, not both');
    expect((await call({ grant: [] })).body.errorMessage).toBe('Select at least one item');
    const unknown = await call({ grant: [a!.id, 'no-such-user'] });
    expect(unknown.status).toBe(404);
    const self = await call({ grant: [u.admin.id] });
    expect(self.status).toBe(403);
    expect(self.body.errorMessage).toBe(API_ERR.ownRoleUndecidable);
    const [otherAdmin] = await directUsers(1, 'ADMIN', 'Second Admin');
    expect((await call({ refuse: [otherAdmin!.id] })).body.errorMessage).toBe(API_ERR.adminRoleNotDecided);
    const notAdmin = await call({ grant: [a!.id] }, u.lead.token);
    expect(notAdmin.status).toBe(403);
    expect(await listed(u.admin.token, a!.id)).toMatchObject({ roleStatus: 'REQUESTED' });
    await decideRoles([a!.id], 'grant', u.admin.token);
    const twice = await call({ grant: [a!.id] });
    expect(twice.status).toBe(409);
    expect(String(twice.body.errorMessage)).toContain('already granted');
  });
});

describe('role changes in settings', () => {
  it('end the old grant at once and request the new role, telling the admins', async () => {
    const lead = await newcomer('TECHNICAL_LEADER');
    await decideRoles([lead.id], 'grant', u.admin.token);
    const dccBody = () => ({
      deviceId: uniq('d'),
      telemetryType: 'TelB',
      messageLimit: 64,
      deviceLimit: 4096,
    });
    expect((await api('/dcc', { method: 'POST', token: lead.token, body: dccBody() })).status).toBe(201);

    const r = await api<{ user: string }>('/user/account', {
      method: 'POST',
      token: lead.token,
      body: { name: 'Rolf TECHNICAL_LEADER', email: lead.email, userRole: 'SW_FW_RELEASE_ENGINEER' },
    });
    expect(r.status).toBe(200);
    expect(jsonText<ListedUser>(r.body.user)).toMatchObject({
      userRole: 'SW_FW_RELEASE_ENGINEER',
      roleStatus: 'REQUESTED',
      requestedRole: 'SW_FW_RELEASE_ENGINEER',
    });
    const refused = await api('/dcc', { method: 'POST', token: lead.token, body: dccBody() });
    expect(refused.status).toBe(403);
    expect(refused.body.errorMessage).toBe(waiting('SW/FW Release Engineer'));
    expect(
      (await mails(SEEDED.admin)).some(
        (m) => m.subject === 'Role request: Rolf TECHNICAL_LEADER asks for SW/FW Release Engineer',
      ),
    ).toBe(true);
    expect((await auditOf(lead.id)).map((e) => e.action)).toContain('ROLE_REQUESTED');
  });

  it('a name change alone keeps the grant', async () => {
    const lead = await newcomer('TECHNICAL_LEADER');
    await decideRoles([lead.id], 'grant', u.admin.token);
    const r = await api('/user/account', {
      method: 'POST',
      token: lead.token,
      body: { name: 'Renamed Lead', email: lead.email, userRole: 'TECHNICAL_LEADER' },
    });
    expect(r.status).toBe(200);
    expect(await listed(u.admin.token, lead.id)).toMatchObject({ roleStatus: 'GRANTED' });
  });
});

describe('administrators', () => {
  it('cannot change their own role but can edit their own name and email', async () => {
    const [admin] = await directUsers(1, 'ADMIN', 'Extra Admin');
    const role = await api('/user/account', {
      method: 'POST',
      token: admin!.token,
      body: { name: 'Extra Admin', email: admin!.email, userRole: 'TECHNICAL_LEADER' },
    });
    expect(role.status).toBe(403);
    expect(role.body.errorMessage).toBe(API_ERR.ownRoleUnchangeable);
    const next = `${uniq('admin-moved')}@example.com`;
    const edit = await api<{ user: string }>('/user/account', {
      method: 'POST',
      token: admin!.token,
      body: { name: 'Renamed Admin', email: next, userRole: 'ADMIN' },
    });
    expect(edit.status).toBe(200);
    expect(jsonText<Record<string, unknown>>(edit.body.user)).toMatchObject({
      name: 'Renamed Admin',
      userRole: 'ADMIN',
      roleStatus: 'GRANTED',
      pendingEmail: next,
    });
    // still an admin with authority
    expect((await api('/admin/users', { token: admin!.token })).status).toBe(200);
  });

  it('a non-admin cannot choose the admin role in settings', async () => {
    const r = await api('/user/account', {
      method: 'POST',
      token: u.lead.token,
      body: { name: 'Terry Lead', email: SEEDED.lead, userRole: 'ADMIN' },
    });
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toBe('The admin role cannot be chosen');
  });
});
