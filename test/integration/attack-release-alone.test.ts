import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import type { Resource } from '../../shared/api/contracts/resources';
import { approvalOrder, approverRoles } from '../../shared/domain/approval-policy';
import { ROLE_GRANT_MEANINGS } from '../../shared/domain/role-grants';
import { roleLabel } from '../../shared/domain/roles';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import {
  SIGNATURE_PASSWORD_REQUIRED,
  SIGNATURE_PASSWORD_WRONG,
} from '../../shared/domain/signature-meanings';
import type { RoundName } from '../../shared/domain/voting-rounds';
import { API_ERR } from '../../shared/messages';
import {
  api,
  jsonText,
  localDynamo,
  localTable,
  login,
  mailMatching,
  SEEDED,
  SEEDED_ADMIN_2,
  uniq,
} from '../support/api';
import { ageRoleProposal, type DirectUser, directUsers } from '../support/direct-users';
import { seededUser, uploadPatch } from '../support/fixtures';
import { registerConfirmed } from '../support/identity';
import { waitForStatus } from '../support/package-flow';

/**
 * one person tries to release firmware alone. An anonymous visitor registers an account
 * per role on an allowed domain and confirms each through the mailbox: every step that needs authority is
 * refused with the reason. Then the person is an admin too: their grant of all those roles is
 * only a proposal, their own confirmation is refused, and nothing takes effect until a second, different
 * admin confirms it; then the same accounts carry the same release through.
 */

const PASSWORD = 'Mallory-Owns-All-1';
const waiting = (role: string) =>
  `Your role ${roleLabel(role)} waits for an administrator's approval. Until then you can only see and change your own settings.`;

const ACCOUNTS = {
  dev1: 'DESIGN_ENGINEER_DEV',
  dev2: 'DESIGN_ENGINEER_DEV',
  test: 'DESIGN_ENGINEER_TEST',
  lead: 'TECHNICAL_LEADER',
  reliability: 'RELIABILITY_ENGINEER',
  rel1: 'SW_FW_RELEASE_ENGINEER',
  rel2: 'SW_FW_RELEASE_ENGINEER',
} as const;
type Who = keyof typeof ACCOUNTS;

function binForm(name: string) {
  const form = new FormData();
  form.append('resourceFile', new Blob([new Uint8Array(randomBytes(4096))]), `${name}.bin`);
  return form;
}

const m = {} as Record<Who, { id: string; email: string; token: string }>;
/** the same person's admin account (an admin made by the operator: straight into the store here) */
let mallory: DirectUser;
const extra: string[] = [];

interface Listed {
  id: string;
  userRole?: string;
  roleStatus: string;
  roleProposal?: { role: string; proposedBy: { id: string; name: string; email: string }; expiresAt: string };
}

const roles = (token: string, body: Record<string, unknown>) =>
  api<{ outcomes: Record<string, string>; users: string; errorMessage?: string }>('/admin/users/roles', {
    method: 'POST',
    token,
    body,
  });

async function listed(token: string, id: string): Promise<Listed> {
  const all = jsonText<Listed[]>((await api<{ users: string }>('/admin/users', { token })).body.users);
  return all.find((u) => u.id === id)!;
}

async function auditOf(userId: string) {
  const r = await (await localDynamo()).send(
    new QueryCommand({
      TableName: localTable('audit'),
      KeyConditionExpression: 'pk = :p AND seq > :z',
      ExpressionAttributeValues: { ':p': `USER#${userId}`, ':z': 0 },
    }),
  );
  return (r.Items ?? []) as {
    action: string;
    actorId: string;
    details?: { signature?: Record<string, unknown> };
  }[];
}

const dccBody = () => ({
  deviceId: uniq('mallory-dev'),
  telemetryType: 'TelB',
  messageLimit: 64,
  deviceLimit: 4096,
});

