import * as z from 'zod';
import { APPROVE_OUTCOMES, WAITING_FOR } from '../contracts/packages';
import { answer, donePackage, jsonText } from '../contracts/responses';
import type { PACKAGE_ROUTES } from './packages';

const packages = answer({ packages: jsonText('the packages (Package[])') });
const page = answer({
  packages: jsonText('the packages (Package[])'),
  nextCursor: z.string().optional().meta({ description: 'pass back as `cursor` for the next page' }),
  total: z.number().optional().meta({
    description: 'with offset, search or sort: how many packages the search matched (decision 210)',
  }),
});
const header = answer({ header: jsonText('the package header') });
const notified = donePackage('NOTIFIED');
const rejected = donePackage('REJECTED');
/** Approve (package or delivery), sign: the outcome, and what it brought. */
const decision = answer({
  outcome: z.enum([...APPROVE_OUTCOMES, 'SIGNED']),
  message: z.string().optional(),
  generatedXmlS3Link: z.string().optional(),
  mLifePath: z.string().optional(),
  package: jsonText('the package (Package)'),
});

/** Answers of the package and DCC rows (shared/api/contract.ts joins them with packages-contract.ts). */
export const PACKAGE_RESPONSES = {
  listPackages: page,
  listDeliveryPackages: page,
  listApprovalPackages: packages,
  listSigningPackages: packages,
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
  }),
  notifyApprovers: notified,
  approvePackage: decision,
  rejectPackage: rejected,
  signPackage: decision,
  retryGeneration: decision,
  rejectSigning: rejected,
  notifyDeliveryApprovers: notified,
  approveDelivery: decision,
  rejectDelivery: rejected,
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
