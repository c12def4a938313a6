import * as z from 'zod';
import {
  APPROVE_OUTCOMES,
  notifySchema,
  packageIdParamSchema,
  reassignSchema,
  signedDecisionSchema,
  signedNotifySchema,
  signedRejectSchema,
  withdrawSchema,
} from '../contracts/packages';
import { answer, donePackage, jsonText } from '../contracts/responses';
import {
  DELIVERER,
  NON_ADMIN,
  PKG_DECIDE,
  SIGNED_CHOICE,
  SIGNED_DECIDE,
  SIGNED_MAIL,
  SIGNER,
} from './groups';
import type { Route, RouteRequest } from './types';

/**
 * The decisions on one package (packages.ts holds the rest of the area and lists these rows in place):
 * send to approval, approve, reject, sign, retry a generation, deliver. Each row, then the requests, then
 * the answers.
 */
export const PACKAGE_DECISION_ROUTES = [
  {
    id: 'notifyApprovers',
    method: 'POST',
    path: '/packages/{id}/notify-approvers',
    access: NON_ADMIN,
    uses: SIGNED_CHOICE,
    summary: 'Send a DRAFT to approval',
  },
  {
    id: 'approvePackage',
    method: 'POST',
    path: '/packages/{id}/approve',
    access: NON_ADMIN,
    uses: SIGNED_DECIDE,
    summary: 'Approve as an assigned approver',
  },
  {
    id: 'rejectPackage',
    method: 'POST',
    path: '/packages/{id}/reject',
    access: NON_ADMIN,
    uses: SIGNED_MAIL,
    summary: 'Reject as an assigned approver',
  },
  {
    id: 'signPackage',
    method: 'POST',
    path: '/packages/{id}/generate-signed',
    access: SIGNER,
    uses: SIGNED_DECIDE,
    summary: 'Sign as the assigned signer',
  },
  {
    id: 'retryGeneration',
    method: 'POST',
    path: '/packages/{id}/retry-generation',
    // the decider of a failed generation: an approver (any non-admin role) or the signer
    access: NON_ADMIN,
    uses: PKG_DECIDE,
    summary: 'Retry a failed generation (only whose decision started it)',
  },
  {
    id: 'rejectSigning',
    method: 'POST',
    path: '/packages/{id}/reject-signing',
    access: SIGNER,
    uses: SIGNED_MAIL,
    summary: 'Refuse to sign',
  },
  {
    id: 'reassignPackage',
    method: 'POST',
    path: '/packages/{id}/reassign',
    // the initiator (any role) or an admin: the service checks who (decision 351)
    access: 'signedIn',
    uses: SIGNED_CHOICE,
    summary:
      'Give the place of someone who left their role to another holder of it (initiator or admin, signed)',
  },
  {
    id: 'withdrawPackage',
    method: 'POST',
    path: '/packages/{id}/withdraw',
    access: 'signedIn',
    uses: SIGNED_MAIL,
    summary: 'Withdraw a package from approval back to an editable draft (initiator or admin, signed)',
  },
  {
    id: 'notifyDeliveryApprovers',
    method: 'POST',
    path: '/delivery/packages/{id}/notify-approvers',
    access: DELIVERER,
    uses: SIGNED_CHOICE,
    summary: 'Deliver or re-deliver a release package',
  },
  {
    id: 'approveDelivery',
    method: 'POST',
    path: '/delivery/packages/{id}/approve',
    access: NON_ADMIN,
    // the last vote checks the stored package file before it is delivered (decision 302)
    uses: { ...SIGNED_MAIL, buckets: { artefacts: ['read'] } },
    summary: 'Approve a delivery',
  },
  {
    id: 'rejectDelivery',
    method: 'POST',
    path: '/delivery/packages/{id}/reject',
    access: NON_ADMIN,
    uses: SIGNED_MAIL,
    summary: 'Reject a delivery',
  },
] as const satisfies readonly Route[];

type Id = (typeof PACKAGE_DECISION_ROUTES)[number]['id'];

const id = { params: packageIdParamSchema } as const;
const notify = { ...id, body: notifySchema } as const;
/** The deciding calls carry the signer's password (decision 141). */
const reject = { ...id, body: signedRejectSchema } as const;
const signed = { ...id, body: signedDecisionSchema } as const;

/** Requests of the decision rows. */
export const PACKAGE_DECISION_CONTRACT = {
  notifyApprovers: notify,
  approvePackage: { ...signed, statuses: [200, 202] },
  rejectPackage: reject,
  signPackage: { ...signed, statuses: [202] },
  retryGeneration: { ...id, statuses: [202] },
  rejectSigning: reject,
  reassignPackage: { ...id, body: reassignSchema },
  withdrawPackage: { ...id, body: withdrawSchema },
  notifyDeliveryApprovers: { ...id, body: signedNotifySchema },
  approveDelivery: { ...signed, statuses: [200, 202] },
  rejectDelivery: reject,
} as const satisfies { [K in Id]: RouteRequest };

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

/** Answers of the decision rows. */
export const PACKAGE_DECISION_RESPONSES = {
  notifyApprovers: notified,
  approvePackage: decision,
  rejectPackage: rejected,
  signPackage: decision,
  retryGeneration: decision,
  rejectSigning: rejected,
  reassignPackage: answer({ message: z.string(), package: jsonText('the package (Package)') }),
  withdrawPackage: answer({ message: z.string(), package: jsonText('the package (Package)') }),
  notifyDeliveryApprovers: notified,
  approveDelivery: decision,
  rejectDelivery: rejected,
} as const satisfies { [K in Id]: z.ZodType };