// The stack is shared by every integration file: granted extra design engineers (dev) would make every
// later notify by the seeded one name a DESIGN_ENGINEER_DEV approver too. The accounts go when done.
afterAll(async () => {
  const ids = [...Object.values(m).map((a) => a.id), ...extra, ...(mallory ? [mallory.id] : [])];
  if (ids.length === 0) return;
  const admin = await seededUser('admin');
  // an administrator's account takes two admins, each signing (decision 336): the seeded admin proposes,
  // the second seeded admin confirms; everyone else goes with the spec's plain list
  const all = jsonText<Listed[]>(
    (await api<{ users: string }>('/admin/users', { token: admin.token })).body.users,
  );
  const admins = new Set(all.filter((x) => ids.includes(x.id) && x.userRole === 'ADMIN').map((x) => x.id));
  const others = ids.filter((id) => !admins.has(id));
  if (others.length) {
    const del = await api('/admin/users', { method: 'DELETE', token: admin.token, body: others });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
  }
  if (admins.size) {
    const body = { ids: [...admins], password: SEED_PASSWORD, reason: 'test accounts, no longer needed' };
    const proposed = await api('/admin/users', { method: 'DELETE', token: admin.token, body });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(202);
    const admin2 = await login(SEEDED_ADMIN_2);
    const del = await api('/admin/users', { method: 'DELETE', token: admin2, body });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
  }
});

