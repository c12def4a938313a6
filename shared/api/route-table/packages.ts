import * as z from 'zod';
import { createDccSchema } from '../contracts/dcc';
import { dccListQuerySchema } from '../contracts/list-view';
import {
  approvalListParamSchema,
  approversQuerySchema,
  attachDccParamSchema,
  departureSchema,
  headerBodySchema,
  listPageQuerySchema,
  packageIdParamSchema,
  packageListParamSchema,
  packageSourcesQuerySchema,
  updateDraftSchema,
  WAITING_FOR,
} from '../contracts/packages';
import { signingKeyQuerySchema } from '../contracts/resources';
import { answer, jsonText } from '../contracts/responses';
import { NON_ADMIN, PKG_CHOICE_READ, PKG_READ, PKG_WRITE } from './groups';
import {
  PACKAGE_DECISION_CONTRACT,
  PACKAGE_DECISION_RESPONSES,
  PACKAGE_DECISION_ROUTES,
} from './packages-decisions';
import { tokenCallable } from './token-use';
import type { Route, RouteRequest } from './types';

/**
 * Package lists and one package (header, changes, approvers), the signing key and the DCCs: each row, then
 * the requests, then the answers. The decisions on a package (approval, signing, delivery) are in
 * packages-decisions.ts; their rows, requests and answers are listed here in place.
 */
