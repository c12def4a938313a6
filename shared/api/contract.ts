import type * as z from 'zod';
import { idListSchema } from './contracts/common';
import { createDccSchema } from './contracts/dcc';
import {
  approvalListParamSchema,
  approversQuerySchema,
  attachDccParamSchema,
  generatePackageSchema,
  headerBodySchema,
  listPageQuerySchema,
  notifySchema,
  packageIdParamSchema,
  packageListParamSchema,
  rejectSchema,
} from './contracts/packages';
import {
  requestUploadSchema,
  resourceIdParamSchema,
  stageParamSchema,
  uploadIdParamSchema,
  uploadQuerySchema,
} from './contracts/resources';
import * as A from './contracts/responses';
import {
  accountSchema,
  changePasswordSchema,
  confirmEmailSchema,
  decideRolesSchema,
  loginSchema,
  registerSchema,
  resendConfirmationSchema,
  resetPasswordSchema,
} from './contracts/user';
import type { RouteId } from './routes';

/** What one route takes and answers; the handler's middleware validates the request parts. */
export interface RouteContract {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** multipart/form-data (uploads): no JSON parsing; the handler reads the raw body */
  multipart?: true;
  /** largest accepted JSON body in bytes (default 256 KiB) */
  maxBodyBytes?: number;
  /** the body of a successful answer */
  response: z.ZodType;
  /** success statuses (default 200) */
  statuses?: readonly number[];
}

const SMALL = 4096;
const CREATED = [201] as const;

/**
 * The typed contract of every route table row (shared/api/routes.ts), keyed by its id: one parallel map,
 * so the rows stay free of zod for the CDK stack, the local server and the SPA's URL builder. `route(id,
 * fn)` (lambdas/middleware/http.ts) validates with it, the SPA's client takes its answer types from it,
 * and GET /dev/openapi.json is generated from it.
 */
export const CONTRACT = {
  // identity
  login: { body: loginSchema, maxBodyBytes: SMALL, response: A.tokenAnswer },
  auth: { response: A.authAnswer },
  logout: { response: A.signedOut },
  register: { body: registerSchema, maxBodyBytes: SMALL, response: A.registered, statuses: CREATED },
  changePassword: { body: changePasswordSchema, maxBodyBytes: SMALL, response: A.passwordChanged },
  updateAccount: { body: accountSchema, maxBodyBytes: SMALL, response: A.accountAnswer },
  resetPassword: { body: resetPasswordSchema, maxBodyBytes: SMALL, response: A.sent },
  confirmEmail: { body: confirmEmailSchema, maxBodyBytes: SMALL, response: A.confirmed },
  resendConfirmation: { body: resendConfirmationSchema, maxBodyBytes: SMALL, response: A.sent },
  adminListUsers: { response: A.usersAnswer },
  adminDeleteUsers: { body: idListSchema, response: A.deleted },
  adminDecideRoles: { body: decideRolesSchema, response: A.rolesDecided },
  // resources
  listPatches: { params: stageParamSchema, response: A.resourcesAnswer },
  listModels: { params: stageParamSchema, response: A.resourcesAnswer },
  uploadPatch: {
    params: stageParamSchema,
    query: uploadQuerySchema,
    multipart: true,
    response: A.resourceCreated,
    statuses: CREATED,
  },
  uploadModel: {
    params: stageParamSchema,
    query: uploadQuerySchema,
    multipart: true,
    response: A.resourceCreated,
    statuses: CREATED,
  },
  requestResourceUpload: {
    body: requestUploadSchema,
    maxBodyBytes: 8 * 1024,
    response: A.uploadTicket,
    statuses: CREATED,
  },
  confirmResourceUpload: { params: uploadIdParamSchema, response: A.resourceCreated, statuses: CREATED },
  generatePackage: {
    params: resourceIdParamSchema,
    body: generatePackageSchema,
    response: A.packageAnswer,
    statuses: CREATED,
  },
  // package lists
  listPackages: { params: packageListParamSchema, query: listPageQuerySchema, response: A.packagePage },
  listDeliveryPackages: { query: listPageQuerySchema, response: A.packagePage },
  listApprovalPackages: { params: approvalListParamSchema, response: A.packagesAnswer },
  listSigningPackages: { params: packageListParamSchema, response: A.packagesAnswer },
  // one package
  downloadPackage: { params: packageIdParamSchema, response: A.downloadAnswer },
  packageHistory: { params: packageIdParamSchema, response: A.historyAnswer },
  getHeader: { params: packageIdParamSchema, response: A.headerAnswer },
  updateHeader: { params: packageIdParamSchema, body: headerBodySchema, response: A.headerAnswer },
  attachDcc: { params: attachDccParamSchema, response: A.packageAnswer },
  listApprovers: { params: packageIdParamSchema, query: approversQuerySchema, response: A.approversAnswer },
  notifyApprovers: { params: packageIdParamSchema, body: notifySchema, response: A.notified },
  approvePackage: { params: packageIdParamSchema, response: A.decisionAnswer, statuses: [200, 202] },
  rejectPackage: { params: packageIdParamSchema, body: rejectSchema, response: A.rejected },
  signPackage: { params: packageIdParamSchema, response: A.decisionAnswer },
  rejectSigning: { params: packageIdParamSchema, body: rejectSchema, response: A.rejected },
  notifyDeliveryApprovers: { params: packageIdParamSchema, body: notifySchema, response: A.notified },
  approveDelivery: { params: packageIdParamSchema, response: A.decisionAnswer, statuses: [200, 202] },
  rejectDelivery: { params: packageIdParamSchema, body: rejectSchema, response: A.rejected },
  signingKey: { response: A.signingKeyAnswer },
  // DCC
  listDcc: { response: A.dccListAnswer },
  createDcc: { body: createDccSchema, response: A.dccCreated, statuses: CREATED },
  // admin
  adminListPackages: { query: listPageQuerySchema, response: A.packagePage },
  adminDeletePackages: { body: idListSchema, response: A.deleted },
  adminListDcc: { response: A.dccListAnswer },
  adminDeleteDcc: { body: idListSchema, response: A.deleted },
  adminListResources: { response: A.resourcesAnswer },
  adminDeleteResources: { body: idListSchema, response: A.deleted },
  // the API's own description
  openapi: { response: A.openApiDocument },
} as const satisfies { [Id in RouteId]: RouteContract };

export type Contract = typeof CONTRACT;

type Out<C, K extends string> = C extends { [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;

/** The validated path parameters, query and body of a route, as its handler gets them. */
export type RequestOf<Id extends RouteId> = {
  params: Out<Contract[Id], 'params'>;
  query: Out<Contract[Id], 'query'>;
  body: Out<Contract[Id], 'body'>;
};
/** What a client sends: the schemas' input types. */
export type RequestInputOf<Id extends RouteId> = {
  [K in 'params' | 'query' | 'body' as Contract[Id] extends { [P in K]: z.ZodType }
    ? K
    : never]: Contract[Id] extends {
    [P in K]: infer S extends z.ZodType;
  }
    ? z.input<S>
    : never;
};
/** The body of a successful answer: what the handler returns and the client gets. */
export type ResponseOf<Id extends RouteId> = z.output<Contract[Id]['response']>;