describe('one person cannot release firmware alone', () => {
  it("stops the self-registered accounts at the first step, keeps their admin's own grant a proposal, and works once a second admin confirmed it", async () => {
    // ── an anonymous visitor makes one account per role and confirms each through the mailbox ──────
    for (const [who, role] of Object.entries(ACCOUNTS) as [Who, string][]) {
      const acc = await registerConfirmed({
        name: `Mallory ${who}`,
        email: `${uniq(`mallory-${who}`)}@example.com`,
        password: PASSWORD,
        userRole: role,
      });
      m[who] = { ...acc, token: await login(acc.email, PASSWORD) };
    }

    // ── 1. upload a .bin: the first step that needs authority is refused, saying why ───────────────
    const name = uniq('mallory-fw');
    const upload = await api(`/resources/patch/release?name=${name}`, {
      method: 'POST',
      token: m.dev1.token,
      body: binForm(name),
    });
    expect(upload.status).toBe(403);
    expect(upload.body).toEqual({ errorMessage: waiting('DESIGN_ENGINEER_DEV') });
    // and, without a grant, it reads nothing either: the list is refused with the same reason
    const list = await api('/resources/patch/release', { token: m.dev1.token });
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ errorMessage: waiting('DESIGN_ENGINEER_DEV') });
    const resources = jsonText<Resource[]>(
      (
        await api<{ resources: string }>('/resources/patch/release', {
          token: (await seededUser('designDev')).token,
        })
      ).body.resources,
    );
    expect(resources.some((r) => r.name === name)).toBe(false);

    // nor can they borrow someone else's resource, or make the other things a release needs
    const designDev = await seededUser('designDev');
    const foreign = await uploadPatch(designDev.token, 'release');
    const generate = await api(`/resources/${foreign.id}/generate-package`, {
      method: 'POST',
      token: m.dev1.token,
      body: { packageName: uniq('mallory-pkg'), packageType: 'RELEASE_SIGNED', note: 'ship it' },
    });
    expect(generate.status).toBe(403);
    expect(generate.body.errorMessage).toBe(waiting('DESIGN_ENGINEER_DEV'));
    const dcc = await api('/dcc', { method: 'POST', token: m.lead.token, body: dccBody() });
    expect(dcc.status).toBe(403);
    expect(dcc.body.errorMessage).toBe(waiting('TECHNICAL_LEADER'));
    for (const who of ['rel1', 'rel2'] as const) {
      const sign = await api(`/packages/${foreign.id}/generate-signed`, {
        method: 'POST',
        token: m[who].token,
      });
      expect(sign.status).toBe(403);
      expect(sign.body.errorMessage).toBe(waiting('SW_FW_RELEASE_ENGINEER'));
    }

    // ── the same person is an admin: their grant of every role is only a proposal ──────────────────
    mallory = (await directUsers(1, 'ADMIN', 'Mallory Admin'))[0]!;
    const ids = Object.values(m).map((a) => a.id);
    const proposed = await roles(mallory.token, { grant: ids, password: SEED_PASSWORD });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    expect(proposed.body.outcomes).toEqual(Object.fromEntries(ids.map((id) => [id, 'PROPOSED'])));
    // nothing took effect: the first step is refused as before, and the list shows the proposal
    const stillRefused = await api(`/resources/patch/release?name=${name}`, {
      method: 'POST',
      token: m.dev1.token,
      body: binForm(name),
    });
    expect(stillRefused.status).toBe(403);
    expect(stillRefused.body).toEqual({ errorMessage: waiting('DESIGN_ENGINEER_DEV') });
    expect(await listed(mallory.token, m.rel1.id)).toMatchObject({
      roleStatus: 'REQUESTED',
      roleProposal: {
        role: 'SW_FW_RELEASE_ENGINEER',
        proposedBy: { id: mallory.id, name: 'Mallory Admin', email: mallory.email },
      },
    });
    // confirming their own proposal is refused, naming each account, and changes nothing
    const selfConfirm = await roles(mallory.token, { grant: ids, password: SEED_PASSWORD });
    expect(selfConfirm.status).toBe(403);
    expect(selfConfirm.body.errorMessage).toBe(
      (Object.entries(ACCOUNTS) as [Who, string][])
        .map(
          ([who, role]) =>
            `${m[who].email}: you proposed the role ${roleLabel(role)}; a second administrator must confirm it`,
        )
        .join('; '),
    );
    // nor does refusing and proposing again make it their own act
    expect((await roles(mallory.token, { refuse: [m.lead.id] })).status).toBe(200);
    expect((await roles(mallory.token, { grant: [m.lead.id] })).body.outcomes).toEqual({
      [m.lead.id]: 'PROPOSED',
    });
    expect((await roles(mallory.token, { grant: [m.lead.id] })).status).toBe(403);
    expect((await api('/dcc', { method: 'POST', token: m.lead.token, body: dccBody() })).status).toBe(403);
    // every admin is told of each proposal
    const told = await mailMatching(SEEDED_ADMIN_2, (x) =>
      x.subject.startsWith(`Role proposal: Mallory Admin proposes SW/FW Release Engineer for Mallory rel1`),
    );
    expect(told?.text).toContain(m.rel1.email);

    // ── a second, different admin confirms: every role takes effect, signed and audited ─────────────
    const admin2 = await login(SEEDED_ADMIN_2);
    const confirmed = await roles(admin2, { grant: ids, password: SEED_PASSWORD });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.outcomes).toEqual(Object.fromEntries(ids.map((id) => [id, 'GRANTED'])));
    const trail = await auditOf(m.rel1.id);
    expect(trail.find((e) => e.action === 'ROLE_PROPOSED')?.details?.signature).toMatchObject({
      meaning: ROLE_GRANT_MEANINGS.proposeRole,
      printedName: 'Mallory Admin',
    });
    expect(trail.find((e) => e.action === 'ROLE_GRANTED')?.details?.signature).toMatchObject({
      meaning: ROLE_GRANT_MEANINGS.confirmRole,
      printedName: 'Abe Admin',
    });

    // ── the same release now goes through, with the initiator still kept out of the approvers ───────
    const up = await api<{ resource: string }>(`/resources/patch/release?name=${name}`, {
      method: 'POST',
      token: m.dev1.token,
      body: binForm(name),
    });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const resource = jsonText<Resource>(up.body.resource);
    const gen = await api<{ package: string }>(`/resources/${resource.id}/generate-package`, {
      method: 'POST',
      token: m.dev1.token,
      body: { packageName: uniq('mallory-pkg'), packageType: 'RELEASE_SIGNED', note: 'ship it' },
    });
    expect(gen.status, JSON.stringify(gen.body)).toBe(201);
    const pkg = jsonText<Package>(gen.body.package);

    const header = jsonText<{ fields: { name: string; value: unknown }[] }>(
      (await api<{ header: string }>(`/packages/${pkg.id}/header`, { token: m.dev1.token })).body.header,
    );
    header.fields.find((f) => f.name === 'Package Id')!.value = 4242;
    const saved = await api(`/packages/${pkg.id}/header`, {
      method: 'PATCH',
      token: m.dev1.token,
      body: { header: JSON.stringify(header) },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const made = await api<{ dccUuid: string }>('/dcc', {
      method: 'POST',
      token: m.dev1.token,
      body: dccBody(),
    });
    expect(made.status).toBe(201);
    expect(
      (await api(`/packages/${pkg.id}/dcc/${made.body.dccUuid}`, { method: 'POST', token: m.dev1.token }))
        .status,
    ).toBe(200);

    // the policy's approvers among the accounts (decision 272): one per role, the initiator (dev1) and
    // the deliverer (rel2) left out, in the order they may approve
    const approverAccount: Partial<Record<string, Who>> = {
      DESIGN_ENGINEER_DEV: 'dev2',
      DESIGN_ENGINEER_TEST: 'test',
      TECHNICAL_LEADER: 'lead',
      RELIABILITY_ENGINEER: 'reliability',
      SW_FW_RELEASE_ENGINEER: 'rel1',
    };
    const voters = (round: RoundName) =>
      approvalOrder(
        approverRoles(round, pkg.type).flatMap((role) => {
          const who = approverAccount[role];
          return who ? [{ role, who }] : [];
        }),
        (v) => v.role,
        round,
      );
    const approvers = voters('approval').map(({ role, who }) => ({ role, id: m[who].id }));
    // the initiator in place of the other dev engineer: the attack on separation of duties
    const selfApproval = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: m.dev1.token,
      body: {
        approvers: approvers.map((a) => (a.id === m.dev2.id ? { ...a, id: m.dev1.id } : a)),
        signer: m.rel1.id,
      },
    });
    expect(selfApproval.status).toBe(400);
    expect(selfApproval.body.errorMessage).toBe(
      'You cannot choose yourself, or the package initiator, as an approver',
    );

    const notified = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: m.dev1.token,
      body: { approvers, signer: m.rel1.id },
    });
    expect(notified.status, JSON.stringify(notified.body)).toBe(200);
    const outcomes: string[] = [];
    for (const { who } of voters('approval')) {
      const r = await api(`/packages/${pkg.id}/approve`, {
        method: 'POST',
        token: m[who].token,
        body: { password: PASSWORD },
      });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      outcomes.push(String(r.body.outcome));
    }
    expect(outcomes.at(-1)).toBe('WAITING_FOR_SIGNING');
    const signed = await api(`/packages/${pkg.id}/generate-signed`, {
      method: 'POST',
      token: m.rel1.token,
      body: { password: PASSWORD },
    });
    // the signature is recorded; the signed XML follows off the request path (decision 160)
    expect(signed.status, JSON.stringify(signed.body)).toBe(202);
    expect(signed.body.outcome).toBe('GENERATING');
    await waitForStatus(pkg, m.rel1.token, 'SIGNED');

    const deliveryVoters = voters('delivery');
    const delivered = await api(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: m.rel2.token,
      body: {
        approvers: deliveryVoters.map(({ role, who }) => ({ role, id: m[who].id })),
        password: PASSWORD,
      },
    });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    const results: number[] = [];
    let last: Record<string, unknown> = {};
    for (const { who } of deliveryVoters) {
      const r = await api(`/delivery/packages/${pkg.id}/approve`, {
        method: 'POST',
        token: m[who].token,
        body: { password: PASSWORD },
      });
      results.push(r.status);
      last = r.body;
    }
    expect(results).toEqual([...deliveryVoters.slice(1).map(() => 202), 200]);
    expect(last.outcome).toBe('DELIVERED');
  }, 180_000);
});

