import * as z from 'zod';
import { createDccSchema } from '../contracts/dcc';
import {
  APPROVE_OUTCOMES,
  approvalListParamSchema,
  approversQuerySchema,
  attachDccParamSchema,
  headerBodySchema,
  listPageQuerySchema,
  notifySchema,
  packageIdParamSchema,
  packageListParamSchema,
  rejectSchema,
} from '../contracts/packages';
import { answer, donePackage, jsonText } from '../contracts/responses';
import type { PACKAGE_ROUTES } from './packages';
import type { RouteContract } from './types';

const id = { params: packageIdParamSchema } as const;
const packages = answer({ packages: jsonText('the packages (Package[])') });
const page = answer({
  packages: jsonText('the packages (Package[])'),
  nextCursor: z.string().optional().meta({ description: 'pass back as `cursor` for the next page' }),
});
const header = answer({ header: jsonText('the package header') });
const notify = { ...id, body: notifySchema, response: donePackage('NOTIFIED') } as const;
const reject = { ...id, body: rejectSchema, response: donePackage('REJECTED') } as const;
/** Approve (package or delivery), sign: the outcome, and what it brought. */
const decision = answer({
  outcome: z.enum([...APPROVE_OUTCOMES, 'SIGNED']),
  message: z.string().optional(),
  generatedXmlS3Link: z.string().optional(),
  mLifePath: z.string().optional(),
  package: jsonText('the package (Package)'),
});
const dccList = answer({ dcc: jsonText('the DCCs (Dcc[])') });

/** Requests and answers of the package and DCC rows (shared/api/contract.ts joins the areas). */
export const PACKAGE_CONTRACT = {
  listPackages: { params: packageListParamSchema, query: listPageQuerySchema, response: page },
  listDeliveryPackages: { query: listPageQuerySchema, response: page },
  listApprovalPackages: { params: approvalListParamSchema, response: packages },
  listSigningPackages: { params: packageListParamSchema, response: packages },
  downloadPackage: {
    ...id,
    response: answer({
      fileName: z.string(),
      sizeBytes: z.number(),
      sha256: z.string(),
      base64EncodedXMLPackage: z.string().optional(),
      downloadUrl: z.string().optional(),
    }),
  },
  packageHistory: {
    ...id,
    response: answer({
      history: jsonText('the audit events, oldest first'),
      chainIntact: z.boolean(),
      brokenAtSeq: z.number().nullable(),
    }),
  },
  getHeader: { ...id, response: header },
  updateHeader: { ...id, body: headerBodySchema, response: header },
  attachDcc: {
    params: attachDccParamSchema,
    response: answer({ package: jsonText('the package (Package)') }),
  },
  listApprovers: {
    ...id,
    query: approversQuerySchema,
    response: answer({
      approvers: jsonText('candidate approvers per role'),
      signers: jsonText('candidate signers').optional(),
    }),
  },
  notifyApprovers: notify,
  approvePackage: { ...id, response: decision, statuses: [200, 202] },
  rejectPackage: reject,
  signPackage: { ...id, response: decision },
  rejectSigning: reject,
  notifyDeliveryApprovers: notify,
  approveDelivery: { ...id, response: decision, statuses: [200, 202] },
  rejectDelivery: reject,
  signingKey: { response: answer({ publicKeyPem: z.string(), keyId: z.string(), algorithm: z.string() }) },
  listDcc: { response: dccList },
  createDcc: {
    body: createDccSchema,
    response: answer({ dccUuid: z.string(), dcc: jsonText('the DCC (Dcc)') }),
    statuses: [201],
  },
} as const satisfies { [Id in (typeof PACKAGE_ROUTES)[number]['id']]: RouteContract };