export const PACKAGE_ROUTES = [
  {
    id: 'listPackages',
    method: 'GET',
    path: '/{stage}/packages',
    access: 'signedIn',
    uses: { tables: PKG_READ },
    tokenScope: 'packages:draft',
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

  {
    id: 'listAttentionPackages',
    method: 'GET',
    path: '/attention/packages',
    access: 'signedIn',
    uses: { tables: PKG_READ },
    summary:
      'What waits for the caller as initiator (an admin: every package): packages waiting on someone who left their role, and rejected packages to revise',
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
    id: 'packageDetails',
    method: 'GET',
    path: '/packages/{id}/details',
    access: 'signedIn',
    uses: { tables: PKG_READ },
    tokenScope: 'packages:draft',
    summary: 'One package, and what it waits for from the caller (a mail link opens it)',
  },
  {
    id: 'packageChanges',
    method: 'GET',
    path: '/packages/{id}/changes',
    access: 'signedIn',
    uses: { tables: PKG_READ },
    summary: 'Changes since the last approved package for the same device (DCC device id) and resource type',
  },
  {
    id: 'getHeader',
    method: 'GET',
    path: '/packages/{id}/header',
    access: 'signedIn',
    uses: { tables: PKG_READ },
    tokenScope: 'packages:draft',
    summary: 'The package header fields',
  },
  {
    id: 'updateHeader',
    method: 'PATCH',
    path: '/packages/{id}/header',
    access: NON_ADMIN,
    // the resource's sizes and checksum feed the header's computed fields (found by the local IAM check)
    uses: tokenCallable({ tables: [...PKG_WRITE, 'resources'] }),
    tokenScope: 'packages:draft',
    summary: 'Edit the header (initiator, DRAFT)',
  },
  {
    id: 'updateDraft',
    method: 'PATCH',
    path: '/packages/{id}',
    access: NON_ADMIN,
    // a new sign flag recomputes the header's Type from the resource's sizes
    uses: { tables: [...PKG_WRITE, 'resources'], writes: ['packages', 'audit'] },
    summary: 'Step 1 of a draft again: its name, note and sign flag (initiator, DRAFT)',
  },
  {
    id: 'packageSources',
    method: 'GET',
    path: '/resources/{id}/package-sources',
    access: NON_ADMIN,
    uses: { tables: ['users', 'resources', 'packages', 'dcc'], writes: [] },
    summary:
      'Earlier packages a new package of this resource may start from (same resource or device), the one ' +
      'proposed and a free default name; `deviceId` also offers that DCC device id’s packages',
  },
  {
    id: 'attachDcc',
    method: 'POST',
    path: '/packages/{id}/dcc/{dccId}',
    access: NON_ADMIN,
    // the DCC's values are copied into the package; the DCC itself is not changed
    uses: tokenCallable({ tables: ['users', 'packages', 'dcc', 'audit'], writes: ['packages', 'audit'] }),
    tokenScope: 'packages:draft',
    summary: 'Attach a DCC (initiator, DRAFT)',
  },
  {
    id: 'listApprovers',
    method: 'GET',
    path: '/packages/{id}/approvers',
    // an admin reassigns the place of someone who left (decision 351): the candidates are theirs to read too
    access: 'signedIn',
    uses: { tables: PKG_CHOICE_READ },
    summary: 'Candidate approvers per role, and signers',
  },
  ...PACKAGE_DECISION_ROUTES,
  {
    id: 'signingKey',
    method: 'GET',
    path: '/signing-key',
    access: 'public',
    uses: { tables: [], sign: 'publicKey' },
    summary:
      'A package signing public key (PEM text inside JSON, with its key id and algorithm): the release key, or with ?stage=dev the development key',
  },
  {
    id: 'signingKeyPem',
    method: 'GET',
    path: '/signing-key.pem',
    access: 'public',
    uses: { tables: [], sign: 'publicKey' },
    summary:
      'A package signing public key as a PEM file (application/x-pem-file), for `npm run verify -- --key` and openssl: ?stage=release (the default) or ?stage=dev',
  },

  // ── DCC ─────────────────────────────────────────────────────────────────────────────────────
  {
    id: 'listDcc',
    method: 'GET',
    path: '/dcc',
    access: 'signedIn',
    uses: { tables: ['users', 'dcc'] },
    tokenScope: 'packages:draft',
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
] as const satisfies readonly Route[];

const id = { params: packageIdParamSchema } as const;

/** Requests of the package and DCC rows. */
export const PACKAGE_CONTRACT = {
  listPackages: { params: packageListParamSchema, query: listPageQuerySchema },
  listDeliveryPackages: { query: listPageQuerySchema },
  listApprovalPackages: { params: approvalListParamSchema },
  listSigningPackages: { params: packageListParamSchema },
  listAttentionPackages: {},
  downloadPackage: id,
  packageHistory: id,
  packageDetails: id,
  packageChanges: id,
  getHeader: id,
  updateHeader: { ...id, body: headerBodySchema },
  updateDraft: { ...id, body: updateDraftSchema },
  packageSources: { ...id, query: packageSourcesQuerySchema },
  attachDcc: { params: attachDccParamSchema },
  listApprovers: { ...id, query: approversQuerySchema },
  ...PACKAGE_DECISION_CONTRACT,
  signingKey: { query: signingKeyQuerySchema },
  signingKeyPem: { query: signingKeyQuerySchema, produces: 'application/x-pem-file' },
  listDcc: { query: dccListQuerySchema },
  createDcc: { body: createDccSchema, statuses: [201] },
} as const satisfies { [Id in (typeof PACKAGE_ROUTES)[number]['id']]: RouteRequest };

const packages = answer({ packages: jsonText('the packages (Package[])') });
const page = answer({
  packages: jsonText('the packages (Package[])'),
  nextCursor: z.string().optional().meta({ description: 'pass back as `cursor` for the next page' }),
  total: z.number().optional().meta({
    description: 'with offset, search or sort: how many packages the search matched (decision 210)',
  }),
});
const header = answer({ header: jsonText('the package header') });
/** Answers of the package and DCC rows. */
export const PACKAGE_RESPONSES = {
  listPackages: page,
  listDeliveryPackages: page,
  listApprovalPackages: packages,
  listSigningPackages: packages,
  listAttentionPackages: answer({
    stalled: jsonText(
      'packages waiting on someone who left their role: { package: Package, departures: Departure[] }[], newest first',
    ),
    rejected: jsonText('the caller’s rejected packages not yet revised (Package[]), newest first'),
  }),
  downloadPackage: answer({
    fileName: z.string(),
    sizeBytes: z.number(),
    sha256: z.string(),
    base64EncodedXMLPackage: z.string().optional(),
    downloadUrl: z.string().optional(),
  }),
  packageHistory: answer({
    history: jsonText('the audit events, oldest first'),
    chainIntact: z.boolean(),
    brokenAtSeq: z.number().nullable(),
  }),
  packageDetails: answer({
    package: jsonText('the package (Package)'),
    waitingFor: z
      .enum(WAITING_FOR)
      .nullable()
      .meta({ description: 'the decision the package waits for from the caller, or null' }),
    departures: z.array(departureSchema).meta({
      description:
        'people the package waits on who no longer hold the role they were chosen for (decision 351)',
    }),
  }),
  packageChanges: answer({
    changes: jsonText(
      'the changes since the last approved package (PackageChanges, shared/domain/package-changes.ts): `previous` (id, name, status, type, resourceName, approvedAt; null when there is none), `header` (fields old → new, decimal and hex), `lists` (criteria entries added, removed, changed), `files` (payload and metadata digests and sizes), `dcc` (DCC copy values that differ)',
    ),
    previousPackageId: z.string().nullable().meta({
      description:
        'the last approved package for the same device and resource type, or null when there is none',
    }),
    message: z
      .string()
      .optional()
      .meta({ description: 'when there is no earlier approved package, says so' }),
    digest: z.string().meta({
      description:
        'SHA-256 of this comparison (decision 266): a deciding call sends it back as `changesSeen`; the decision is refused (409) when the comparison changed since, and its audit record keeps what was seen',
    }),
  }),
  getHeader: header,
  updateHeader: header,
  updateDraft: answer({ package: jsonText('the package (Package)') }),
  packageSources: answer({
    packages: jsonText('the earlier packages, newest first (PackageSource[])'),
    proposedId: z
      .string()
      .nullable()
      .meta({ description: 'the latest rejected or approved one, proposed to start from' }),
    freeName: z.string().meta({ description: 'the default package name, free of their names' }),
  }),
  attachDcc: answer({ package: jsonText('the package (Package)') }),
  listApprovers: answer({
    approvers: jsonText('candidate approvers per role'),
    signers: jsonText('candidate signers').optional(),
    uploader: z.object({ id: z.string(), name: z.string() }).optional().meta({
      description:
        "who uploaded the package's resource: never offered as approver, signer or delivery approver (decision 331)",
    }),
  }),
  ...PACKAGE_DECISION_RESPONSES,
  signingKey: answer({ publicKeyPem: z.string(), keyId: z.string(), algorithm: z.string() }),
  signingKeyPem: z.string().meta({ description: 'the SPKI public key, PEM ("-----BEGIN PUBLIC KEY-----")' }),
  listDcc: answer({
    dcc: jsonText('the DCCs (Dcc[])'),
    total: z.number().optional().meta({
      description: 'with offset, limit, search or sort: how many rows the search matched (decision 221)',
    }),
  }),
  createDcc: answer({ dccUuid: z.string(), dcc: jsonText('the DCC (Dcc)') }),
} as const satisfies { [Id in (typeof PACKAGE_ROUTES)[number]['id']]: z.ZodType };