describe('the two-admin grant', () => {
  it('refuses a wrong or missing password, and a grant for oneself, changing nothing', async () => {
    const admin = await seededUser('admin');
    const [a] = await directUsers(1, 'TECHNICAL_LEADER', 'Pending Lead', { granted: false });
    extra.push(a!.id);
    const wrong = await roles(admin.token, { grant: [a!.id], password: 'Not-The-Password-1' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.errorMessage).toBe(SIGNATURE_PASSWORD_WRONG);
    const none = await roles(admin.token, { grant: [a!.id], password: undefined });
    expect(none.status).toBe(400);
    expect(none.body.errorMessage).toBe(SIGNATURE_PASSWORD_REQUIRED);
    const after = await listed(admin.token, a!.id);
    expect(after.roleStatus).toBe('REQUESTED');
    expect(after).not.toHaveProperty('roleProposal');
    expect((await auditOf(a!.id)).map((e) => e.action)).not.toContain('ROLE_PROPOSED');

    // proposed by one admin; the second admin's wrong password confirms nothing either
    expect((await roles(admin.token, { grant: [a!.id] })).body.outcomes).toEqual({ [a!.id]: 'PROPOSED' });
    const admin2 = await login(SEEDED_ADMIN_2);
    const wrong2 = await roles(admin2, { grant: [a!.id], password: 'Not-The-Password-1' });
    expect(wrong2.status).toBe(403);
    expect(await listed(admin.token, a!.id)).toMatchObject({
      roleStatus: 'REQUESTED',
      roleProposal: { proposedBy: { email: SEEDED.admin } },
    });

    // an admin never grants themselves, nor is an admin account granted here (admin:create makes admins)
    const [other] = await directUsers(1, 'ADMIN', 'Other Admin');
    extra.push(other!.id);
    const self = await roles(other!.token, { grant: [other!.id] });
    expect(self.status).toBe(403);
    expect(self.body.errorMessage).toBe(API_ERR.ownRoleUndecidable);
    const forAdmin = await roles(admin.token, { grant: [other!.id] });
    expect(forAdmin.status).toBe(400);
    expect(forAdmin.body.errorMessage).toBe(API_ERR.adminRoleNotDecided);
  });

  it('lets a proposal lapse after 7 days: a later grant by another admin proposes again', async () => {
    const admin = await seededUser('admin');
    const [a] = await directUsers(1, 'RELIABILITY_ENGINEER', 'Late Reliability', { granted: false });
    extra.push(a!.id);
    expect((await roles(admin.token, { grant: [a!.id] })).body.outcomes).toEqual({ [a!.id]: 'PROPOSED' });
    await ageRoleProposal(a!.id, 7);
    expect(await listed(admin.token, a!.id)).not.toHaveProperty('roleProposal');
    const admin2 = await login(SEEDED_ADMIN_2);
    const late = await roles(admin2, { grant: [a!.id] });
    expect(late.status).toBe(200);
    expect(late.body.outcomes).toEqual({ [a!.id]: 'PROPOSED' });
    expect(await listed(admin.token, a!.id)).toMatchObject({
      roleStatus: 'REQUESTED',
      roleProposal: { proposedBy: { email: SEEDED_ADMIN_2 } },
    });
    // the fresh proposal is confirmed by the other admin
    expect((await roles(admin.token, { grant: [a!.id] })).body.outcomes).toEqual({ [a!.id]: 'GRANTED' });
  });

  it('keeps refusals and revocations single-admin and immediate', async () => {
    const admin = await seededUser('admin');
    const [pending] = await directUsers(1, 'TECHNICAL_LEADER', 'Refused Lead', { granted: false });
    const [holder] = await directUsers(1, 'TECHNICAL_LEADER', 'Revoked Lead');
    extra.push(pending!.id, holder!.id);
    expect((await roles(admin.token, { grant: [pending!.id] })).body.outcomes).toEqual({
      [pending!.id]: 'PROPOSED',
    });
    const refused = await roles(admin.token, { refuse: [pending!.id, holder!.id] });
    expect(refused.status).toBe(200);
    expect(refused.body.outcomes).toEqual({ [pending!.id]: 'REFUSED', [holder!.id]: 'REFUSED' });
    expect(await listed(admin.token, pending!.id)).not.toHaveProperty('roleProposal');
    // the revoked holder is refused at once, with the same token
    const dcc = await api('/dcc', { method: 'POST', token: holder!.token, body: dccBody() });
    expect(dcc.status).toBe(403);
    expect(String(dcc.body.errorMessage)).toContain('was refused by an administrator');
    // the dropped proposal confirms nothing: a second admin's grant is a new proposal
    const admin2 = await login(SEEDED_ADMIN_2);
    expect((await roles(admin2, { grant: [pending!.id] })).body.outcomes).toEqual({
      [pending!.id]: 'PROPOSED',
    });
  });
});
