import type { Resource } from '@shared/api/contracts/resources';
import { tokenOfBearer } from '@shared/api/contracts/user';
import { isInFlight, signatureNeededMessage } from '@shared/domain/package-deletion';
import { ownProposalReason, proposalExpiresAt } from '@shared/domain/role-grants';
import { isRole, UPLOADER_ROLES } from '@shared/domain/roles';
import {
  DELETION_REASON_REQUIRED,
  SIGNATURE_PASSWORD_REQUIRED,
  SIGNATURE_PASSWORD_WRONG,
} from '@shared/domain/signature-meanings';
import { API_ERR, MSG } from '@shared/messages';
import { delay, HttpResponse, http } from 'msw';
import { db, mockToken } from './db';
import { MOCK_PASSWORD } from './fixtures';
import { body, fail, gate, json, on } from './mock-http';
import { packageHandlers } from './package-handlers';
import { pageOf, viewOf } from './paging';

/** Not `instanceof File`: in tests the form data's File is Node's, not jsdom's. */
function isFileLike(value: unknown): value is { name: string; size: number } {
  return typeof value === 'object' && value !== null && 'name' in value && 'size' in value;
}

function nowText(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

/** A small pause so loaders are visible in mock mode; none in tests. */
const pause = () => (import.meta.env.MODE === 'test' ? undefined : delay(250));

/** Stable per user, so a page reload in mock mode (which starts the mock backend afresh) keeps the session. */
function newToken(userId: string): string {
  const token = mockToken(userId);
  db.tokens.set(token, userId);
  return token;
}

function revokeTokens(userId: string) {
  for (const [token, id] of db.tokens) if (id === userId) db.tokens.delete(token);
}

const UPLOADERS = UPLOADER_ROLES;

function addResource(
  name: string,
  resourceType: Resource['resourceType'],
  resourceStage: Resource['resourceStage'],
  fileName: string,
  sizeBytes: number,
  uploader: { id: string; name: string },
): Resource | Response {
  if (
    db.resources.some((r) => r.name.toLowerCase() === name.toLowerCase() && r.resourceType === resourceType)
  )
    return fail(409, `Resource '${name}' already exists`);
  db.nextId += 1;
  const resource: Resource = {
    id: `r-new-${db.nextId}`,
    name,
    resourceType,
    resourceStage,
    uploadTime: nowText(),
    uploadedBy: { id: uploader.id, name: uploader.name },
    fileName,
    sizeBytes,
    sha256: '0'.repeat(64),
    ...(resourceType === 'MODEL' ? { modelName: name, modelVersion: '1.0' } : {}),
  };
  db.resources.push(resource);
  return resource;
}

/** The patches or models of a stage (GET /resources/patch/{stage}, /resources/model/{stage}). */
function listResources(routeId: string, type: Resource['resourceType']) {
  return on(routeId, async ({ request, params }) => {
    await pause();
    const g = gate(request);
    if (g.error) return g.error;
    const stage = String(params.stage).toUpperCase();
    const list = db.resources.filter((r) => r.resourceType === type && r.resourceStage === stage);
    return json({ resources: JSON.stringify(list) });
  });
}

/** A direct upload (POST /resources/patch/{stage}, /resources/model/{stage}): the file in the form. */
function uploadResource(routeId: string, type: Resource['resourceType']) {
  return on(routeId, async ({ request, params }) => {
    await pause();
    const g = gate(request, UPLOADERS);
    if (g.error) return g.error;
    const name = new URL(request.url).searchParams.get('name') ?? '';
    if (!name.trim()) return fail(400, MSG.resourceNameRequired);
    const form = await request.formData();
    const file = form.get('resourceFile');
    if (!isFileLike(file)) return fail(400, 'resourceFile is required');
    if (type === 'MODEL' && !isFileLike(form.get('metadataFile')))
      return fail(400, 'metadataFile is required');
    const stage = String(params.stage).toUpperCase() as Resource['resourceStage'];
    const created = addResource(name.trim(), type, stage, file.name, file.size, g.user);
    if (created instanceof Response) return created;
    return json({ resource: JSON.stringify(created) }, 201);
  });
}

type AdminList = 'packages' | 'dcc' | 'users' | 'resources';
const ADMIN_ROUTE: Record<AdminList, string> = {
  packages: 'Packages',
  dcc: 'Dcc',
  users: 'Users',
  resources: 'Resources',
};

function deleteHandler(list: AdminList) {
  return on(`adminDelete${ADMIN_ROUTE[list]}`, async ({ request }) => {
    const g = gate(request, ['ADMIN']);
    if (g.error) return g.error;
    // the spec's list of ids, or { ids, password, reason } (a package deletion signed by the admin, issue 23)
    const sent = await body<string[] | { ids?: string[]; password?: string; reason?: string }>(request);
    const ids = Array.isArray(sent) ? sent : (sent.ids ?? []);
    if (!Array.isArray(ids) || ids.length === 0) return fail(400, API_ERR.nothingSelected);
    if (list === 'packages') {
      const inFlight = db.packages.filter((p) => ids.includes(p.id) && isInFlight(p.status));
      const password = Array.isArray(sent) ? undefined : sent.password;
      if (inFlight.length && password === undefined)
        return fail(400, signatureNeededMessage(inFlight.map((p) => p.name)));
      if (password !== undefined) {
        if (!password) return fail(400, SIGNATURE_PASSWORD_REQUIRED);
        if (Array.isArray(sent) || !sent.reason?.trim()) return fail(400, DELETION_REASON_REQUIRED);
        if (db.passwords.get(g.user.id) !== password) return fail(403, SIGNATURE_PASSWORD_WRONG);
      }
    }
    if (list === 'resources') {
      const used = db.packages.find((p) => ids.includes(p.resourceId));
      if (used) return fail(409, `Resource is used by package '${used.name}' and cannot be deleted`);
    }
    if (list === 'packages') {
      const reason = Array.isArray(sent) ? undefined : sent.reason?.trim();
      for (const p of db.packages.filter((x) => ids.includes(x.id)))
        db.tombstones.set(p.id, {
          id: p.id,
          name: p.name,
          status: p.status,
          deletedAt: new Date().toISOString(),
          deletedBy: { id: g.user.id, name: g.user.name, userRole: g.user.userRole },
          ...(reason ? { reason } : {}),
        });
    }
    const before = db[list].length;
    (db as unknown as Record<string, { id: string }[]>)[list] = db[list].filter(
      (item) => !ids.includes(item.id),
    );
    return json({ status: 'DELETED', message: `${before - db[list].length} deleted` });
  });
}

function listHandler(list: AdminList) {
  return on(`adminList${ADMIN_ROUTE[list]}`, async ({ request }) => {
    await pause();
    const g = gate(request, ['ADMIN']);
    if (g.error) return g.error;
    // the API pages the package list only
    // the API lists what waits for an admin first: grant proposals, then role requests (issue 23)
    if (list === 'users') {
      const rank = (u: (typeof db.users)[number]) =>
        u.roleProposal ? 0 : u.roleStatus === 'REQUESTED' ? 1 : 2;
      const users = db.users.map((u, i) => ({ u, i })).sort((a, b) => rank(a.u) - rank(b.u) || a.i - b.i);
      return json({ users: JSON.stringify(users.map(({ u }) => u)) });
    }
    if (list !== 'packages') return json({ [list]: JSON.stringify(db[list]) });
    const view = viewOf(request, db.packages);
    if (view) return json({ packages: JSON.stringify(view.rows), total: view.total });
    const { rows, nextCursor } = pageOf(request, db.packages);
    return json({ packages: JSON.stringify(rows), ...(nextCursor ? { nextCursor } : {}) });
  });
}

export const handlers = [
  // first: POST /resources/:id/generate-package would otherwise meet the upload handler below
  ...packageHandlers,
  on('login', async ({ request }) => {
    await pause();
    const { login, password } = await body<{ login: string; password: string }>(request);
    if (!login || !password) return fail(400, MSG.loginEmpty);
    const user = db.users.find((u) => u.email.toLowerCase() === login.trim().toLowerCase());
    if (!user || db.passwords.get(user.id) !== password)
      return fail(401, API_ERR.wrongPassword, { authError: API_ERR.wrongPassword });
    return json({ token: newToken(user.id), user: JSON.stringify(user) });
  }),

  on('auth', async ({ request }) => {
    const g = gate(request);
    if (g.error) return g.error;
    // as the server (decision 154): a body token must be the Authorization header's
    const sent = await body<{ token?: string }>(request);
    if (
      sent?.token !== undefined &&
      tokenOfBearer(sent.token) !== tokenOfBearer(request.headers.get('Authorization'))
    )
      return fail(400, 'The token in the body is not the one in the Authorization header');
    return json({ user: JSON.stringify(g.user) });
  }),

  on('logout', ({ request }) => {
    const g = gate(request);
    if (g.error) return g.error;
    revokeTokens(g.user.id);
    return json({ status: 'SIGNED_OUT' });
  }),

  on('register', async ({ request }) => {
    await pause();
    const b = await body<{ name: string; email: string; password: string; userRole: string }>(request);
    if (!b.name || !b.email || !b.password || !isRole(b.userRole))
      return fail(400, 'Name, email, password and role are required');
    if (b.userRole === 'ADMIN') return fail(400, API_ERR.adminRoleNotAllowed);
    const email = b.email.toLowerCase();
    if (db.users.some((u) => u.email === email)) return fail(409, API_ERR.emailConflict);
    db.nextId += 1;
    const user = { id: `u-new-${db.nextId}`, name: b.name, email, userRole: b.userRole };
    db.users.push(user);
    db.passwords.set(user.id, b.password);
    return json({ status: 'REGISTERED', message: MSG.registered, user: JSON.stringify(user) }, 201);
  }),

  on('changePassword', async ({ request }) => {
    await pause();
    const g = gate(request);
    if (g.error) return g.error;
    const b = await body<{ oldPassword: string; newPassword: string }>(request);
    if (db.passwords.get(g.user.id) !== b.oldPassword)
      return fail(403, API_ERR.oldPasswordWrong, { authError: API_ERR.oldPasswordWrong });
    db.passwords.set(g.user.id, b.newPassword ?? '');
    revokeTokens(g.user.id);
    return json({ status: 'UPDATED', message: MSG.settingsSaved, token: newToken(g.user.id) });
  }),

  on('updateAccount', async ({ request }) => {
    await pause();
    const g = gate(request);
    if (g.error) return g.error;
    const b = await body<{ name: string; email: string; userRole: string }>(request);
    if (!b.name || !b.email || !isRole(b.userRole) || b.userRole === 'ADMIN')
      return fail(400, 'Name, email and a role are required');
    const email = b.email.toLowerCase();
    if (db.users.some((u) => u.email === email && u.id !== g.user.id))
      return fail(409, API_ERR.emailConflict);
    Object.assign(g.user, { name: b.name, email, userRole: b.userRole });
    return json({ user: JSON.stringify(g.user) });
  }),

  // issue 12: the confirmation link, a new link, and the admins' role decisions
  on('confirmEmail', async ({ request }) => {
    await pause();
    const { token, password } = await body<{ token: string; password?: string }>(request);
    if (!token || token === 'bad') return fail(400, API_ERR.confirmLinkInvalid, { reason: 'INVALID' });
    if (token === 'expired') return fail(410, API_ERR.confirmLinkExpired, { reason: 'EXPIRED' });
    if (token === 'used') return fail(409, API_ERR.confirmLinkUsed, { reason: 'USED' });
    if (!password) return fail(400, API_ERR.confirmPasswordNeeded);
    // issue 23: the password chosen at registration (the mock's registrant chose MOCK_PASSWORD)
    if (password !== MOCK_PASSWORD)
      return fail(403, API_ERR.confirmPasswordWrong, { reason: 'WRONG_PASSWORD' });
    return json({ status: 'CONFIRMED', message: API_ERR.emailConfirmed, email: 'pat.pending@example.org' });
  }),

  on('cancelRegistration', async ({ request }) => {
    await pause();
    const { token } = await body<{ token: string }>(request);
    if (!token || token === 'bad') return fail(400, API_ERR.confirmLinkInvalid, { reason: 'INVALID' });
    if (token === 'used') return fail(409, API_ERR.confirmLinkUsed, { reason: 'USED' });
    return json({
      status: 'CANCELLED',
      message: API_ERR.registrationCancelled,
      email: 'pat.pending@example.org',
    });
  }),

  on('resendConfirmation', async ({ request }) => {
    await pause();
    const { email } = await body<{ email: string }>(request);
    if (!email) return fail(400, MSG.registerEmailRequired);
    return json({ status: 'SENT', message: API_ERR.confirmationResent });
  }),

  // issue 23: a grant is signed and takes two admins (proposes, or confirms another admin's proposal)
  on('adminDecideRoles', async ({ request }) => {
    await pause();
    const g = gate(request, ['ADMIN']);
    if (g.error) return g.error;
    const b = await body<{ grant: string[]; refuse: string[]; password?: string }>(request);
    const ids = b.grant ?? b.refuse;
    if (!Array.isArray(ids) || ids.length === 0) return fail(400, API_ERR.nothingSelected);
    if (ids.includes(g.user.id)) return fail(403, API_ERR.ownRoleUndecidable);
    const users = db.users.filter((u) => ids.includes(u.id));
    if (users.some((u) => u.userRole === 'ADMIN')) return fail(400, API_ERR.adminRoleNotDecided);
    if (b.grant) {
      if (!b.password) return fail(400, SIGNATURE_PASSWORD_REQUIRED);
      const own = users.filter((u) => u.roleProposal?.proposedBy.id === g.user.id);
      if (own.length > 0) return fail(403, own.map((u) => ownProposalReason(u)).join('; '));
      if (db.passwords.get(g.user.id) !== b.password) return fail(403, SIGNATURE_PASSWORD_WRONG);
    }
    const outcomes: Record<string, string> = {};
    const at = new Date().toISOString();
    for (const u of users) {
      if (!b.grant) {
        u.roleStatus = 'REFUSED';
        delete u.requestedRole;
        delete u.roleProposal;
        outcomes[u.id] = 'REFUSED';
      } else if (u.roleProposal) {
        u.roleStatus = 'GRANTED';
        delete u.requestedRole;
        delete u.roleProposal;
        outcomes[u.id] = 'GRANTED';
      } else {
        const proposedBy = { id: g.user.id, name: g.user.name, email: g.user.email };
        u.roleProposal = { role: u.userRole, proposedBy, proposedAt: at, expiresAt: proposalExpiresAt(at) };
        outcomes[u.id] = 'PROPOSED';
      }
    }
    return json({ status: 'DECIDED', message: API_ERR.rolesDecided, users: JSON.stringify(users), outcomes });
  }),

  on('resetPassword', async ({ request }) => {
    await pause();
    const { email } = await body<{ email: string }>(request);
    if (!email) return fail(400, MSG.loginEmpty);
    if (!db.users.some((u) => u.email === email.toLowerCase()))
      return fail(404, API_ERR.userNotFound, { authError: API_ERR.userNotFound });
    return json({ status: 'SENT', message: MSG.resetMailSent });
  }),

  listResources('listPatches', 'PATCH'),
  listResources('listModels', 'MODEL'),

  on('requestResourceUpload', async ({ request }) => {
    const g = gate(request, UPLOADERS);
    if (g.error) return g.error;
    const b = await body<{
      name: string;
      resourceType: Resource['resourceType'];
      resourceStage: Resource['resourceStage'];
      fileName: string;
      sizeBytes: number;
      metadataFileName?: string;
    }>(request);
    if (!b.name || !b.resourceType || !b.resourceStage || !b.fileName || !b.sizeBytes)
      return fail(400, 'Bad upload request');
    db.nextId += 1;
    const uploadId = `up-${db.nextId}`;
    db.uploads.set(uploadId, {
      name: b.name,
      resourceType: b.resourceType,
      resourceStage: b.resourceStage,
      fileName: b.fileName,
      sizeBytes: b.sizeBytes,
    });
    const storage = new URL(`/mock-storage/${uploadId}`, location.href).toString();
    return json({
      uploadId,
      resourceUrl: `${storage}/resource`,
      ...(b.metadataFileName ? { metadataUrl: `${storage}/metadata` } : {}),
      expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
    });
  }),

  http.put('/mock-storage/:uploadId/:part', () => new HttpResponse(null, { status: 200 })),

  // confirm answers 202 VERIFYING; the state answers VERIFYING at the first poll, then REGISTERED (decision 173)
  on('confirmResourceUpload', async ({ request, params }) => {
    const g = gate(request, UPLOADERS);
    if (g.error) return g.error;
    const uploadId = String(params.uploadId);
    const upload = db.uploads.get(uploadId);
    if (!upload) return fail(404, 'No such upload');
    upload.polls ??= 0;
    return json(
      {
        uploadId,
        state: 'VERIFYING',
        sizeBytes: upload.sizeBytes,
        message: 'The file is in storage. Its size and SHA-256 are being checked',
      },
      202,
    );
  }),

  on('getResourceUpload', async ({ request, params }) => {
    const g = gate(request, UPLOADERS);
    if (g.error) return g.error;
    const uploadId = String(params.uploadId);
    const upload = db.uploads.get(uploadId);
    if (!upload) return fail(404, 'Upload not found or expired; request a new upload');
    if (upload.polls === undefined)
      return json({ uploadId, state: 'UPLOADING', sizeBytes: upload.sizeBytes });
    upload.polls += 1;
    if (upload.polls === 1)
      return json({
        uploadId,
        state: 'VERIFYING',
        sizeBytes: upload.sizeBytes,
        verifiedBytes: Math.floor(upload.sizeBytes / 2),
      });
    if (!upload.resource) {
      const created = addResource(
        upload.name,
        upload.resourceType,
        upload.resourceStage,
        upload.fileName,
        upload.sizeBytes,
        g.user,
      );
      if (created instanceof Response) {
        const refusal = (await created.json()) as { errorMessage: string };
        db.uploads.delete(uploadId);
        return json({
          uploadId,
          state: 'FAILED',
          statusCode: created.status,
          errorMessage: refusal.errorMessage,
          retryable: false,
        });
      }
      upload.resource = JSON.stringify(created);
    }
    return json({
      uploadId,
      state: 'REGISTERED',
      sizeBytes: upload.sizeBytes,
      verifiedBytes: upload.sizeBytes,
      resource: upload.resource,
      message: MSG.uploaded,
    });
  }),

  uploadResource('uploadPatch', 'PATCH'),
  uploadResource('uploadModel', 'MODEL'),

  listHandler('packages'),
  listHandler('dcc'),
  listHandler('users'),
  listHandler('resources'),
  deleteHandler('packages'),
  deleteHandler('dcc'),
  deleteHandler('users'),
  deleteHandler('resources'),
];
