import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { MSG } from '../../shared/messages';
import { api, jsonText, mailMatching } from '../support/api';
import {
  createDcc,
  createPackage,
  seededUsers,
  uploadPatch,
  uploadPatchPresigned,
} from '../support/fixtures';
import {
  approversFor,
  chosenApprovers,
  seededDeliverer,
  seededSigner,
  waitForStatus,
} from '../support/package-flow';

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

const root = resolve(import.meta.dirname, '..', '..');

async function pkgOf(id: string, token: string, list = '/release/packages'): Promise<Package> {
  const all = jsonText<Package[]>((await api<{ packages: string }>(list, { token })).body.packages);
  const p = all.find((x) => x.id === id);
  if (!p) throw new Error(`package ${id} not in ${list}`);
  return p;
}

describe('the whole lifecycle over HTTP', () => {
  it('takes a signed release package from upload to delivery, with a verifiable signature and a complete audit trail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'journey-'));
    // 1. upload a patch and generate a signed release package
    const resource = await uploadPatch(u.designDev.token, 'release', 256 * 1024);
    const pkg = await createPackage(u.designDev.token, resource.id, 'RELEASE_SIGNED');
    expect(pkg.status).toBe('DRAFT');

    // 2. edit the header
    const header = jsonText<{ fields: { name: string; value: unknown }[] }>(
      (await api<{ header: string }>(`/packages/${pkg.id}/header`, { token: u.designDev.token })).body.header,
    );
    header.fields.find((f) => f.name === 'Package Id')!.value = 77;
    const saved = await api(`/packages/${pkg.id}/header`, {
      method: 'PATCH',
      token: u.designDev.token,
      body: { header: JSON.stringify(header) },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    // 3. create and attach a DCC
    const dccId = await createDcc(u.designDev.token);
    expect(
      (await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token })).status,
    ).toBe(200);

    // 4. notify the policy's approvers (four for a signed release package) and a signer
    const voters = approversFor(u, pkg.type);
    const notified = await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: chosenApprovers(u, pkg.type), signer: seededSigner(u).id },
    });
    expect(notified.status, JSON.stringify(notified.body)).toBe(200);
    for (const who of voters) {
      expect(
        await mailMatching(who.email, (m) => m.subject === `Approval requested: package ${pkg.name}`),
      ).toBeDefined();
    }

    // 5. the approvals, in the policy's order: all but the last wait, the last hands over to the signer
    const outcomes: string[] = [];
    for (const who of voters) {
      const r = await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: who.token });
      outcomes.push(String(r.body.outcome));
    }
    expect(outcomes).toEqual([...voters.slice(1).map(() => 'WAITING_FOR_APPROVALS'), 'WAITING_FOR_SIGNING']);
    expect(
      await mailMatching(
        seededSigner(u).email,
        (m) => m.subject === `Signature requested: package ${pkg.name}`,
      ),
    ).toBeDefined();
    expect((await api(`/packages/${pkg.id}`, { token: u.lead.token })).status).toBe(409);

    // 6. sign
    expect(
      (await api(`/packages/${pkg.id}/generate-signed`, { method: 'POST', token: u.lead.token })).status,
    ).toBe(403);
    const signing = await api<{ outcome: string; package: string }>(`/packages/${pkg.id}/generate-signed`, {
      method: 'POST',
      token: seededSigner(u).token,
    });
    // the signature is recorded at once; the signed XML is generated off the request path (decision 160)
    expect(signing.status, JSON.stringify(signing.body)).toBe(202);
    expect(signing.body.outcome).toBe('GENERATING');
    expect(jsonText<Package>(signing.body.package).status).toBe('GENERATING');
    const ready = await waitForStatus(pkg, u.lead.token, 'SIGNED');
    const signed = { body: { mLifePath: ready.mLifePath } };
    expect(signed.body.mLifePath).toMatch(new RegExp(`^packages/${pkg.id}/.+\\.xml$`));
    expect(ready.linkToS3).toBe(ready.mLifePath);

    // 7. download; the signature checks with the repo's verifier and with openssl
    const dl = await api<{ base64EncodedXMLPackage: string; fileName: string }>(`/packages/${pkg.id}`, {
      token: u.lead.token,
    });
    expect(dl.status).toBe(200);
    expect(dl.body.fileName).toBe(`${pkg.name}.xml`);
    const xmlFile = join(dir, dl.body.fileName);
    writeFileSync(xmlFile, Buffer.from(dl.body.base64EncodedXMLPackage, 'base64'));
    const key = await api<{ publicKeyPem: string }>('/signing-key');
    writeFileSync(join(dir, 'key.pem'), key.body.publicKeyPem);
    const report = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'scripts/verify.ts'),
        xmlFile,
        '--key',
        join(dir, 'key.pem'),
        '--extract',
        join(dir, 'x'),
      ],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(report).toMatch(/valid|VALID|OK/);
    const openssl = execFileSync(
      'openssl',
      [
        'dgst',
        '-sha256',
        '-verify',
        join(dir, 'key.pem'),
        '-signature',
        join(dir, 'x', 'sig.der'),
        join(dir, 'x', 'data.bin'),
      ],
      { encoding: 'utf8' },
    );
    expect(openssl.trim()).toBe('Verified OK');

    // 8. a release engineer delivers; a delivery approver rejects with a reason
    // the policy's delivery approvers but the starter (the release engineer who delivers)
    const deliverer = seededDeliverer(u);
    const deliveryVoters = approversFor(u, pkg.type, 'delivery').filter((a) => a.id !== deliverer.id);
    const deliveryApprovers = deliveryVoters.map(({ role, id }) => ({ role, id }));
    const delivered = await api(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: deliverer.token,
      body: { approvers: deliveryApprovers },
    });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    const inDelivery = await pkgOf(pkg.id, u.lead.token, '/delivery/packages');
    expect(inDelivery.status).toBe('DELIVERY_PENDING');
    const approvalList = jsonText<Package[]>(
      (await api<{ packages: string }>('/deliver/packages/approval', { token: u.lead.token })).body.packages,
    );
    expect(approvalList.map((p) => p.id)).toContain(pkg.id);
    const rejected = await api(`/delivery/packages/${pkg.id}/reject`, {
      method: 'POST',
      token: u.lead.token,
      body: { 'rejection-reason': 'Wrong device model id for this fleet' },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.message).toBe(MSG.rejectionConfirmed);
    const afterReject = await pkgOf(pkg.id, u.designDev.token, '/delivery/packages');
    expect(afterReject.status).toBe('DELIVERY_REJECTED');
    expect(afterReject.deliveryApprovers.find((a) => a.user.id === u.lead.id)?.rejectionNote).toBe(
      'Wrong device model id for this fleet',
    );

    // 9. re-deliver; every delivery approver approves; delivered
    const redelivered = await api(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: deliverer.token,
      body: { approvers: deliveryApprovers },
    });
    expect(redelivered.status, JSON.stringify(redelivered.body)).toBe(200);
    const results = [];
    for (const who of deliveryVoters) {
      results.push(
        await api<{ outcome: string; mLifePath?: string }>(`/delivery/packages/${pkg.id}/approve`, {
          method: 'POST',
          token: who.token,
        }),
      );
    }
    expect(results.map((r) => r.status)).toEqual([...deliveryVoters.slice(1).map(() => 202), 200]);
    expect(results.at(-1)!.body.outcome).toBe('DELIVERED');
    expect(results.at(-1)!.body.mLifePath).toBe(signed.body.mLifePath);
    expect((await pkgOf(pkg.id, u.lead.token, '/delivery/packages')).status).toBe('DELIVERED');
    expect((await api(`/packages/${pkg.id}`, { token: u.reliability.token })).status).toBe(200);

    // 10. the audit trail lists every step in order, and its chain is intact
    const h = await api<{ history: string; chainIntact: boolean }>(`/packages/${pkg.id}/history`, {
      token: u.admin.token,
    });
    expect(h.body.chainIntact).toBe(true);
    const events = jsonText<{ action: string; actorRole: string; meaning: string; at: string }[]>(
      h.body.history,
    );
    expect(events.map((e) => e.action)).toEqual([
      'PACKAGE_CREATED',
      'HEADER_EDITED',
      'DCC_ATTACHED',
      'APPROVAL_REQUESTED',
      ...voters.map(() => 'APPROVED'),
      'FULLY_APPROVED',
      'SIGNED',
      'PACKAGE_GENERATED',
      'DELIVERY_STARTED',
      'DELIVERY_REJECTED',
      'REDELIVERED',
      ...deliveryVoters.map(() => 'DELIVERY_APPROVED'),
      'DELIVERED',
    ]);
    for (const e of events) {
      expect(e.meaning.length).toBeGreaterThan(5);
      expect(e.actorRole).toMatch(/^[A-Z_]+$/);
      expect(Number.isNaN(Date.parse(e.at))).toBe(false);
    }
  });

  it('takes an unsigned development package straight to its download once every approver approved', async () => {
    const resource = await uploadPatch(u.designDev.token, 'dev');
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const dccId = await createDcc(u.designDev.token);
    await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
    await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: chosenApprovers(u, pkg.type) },
    });
    let last: { status: number; body: Record<string, unknown> } | undefined;
    for (const who of approversFor(u, pkg.type))
      last = await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: who.token });
    // 202 GENERATING at once; the package becomes APPROVED with its link once generated (decision 160)
    expect(last!.status).toBe(202);
    expect(last!.body.outcome).toBe('GENERATING');
    const approved = await waitForStatus(pkg, u.designDev.token, 'APPROVED');
    expect(String(approved.linkToS3)).toMatch(/\.xml$/);
    const dl = await api<{ base64EncodedXMLPackage: string }>(`/packages/${pkg.id}`, {
      token: u.designDev.token,
    });
    const xml = Buffer.from(dl.body.base64EncodedXMLPackage, 'base64').toString('utf8');
    expect(xml).toContain(pkg.name);
    expect(xml).not.toContain('<signature');
    // a development package cannot be delivered (explicit on purpose: whoever is named, the type is refused)
    const deliver = await api(`/delivery/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.release.token,
      body: { approvers: [{ role: 'TECHNICAL_LEADER', id: u.lead.id }] },
    });
    expect(deliver.status).toBe(409);
  });

  it('hands out a presigned URL instead of base64 when the package is above the inline limit', async () => {
    const resource = await uploadPatchPresigned(u.designDev.token, 'dev', 5 * 1024 * 1024);
    const pkg = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
    const dccId = await createDcc(u.designDev.token);
    await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
    await api(`/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: { approvers: chosenApprovers(u, pkg.type) },
    });
    for (const who of approversFor(u, pkg.type))
      await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: who.token });
    await waitForStatus(pkg, u.lead.token, 'APPROVED');
    const dl = await api<{
      downloadUrl?: string;
      base64EncodedXMLPackage?: string;
      sizeBytes: number;
      sha256: string;
    }>(`/packages/${pkg.id}`, {
      token: u.lead.token,
    });
    expect(dl.status).toBe(200);
    expect(dl.body.base64EncodedXMLPackage).toBeUndefined();
    expect(dl.body.sizeBytes).toBeGreaterThan(4 * 1024 * 1024);
    const file = await fetch(dl.body.downloadUrl!);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.length).toBe(dl.body.sizeBytes);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(dl.body.sha256);
  });
});
