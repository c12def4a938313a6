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
  getHeader: header,
  updateHeader: header,
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
  listDcc: answer({ dcc: jsonText('the DCCs (Dcc[])') }),
  createDcc: answer({ dccUuid: z.string(), dcc: jsonText('the DCC (Dcc)') }),
} as const satisfies { [Id in (typeof PACKAGE_ROUTES)[number]['id']]: z.ZodType };
