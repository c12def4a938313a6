import { createHash } from 'node:crypto';
import { CONTRACT } from '@shared/api/contract';
import { provenanceText } from '@shared/api/contracts/provenance';
import { ROUTES, type RouteId } from '@shared/api/routes';
import { NON_ADMIN_ROLES } from '@shared/domain/roles';
import { describe, expect, it } from 'vitest';
import { DCCS, PACKAGES, RESOURCES } from './fixtures';
import { PACKAGE_FIXTURES } from './package-fixtures';
import { BUILD_PROVENANCE, SAMPLE_SBOM } from './provenance';
import { type Call, SAMPLE_ANSWERS, SAMPLE_USERS } from './sample-answers';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ask = (id: RouteId, c: Call) => SAMPLE_ANSWERS[id]!(c) as unknown;

/** Spec §6: "The five non-admin roles appear as delivery approvers in sample data." */
describe('mock sample data', () => {
  const all = [...PACKAGES, ...PACKAGE_FIXTURES];

  it('has every non-admin role, the SW/FW Release Engineer included, among the delivery approvers', () => {
    const roles = new Set(all.flatMap((p) => p.deliveryApprovers.map((a) => a.role)));
    expect([...roles].sort()).toEqual([...NON_ADMIN_ROLES].sort());
  });

  it('carries the review facts the server answers (decision 150): every package its file, every package with a DCC its values', () => {
    for (const p of all) {
      expect(p.resourceFile?.sha256, p.id).toMatch(/^[0-9a-f]{64}$/);
      if (p.dccId) expect(p.dcc?.deviceId, p.id).toBeTruthy();
    }
  });

  it('has unique ids, and every approver entry in its user’s own role', () => {
    for (const rows of [all, RESOURCES, DCCS, SAMPLE_USERS]) {
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    }
    for (const a of all.flatMap((p) => [...p.approvers, ...p.deliveryApprovers]))
      expect(a.role).toBe(a.user.userRole);
  });

  it('pins a provenance and SBOM whose SHA-256 are those of the provenance text and the SBOM bytes', () => {
    const { provenance, sbom } = BUILD_PROVENANCE.pin;
    expect(provenance.sha256).toBe(sha256(provenanceText(provenance)));
    expect(sbom.sha256).toBe(sha256(SAMPLE_SBOM));
    expect(sbom.sizeBytes).toBe(Buffer.byteLength(SAMPLE_SBOM));
    const lead = SAMPLE_USERS.find((u) => u.id === 'u-lead');
    const body = ask('packageDetails', {
      user: lead,
      params: { id: BUILD_PROVENANCE.packageId },
      query: new URLSearchParams(),
      body: {},
    });
    const pkg = JSON.parse((body as { package: string }).package);
    expect(pkg.resourceFile.provenance).toEqual(provenance);
    expect(pkg.resourceFile.sbom).toEqual(sbom);
  });
});

/** Decision 230: mock mode answers each route from the sample data, in the shape the API answers. */
describe('mock mode answers', () => {
  const lead = SAMPLE_USERS.find((u) => u.id === 'u-lead');
  const call = {
    user: lead,
    params: { id: 'pk-approve-dev', stage: 'dev', dccId: 'd-1', uploadId: 'sample-upload' },
    query: new URLSearchParams(),
    body: { login: 'technical-leader@example.com', password: 'Local-Dev-1234', name: 'Pat' },
  };

  it.each(Object.keys(SAMPLE_ANSWERS) as RouteId[])('%s answers what its route answers', (id) => {
    const body = ask(id, call);
    expect(body, id).not.toHaveProperty('refused');
    const parsed = CONTRACT[id].response.safeParse(body);
    expect(parsed.success, `${id}: ${parsed.error?.message}`).toBe(true);
  });

  it('answers every route the SPA calls; only the docs, signing-key, multipart-upload, passkey ceremony, company sign-on and audit export routes answer 501', () => {
    const unanswered = ROUTES.map((r) => r.id).filter((id) => !SAMPLE_ANSWERS[id]);
    expect(unanswered.sort()).toEqual([
      'abortResourceUpload',
      'addPasskey',
      'adminDecideCompanyLinks',
      'adminDecidePasskeyRemoval',
      'companySignOnCallback',
      'completeMultipartUpload',
      'exportAudit',
      'linkCompanyIdentity',
      'listUploadParts',
      'loginPasskey',
      'openapi',
      'passkeyRegistrationOptions',
      'passkeySignatureOptions',
      'presignUploadParts',
      'removePasskey',
      'renamePasskey',
      'requestCompanyLink',
      'signingKey',
      'signingKeyPem',
      'startCompanyReauth',
      'startCompanySignOn',
      'startMultipartUpload',
    ]);
  });

  it('answers a list with drafts=mine with the caller’s own drafts of that stage only', () => {
    const dev = SAMPLE_USERS.find((u) => u.id === 'u-dev');
    const query = new URLSearchParams('drafts=mine');
    const ids = (stage: string) =>
      JSON.parse(
        (ask('listPackages', { user: dev, params: { stage }, query, body: {} }) as { packages: string })
          .packages,
      ).map((p: { id: string }) => p.id);
    expect(ids('dev')).toEqual(['p-1']);
    expect(ids('release')).toEqual([]);
  });

  it('refuses a wrong password and an unknown package as the API does (4xx with a message)', () => {
    const wrong = ask('login', { ...call, body: { login: lead!.email, password: 'nope' } });
    expect(wrong).toMatchObject({ status: 401, errorMessage: expect.any(String) });
    const missing = ask('packageDetails', { ...call, params: { id: 'no-such-package' } });
    expect(missing).toMatchObject({ status: 404 });
  });
});

/** Decision 221 in mock mode: the admin lists answer the paged form the real API gives (data, no workflow). */
describe('mock mode admin lists: offset, limit, search, sort → one page and total', () => {
  const admin = SAMPLE_USERS.find((u) => u.userRole === 'ADMIN');
  const list = (id: RouteId, query: string) =>
    ask(id, { user: admin, params: { stage: 'dev' }, query: new URLSearchParams(query), body: {} }) as Record<
      string,
      unknown
    >;

  it.each([
    ['adminListUsers', 'users', SAMPLE_USERS.length],
    ['adminListResources', 'resources', RESOURCES.length],
    ['adminListDcc', 'dcc', DCCS.length],
  ] as const)('%s: a page of 2 and the total; the whole list without view parameters', (id, key, count) => {
    const paged = list(id, 'offset=0&limit=2');
    expect(paged.total).toBe(count);
    expect(JSON.parse(paged[key] as string)).toHaveLength(Math.min(2, count));
    expect(CONTRACT[id].response.safeParse(paged).success).toBe(true);
    const whole = list(id, '');
    expect(whole.total).toBeUndefined();
    expect(JSON.parse(whole[key] as string)).toHaveLength(count);
  });

  it('searches and sorts by the table rules, and refuses order without sort', () => {
    const pending = SAMPLE_USERS.find((u) => u.roleStatus !== 'GRANTED')!;
    const found = list('adminListUsers', `search=${encodeURIComponent(pending.email)}`);
    expect(found.total).toBe(1);
    expect(JSON.parse(found.users as string)[0].id).toBe(pending.id);
    const sorted = list('adminListUsers', 'sort=name&order=desc&limit=100');
    const names = (JSON.parse(sorted.users as string) as { name: string }[]).map((u) => u.name);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a)));
    expect(list('adminListUsers', 'order=desc')).toMatchObject({ status: 400 });
  });
});
