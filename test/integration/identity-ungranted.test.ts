import { beforeAll, describe, expect, it } from 'vitest';
import type { Package } from '../../shared/api/contracts/packages';
import { ROUTES } from '../../shared/api/routes';
import { type IdentityFields, missingAuthorityMessage } from '../../shared/domain/identity';
import { API_ERR } from '../../shared/messages';
import { api } from '../support/api';
import { type DirectUser, directUsers } from '../support/direct-users';
import { createDcc, createPackage, seededUsers, uploadPatch } from '../support/fixtures';
import { approveAllButLast, lastSteps, prepareAndNotify } from '../support/package-flow';

/**
 * an account without a granted role (requested, refused, or with an unconfirmed address) sees its
 * own settings and nothing else. The gate denies by default: every signed-in row of the route table but the
 * ones marked `ungranted` (the account's own identity and settings) is refused with 403, reads included,
 * and downloads of a ready package above all. Generated from the route table, so a new row is covered.
 */

let ids: Record<string, string>;
let granted: string;
const people: { label: string; user: DirectUser; fields: IdentityFields }[] = [];

beforeAll(async () => {
  const u = await seededUsers();
  granted = u.designDev.token;
  // a real, approved package (with its XML artefact), a resource and a DCC: every read has something to show
  const resource = await uploadPatch(u.designDev.token, 'dev');
  const pkg: Package = await createPackage(u.designDev.token, resource.id, 'DEV_UNSIGNED');
  await prepareAndNotify(u, pkg);
  await approveAllButLast(u, pkg);
  await lastSteps(u, pkg);
  ids = { id: pkg.id, dccId: await createDcc(u.designDev.token), uploadId: 'no-such-upload' };
  const [requested] = await directUsers(1, 'SW_FW_RELEASE_ENGINEER', 'Waiting', { granted: false });
  const [unconfirmed] = await directUsers(1, 'TECHNICAL_LEADER', 'Unconfirmed', { confirmed: false });
  const [designer] = await directUsers(1, 'DESIGN_ENGINEER_DEV', 'Designer', { granted: false });
  people.push(
    {
      label: 'requested',
      user: requested!,
      fields: { userRole: 'SW_FW_RELEASE_ENGINEER', roleStatus: 'REQUESTED', emailConfirmed: true },
    },
    {
      label: 'unconfirmed',
      user: unconfirmed!,
      fields: { userRole: 'TECHNICAL_LEADER', roleStatus: 'GRANTED', emailConfirmed: false },
    },
    {
      label: 'requested uploader',
      user: designer!,
      fields: { userRole: 'DESIGN_ENGINEER_DEV', roleStatus: 'REQUESTED', emailConfirmed: true },
    },
  );
}, 180_000);

const pathOf = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'stage' ? 'dev' : (ids[name] ?? `no-such-${name}`),
  );

const signedInRows = ROUTES.filter((r) => r.access !== 'public');
const closed = signedInRows.filter((r) => !('ungranted' in r && r.ungranted));
const reads = closed.filter((r) => r.method === 'GET');

describe('an account without a granted role reads nothing', () => {
  it('leaves open only its own identity and settings', () => {
    expect(
      signedInRows
        .filter((r) => 'ungranted' in r && r.ungranted)
        .map((r) => r.id)
        .sort(),
    ).toEqual([
      // one's own sign-in methods: passkeys (decision 322) are settings of the account, not of its role
      'addPasskey',
      'auth',
      'changePassword',
      'listPasskeys',
      'logout',
      'passkeyRegistrationOptions',
      'passkeySignatureOptions',
      'removePasskey',
      'renamePasskey',
      'updateAccount',
    ]);
  });

  it('a granted account reads the package, its details, history, header, the lists and the download', async () => {
    for (const path of ['/dev/packages', `/packages/${ids.id}`, `/packages/${ids.id}/details`, '/dcc'])
      expect((await api(path, { token: granted })).status, path).toBe(200);
  });

  it('refuses every read route (lists, package, details, history, header, DCC, resources, download) with 403', async () => {
    expect(reads.map((r) => r.id)).toEqual(
      expect.arrayContaining([
        'listPackages',
        'listDeliveryPackages',
        'listApprovalPackages',
        'listSigningPackages',
        'downloadPackage',
        'packageHistory',
        'packageDetails',
        'getHeader',
        'listPatches',
        'listModels',
        'listDcc',
        'listApprovers',
        'adminListUsers',
      ]),
    );
    for (const p of people)
      for (const r of reads) {
        const res = await api(pathOf(r.path), { token: p.user.token });
        expect(res.status, `${r.id} as ${p.label}`).toBe(403);
        const namesRole =
          r.access === 'signedIn' || (Array.isArray(r.access) && r.access.includes(p.fields.userRole));
        // a row naming other roles says so; every other row says why this account holds no authority
        expect(res.body.errorMessage, `${r.id} as ${p.label}`).toBe(
          namesRole ? missingAuthorityMessage(p.fields) : API_ERR.forbidden,
        );
        expect(JSON.stringify(res.body), `${r.id} as ${p.label}`).not.toContain('base64EncodedXMLPackage');
      }
  }, 120_000);

  it('refuses every other signed-in row too (deny by default)', async () => {
    const [p] = people;
    for (const r of closed.filter((x) => x.method !== 'GET')) {
      const res = await api(pathOf(r.path), { method: r.method, token: p!.user.token, body: {} });
      expect(res.status, r.id).toBe(403);
    }
  }, 120_000);

  it('still shows the account its own settings: who it is, and saving its name', async () => {
    for (const p of people) {
      const me = await api<{ user: string }>('/user/auth', { method: 'POST', token: p.user.token });
      expect(me.status, p.label).toBe(200);
      const saved = await api('/user/account', {
        method: 'POST',
        token: p.user.token,
        body: { name: `${p.user.name} Renamed`, email: p.user.email, userRole: p.fields.userRole },
      });
      expect(saved.status, p.label).toBe(200);
    }
  });
});
