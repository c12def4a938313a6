import { createDccSchema } from '../contracts/dcc';
import { dccListQuerySchema } from '../contracts/list-view';
import {
  approvalListParamSchema,
  approversQuerySchema,
  attachDccParamSchema,
  headerBodySchema,
  listPageQuerySchema,
  notifySchema,
  packageIdParamSchema,
  packageListParamSchema,
  signedDecisionSchema,
  signedNotifySchema,
  signedRejectSchema,
  updateDraftSchema,
} from '../contracts/packages';
import type { PACKAGE_ROUTES } from './packages';
import type { RouteRequest } from './types';

const id = { params: packageIdParamSchema } as const;
const notify = { ...id, body: notifySchema } as const;
/** The deciding calls carry the signer's password (decision 141). */
const reject = { ...id, body: signedRejectSchema } as const;
const signed = { ...id, body: signedDecisionSchema } as const;

/**
 * Requests of the package and DCC rows (shared/api/contract.ts joins the areas, and the answers of
 * packages-responses.ts, which handlers import only as types).
 */
export const PACKAGE_CONTRACT = {
  listPackages: { params: packageListParamSchema, query: listPageQuerySchema },
  listDeliveryPackages: { query: listPageQuerySchema },
  listApprovalPackages: { params: approvalListParamSchema },
  listSigningPackages: { params: packageListParamSchema },
  downloadPackage: id,
  packageHistory: id,
  packageDetails: id,
  packageChanges: id,
  getHeader: id,
  updateHeader: { ...id, body: headerBodySchema },
  updateDraft: { ...id, body: updateDraftSchema },
  packageSources: id,
  attachDcc: { params: attachDccParamSchema },
  listApprovers: { ...id, query: approversQuerySchema },
  notifyApprovers: notify,
  approvePackage: { ...signed, statuses: [200, 202] },
  rejectPackage: reject,
  signPackage: { ...signed, statuses: [202] },
  retryGeneration: { ...id, statuses: [202] },
  rejectSigning: reject,
  notifyDeliveryApprovers: { ...id, body: signedNotifySchema },
  approveDelivery: { ...signed, statuses: [200, 202] },
  rejectDelivery: reject,
  signingKey: {},
  signingKeyPem: { produces: 'application/x-pem-file' },
  listDcc: { query: dccListQuerySchema },
  createDcc: { body: createDccSchema, statuses: [201] },
} as const satisfies { [Id in (typeof PACKAGE_ROUTES)[number]['id']]: RouteRequest };
