import { NON_ADMIN_ROLES, type Role, UPLOADER_ROLES } from '../domain/roles';

/**
 * The route table: every call of the API, once. The CDK stack (infra/lib/constructs/api.ts) makes one
 * Lambda and one API Gateway method per row; the local server (infra/local/server.ts) dispatches to the
 * same handler module per row. Nothing else declares an endpoint.
 *
 * `access`:
 *   - 'public'  — no token needed;
 *   - 'signedIn' — any valid token (every role, admin included);
 *   - a list of roles — a valid token whose user holds one of them.
 * Finer rules that depend on data (the package's initiator, its assigned approvers) are enforced by the
 * services; the table is the first, coarse gate (deny by default).
 *
 * `uses` lists the stores and services the handler touches; the CDK stack grants exactly these.
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type Access = 'public' | 'signedIn' | readonly Role[];

export type TableName = 'users' | 'resources' | 'packages' | 'dcc' | 'audit' | 'outbox';
export type BucketName = 'resources' | 'artefacts' | 'audit';

export interface RouteUses {
  tables: readonly TableName[];
  /** read = GetObject, write = PutObject, delete = DeleteObject; presign uses the same grants. */
  buckets?: Partial<Record<BucketName, readonly ('read' | 'write' | 'delete')[]>>;
  mail?: boolean;
  /** 'sign' = kms:Sign on the package key (and its public key); 'publicKey' = kms:GetPublicKey only. */
  sign?: 'sign' | 'publicKey';
  /** limits per client address: reads the origin-verify secret to trust CloudFront-Viewer-Address */
  clientSource?: boolean;
}

export interface Route {
  /** camelCase id; the handler module is lambdas/handlers/<kebab-case of id>.ts */
  id: string;
  method: HttpMethod;
  /** path under the `dev` stage, with {name} path parameters as API Gateway writes them */
  path: string;
  access: Access;
  uses: RouteUses;
  /** Lambda memory in MB (CPU scales with it: scrypt and hashing routes get more) */
  memoryMb?: number;
  /** the issue that gives this row its behaviour; until then the handler answers 501 */
  summary: string;
}

const ADMIN: readonly Role[] = ['ADMIN'];
const NON_ADMIN: readonly Role[] = NON_ADMIN_ROLES;
const RELEASE_ENGINEER: readonly Role[] = ['SW_FW_RELEASE_ENGINEER'];
const UPLOADERS: readonly Role[] = UPLOADER_ROLES;

const USERS = ['users'] as const;
/** identity routes that change an account also append to the audit trail */
const USERS_AUDITED = ['users', 'audit'] as const;
const PKG_READ = ['users', 'packages'] as const;
const PKG_WRITE = ['users', 'packages', 'audit'] as const;
/** workflow steps that mail commit the mails to the outbox with the state change (decision 095) */
const PKG_MAIL = ['users', 'packages', 'audit', 'outbox'] as const;

