import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import type { Resource } from '../../shared/api/contracts/resources';
import { roleLabel } from '../../shared/domain/roles';
import { api, jsonText, login, uniq } from '../support/api';
import { seededUser, uploadPatch } from '../support/fixtures';
import { decideRoles, registerConfirmed } from '../support/identity';
import { waitForStatus } from '../support/package-flow';

/**
 * Issue 12's attack: one anonymous visitor registers an account per role on an allowed domain, confirms
 * each through the mailbox and tries to release firmware alone. Every step that needs authority is refused
 * with the reason until an admin grants the roles; then the same accounts carry the same release through.
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

// The stack is shared by every integration file: granted extra design engineers (dev) would make every
// later notify by the seeded one name a DESIGN_ENGINEER_DEV approver too. The accounts go when done.
afterAll(async () => {
  const ids = Object.values(m).map((a) => a.id);
  if (ids.length === 0) return;
  const admin = await seededUser('admin');
  const del = await api('/admin/users', { method: 'DELETE', token: admin.token, body: ids });
  expect(del.status, JSON.stringify(del.body)).toBe(200);
});

describe('one person cannot release firmware alone', () => {
  it('stops the self-registered accounts at the first step, and works once an admin granted them', async () => {
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
    // and, without a grant, it reads nothing either (issue 23): the list is refused with the same reason
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
    const dcc = await api('/dcc', {
      method: 'POST',
      token: m.lead.token,
      body: { deviceId: uniq('mallory-dev'), telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
    });
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

    // ── an admin grants the same accounts ───────────────────────────────────────────────────────────
    await decideRoles(Object.values(m).map((a) => a.id));

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
      body: { deviceId: uniq('mallory-dev'), telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
    });
    expect(made.status).toBe(201);
    expect(
      (await api(`/packages/${pkg.id}/dcc/${made.body.dccUuid}`, { method: 'POST', token: m.dev1.token }))
        .status,
    ).toBe(200);

    const approvers = [
      { role: 'DESIGN_ENGINEER_DEV', id: m.dev2.id },
      { role: 'DESIGN_ENGINEER_TEST', id: m.test.id },
      { role: 'TECHNICAL_LEADER', id: m.lead.id },
      { role: 'RELIABILITY_ENGINEER', id: m.reliability.id },
      { role: 'SW_FW_RELEASE_ENGINEER', id: m.rel1.id },
    ];
    const selfApproval = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: m.dev1.token,
      body: {
        approvers: [{ role: 'DESIGN_ENGINEER_DEV', id: m.dev1.id }, ...approvers.slice(1)],
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
    for (const who of ['dev2', 'test', 'lead', 'reliability', 'rel1'] as const) {
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

    const delivered = await api(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: m.rel2.token,
      body: { approvers, password: PASSWORD },
    });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    const results: number[] = [];
    let last: Record<string, unknown> = {};
    for (const who of ['dev2', 'test', 'lead', 'reliability', 'rel1'] as const) {
      const r = await api(`/delivery/packages/${pkg.id}/approve`, {
        method: 'POST',
        token: m[who].token,
        body: { password: PASSWORD },
      });
      results.push(r.status);
      last = r.body;
    }
    expect(results).toEqual([202, 202, 202, 202, 200]);
    expect(last.outcome).toBe('DELIVERED');
  }, 180_000);
});