export const ROUTES: readonly Route[] = [
  // ── identity ────────────────────────────────────────────────────────────────────────────────
  {
    id: 'login',
    method: 'POST',
    path: '/user/login',
    access: 'public',
    uses: { tables: USERS_AUDITED, clientSource: true },
    memoryMb: 1024,
    summary: 'Sign in with login (email) and password',
  },
  {
    id: 'auth',
    method: 'POST',
    path: '/user/auth',
    access: 'signedIn',
    uses: { tables: USERS },
    summary: 'Restore a session from a token',
  },
  {
    id: 'logout',
    method: 'POST',
    path: '/user/logout',
    access: 'signedIn',
    uses: { tables: USERS },
    summary: 'Revoke every token of the caller',
  },
  {
    id: 'register',
    method: 'POST',
    path: '/user/register',
    access: 'public',
    // mails the confirmation link and tells the admins a role was requested (issue 12)
    uses: { tables: USERS_AUDITED, mail: true },
    memoryMb: 1024,
    summary: 'Self-service registration (not as admin)',
  },
  {
    id: 'changePassword',
    method: 'POST',
    path: '/user/password',
    access: 'signedIn',
    uses: { tables: USERS_AUDITED, clientSource: true },
    memoryMb: 1024,
    summary: 'Change own password',
  },
  {
    id: 'updateAccount',
    method: 'POST',
    path: '/user/account',
    access: 'signedIn',
    // a new email gets a confirmation link; a new role is a request the admins hear of (issue 12);
    // packages: a role change is refused while a package waits for this person's decision
    uses: { tables: ['users', 'audit', 'packages'], mail: true },
    summary: 'Change own name, email, role',
  },
  {
    id: 'resetPassword',
    method: 'POST',
    path: '/user/reset-password',
    access: 'public',
    uses: { tables: USERS_AUDITED, mail: true, clientSource: true },
    memoryMb: 1024,
    summary: 'Mail a temporary password',
  },
  {
    id: 'confirmEmail',
    method: 'POST',
    path: '/user/confirm-email',
    access: 'public',
    // a confirmed registration is the moment the admins are told of the role request
    uses: { tables: USERS_AUDITED, mail: true },
    summary: 'Confirm an address with the single-use token of a mailed link (24 h)',
  },
  {
    id: 'resendConfirmation',
    method: 'POST',
    path: '/user/confirm-email/resend',
    access: 'public',
    uses: { tables: USERS, mail: true },
    summary: 'Mail a new confirmation link (same answer for any address; a few per address per 15 min)',
  },
  {
    id: 'adminListUsers',
    method: 'GET',
    path: '/admin/users',
    access: ADMIN,
    uses: { tables: USERS },
    summary: 'All users',
  },
  {
    id: 'adminDeleteUsers',
    method: 'DELETE',
    path: '/admin/users',
    access: ADMIN,
    // packages: a user a package still waits for cannot be deleted
    uses: { tables: ['users', 'audit', 'packages'] },
    summary: 'Delete users by id',
  },
  {
    id: 'adminDecideRoles',
    method: 'POST',
    path: '/admin/users/roles',
    access: ADMIN,
    uses: { tables: USERS_AUDITED, mail: true },
    summary: 'Grant or refuse requested roles; the users are mailed',
  },

  // ── resources ───────────────────────────────────────────────────────────────────────────────
  {
    id: 'listPatches',
    method: 'GET',
    path: '/resources/patch/{stage}',
    access: 'signedIn',
    uses: { tables: ['users', 'resources'] },
    summary: 'Patches of a stage',
  },
  {
    id: 'listModels',
    method: 'GET',
    path: '/resources/model/{stage}',
    access: 'signedIn',
    uses: { tables: ['users', 'resources'] },
    summary: 'Models of a stage',
  },
  {
    id: 'uploadPatch',
    method: 'POST',
    path: '/resources/patch/{stage}',
    access: UPLOADERS,
    uses: { tables: ['users', 'resources', 'audit'], buckets: { resources: ['write', 'delete'] } },
    memoryMb: 1024,
    summary: 'Upload a patch (multipart)',
  },
  {
    id: 'uploadModel',
    method: 'POST',
    path: '/resources/model/{stage}',
    access: UPLOADERS,
    uses: { tables: ['users', 'resources', 'audit'], buckets: { resources: ['write', 'delete'] } },
    memoryMb: 1024,
    summary: 'Upload a model and its metadata (multipart)',
  },
  {
    id: 'requestResourceUpload',
    method: 'POST',
    path: '/resources/uploads',
    access: UPLOADERS,
    uses: { tables: ['users', 'resources'], buckets: { resources: ['write'] } },
    summary:
      'Large resources (above the 10 MB request limit), step 1 of 3: checks name, extensions and sizes, ' +
      'answers presigned PUT URLs to staging/<uploadId>/ (15 min); step 2: the client PUTs the bytes to them',
  },
  {
    id: 'confirmResourceUpload',
    method: 'POST',
    path: '/resources/uploads/{uploadId}/confirm',
    access: UPLOADERS,
    uses: { tables: ['users', 'resources', 'audit'], buckets: { resources: ['read', 'write', 'delete'] } },
    memoryMb: 1024,
    summary:
      'Large resources, step 3 of 3 (requester only, before expiry): checks size, TFL3 and metadata, copies ' +
      'staging to resources/ while hashing, claims the name; any failure removes the staged bytes',
  },
  {
    id: 'generatePackage',
    method: 'POST',
    path: '/resources/{id}/generate-package',
    access: NON_ADMIN,
    uses: { tables: ['users', 'resources', 'packages', 'audit'] },
    summary: 'Create a DRAFT package from a resource',
  },

  // ── package lists ───────────────────────────────────────────────────────────────────────────
  {
    id: 'listPackages',
    method: 'GET',
    path: '/{stage}/packages',
    access: 'signedIn',
    uses: { tables: PKG_READ },
    summary: 'Packages of the dev or release stage',
  },
  {
    id: 'listDeliveryPackages',
    method: 'GET',
    path: '/delivery/packages',
    access: 'signedIn',
    uses: { tables: PKG_READ },
    summary: 'Packages in delivery',
  },
  {
    id: 'listApprovalPackages',
    method: 'GET',
    path: '/{stage}/packages/approval',
    access: NON_ADMIN,
    uses: { tables: PKG_READ },
    summary: 'Packages waiting for the caller’s approval (dev, release, deliver)',
  },
  {
    id: 'listSigningPackages',
    method: 'GET',
    path: '/{stage}/packages/signing',
    access: NON_ADMIN,
    uses: { tables: PKG_READ },
    summary: 'Packages waiting for the caller’s signature (dev, release)',
  },

  // ── one package ─────────────────────────────────────────────────────────────────────────────
  {
    id: 'downloadPackage',
    method: 'GET',
    path: '/packages/{id}',
    access: 'signedIn',
    uses: { tables: PKG_READ, buckets: { artefacts: ['read'] } },
    memoryMb: 1024,
    summary: 'The XML package (base64, or a presigned URL when large)',
  },
  {
    id: 'packageHistory',
    method: 'GET',
    path: '/packages/{id}/history',
    access: 'signedIn',
    uses: { tables: ['users', 'packages', 'audit'] },
    summary: 'Audit history of a package',
  },
  {
    id: 'getHeader',
    method: 'GET',
    path: '/packages/{id}/header',
    access: 'signedIn',
    uses: { tables: PKG_READ },
    summary: 'The package header fields',
  },
  {
    id: 'updateHeader',
    method: 'PATCH',
    path: '/packages/{id}/header',
    access: NON_ADMIN,
    // the resource's sizes and checksum feed the header's computed fields (found by the local IAM check)
    uses: { tables: [...PKG_WRITE, 'resources'] },
    summary: 'Edit the header (initiator, DRAFT)',
  },
  {
    id: 'attachDcc',
    method: 'POST',
    path: '/packages/{id}/dcc/{dccId}',
    access: NON_ADMIN,
    uses: { tables: ['users', 'packages', 'dcc', 'audit'] },
    summary: 'Attach a DCC (initiator, DRAFT)',
  },
  {
    id: 'listApprovers',
    method: 'GET',
    path: '/packages/{id}/approvers',
    access: NON_ADMIN,
    uses: { tables: PKG_READ },
    summary: 'Candidate approvers per role, and signers',
  },
  {
    id: 'notifyApprovers',
    method: 'POST',
    path: '/packages/{id}/notify-approvers',
    access: NON_ADMIN,
    uses: { tables: PKG_MAIL },
    summary: 'Send a DRAFT to approval',
  },
  {
    id: 'approvePackage',
    method: 'POST',
    path: '/packages/{id}/approve',
    access: NON_ADMIN,
    uses: {
      tables: ['users', 'packages', 'resources', 'dcc', 'audit', 'outbox'],
      buckets: { resources: ['read'], artefacts: ['write', 'delete'] },
    },
    memoryMb: 1536,
    summary: 'Approve as an assigned approver',
  },
  {
    id: 'rejectPackage',
    method: 'POST',
    path: '/packages/{id}/reject',
    access: NON_ADMIN,
    uses: { tables: PKG_MAIL },
    summary: 'Reject as an assigned approver',
  },
  {
    id: 'signPackage',
    method: 'POST',
    path: '/packages/{id}/generate-signed',
    access: RELEASE_ENGINEER,
    uses: {
      tables: ['users', 'packages', 'resources', 'dcc', 'audit', 'outbox'],
      // delete: a sign that lost its race to another sign or a reject-signing removes its own artefact
      buckets: { resources: ['read'], artefacts: ['write', 'delete'] },
      sign: 'sign',
    },
    memoryMb: 1536,
    summary: 'Sign as the assigned signer',
  },
  {
    id: 'rejectSigning',
    method: 'POST',
    path: '/packages/{id}/reject-signing',
    access: RELEASE_ENGINEER,
    uses: { tables: PKG_MAIL },
    summary: 'Refuse to sign',
  },
  {
    id: 'notifyDeliveryApprovers',
    method: 'POST',
    path: '/delivery/packages/{id}/notify-approvers',
    access: RELEASE_ENGINEER,
    uses: { tables: PKG_MAIL },
    summary: 'Deliver or re-deliver a release package',
  },
  {
    id: 'approveDelivery',
    method: 'POST',
    path: '/delivery/packages/{id}/approve',
    access: NON_ADMIN,
    uses: { tables: PKG_MAIL },
    summary: 'Approve a delivery',
  },
  {
    id: 'rejectDelivery',
    method: 'POST',
    path: '/delivery/packages/{id}/reject',
    access: NON_ADMIN,
    uses: { tables: PKG_MAIL },
    summary: 'Reject a delivery',
  },
  {
    id: 'signingKey',
    method: 'GET',
    path: '/signing-key',
    access: 'public',
    uses: { tables: [], sign: 'publicKey' },
    summary: 'The package signing public key (PEM)',
  },

  // ── DCC ─────────────────────────────────────────────────────────────────────────────────────
  {
    id: 'listDcc',
    method: 'GET',
    path: '/dcc',
    access: 'signedIn',
    uses: { tables: ['users', 'dcc'] },
    summary: 'All DCCs',
  },
  {
    id: 'createDcc',
    method: 'POST',
    path: '/dcc',
    access: NON_ADMIN,
    uses: { tables: ['users', 'dcc', 'audit'] },
    summary: 'Create a DCC',
  },

  // ── admin ───────────────────────────────────────────────────────────────────────────────────
  {
    id: 'adminListPackages',
    method: 'GET',
    path: '/admin/packages',
    access: ADMIN,
    uses: { tables: PKG_READ },
    summary: 'All packages',
  },
  {
    id: 'adminDeletePackages',
    method: 'DELETE',
    path: '/admin/packages',
    access: ADMIN,
    uses: { tables: ['users', 'packages', 'resources', 'audit'], buckets: { artefacts: ['delete'] } },
    summary: 'Delete packages and their artefacts',
  },
  {
    id: 'adminListDcc',
    method: 'GET',
    path: '/admin/dcc',
    access: ADMIN,
    uses: { tables: ['users', 'dcc'] },
    summary: 'All DCCs',
  },
  {
    id: 'adminDeleteDcc',
    method: 'DELETE',
    path: '/admin/dcc',
    access: ADMIN,
    uses: { tables: ['users', 'dcc', 'packages', 'audit'] },
    summary: 'Delete DCCs',
  },
  {
    id: 'adminListResources',
    method: 'GET',
    path: '/admin/resources',
    access: ADMIN,
    uses: { tables: ['users', 'resources'] },
    summary: 'All resources',
  },
  {
    id: 'adminDeleteResources',
    method: 'DELETE',
    path: '/admin/resources',
    access: ADMIN,
    uses: { tables: ['users', 'resources', 'packages', 'audit'], buckets: { resources: ['delete'] } },
    summary: 'Delete resources and their files',
  },
];

/** API Gateway stage name; the API lives under /dev. */
export const API_STAGE = 'dev';

/** kebab-case module name of a route's handler. */
export function handlerFile(routeId: string): string {
  return routeId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export function routeById(id: string): Route {
  const r = ROUTES.find((x) => x.id === id);
  if (!r) throw new Error(`unknown route ${id}`);
  return r;
}
