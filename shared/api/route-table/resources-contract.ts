import { resourceListQuerySchema } from '../contracts/list-view';
import { generatePackageSchema } from '../contracts/packages';
import {
  completeMultipartSchema,
  presignPartsSchema,
  requestUploadSchema,
  resourceIdParamSchema,
  stageParamSchema,
  uploadIdParamSchema,
  uploadQuerySchema,
} from '../contracts/resources';
import type { RESOURCE_ROUTES } from './resources';
import type { RouteRequest } from './types';

const upload = {
  params: stageParamSchema,
  query: uploadQuerySchema,
  multipart: true,
  statuses: [201],
} as const;

/**
 * Requests of the resource rows (shared/api/contract.ts joins the areas, and the answers of
 * resources-responses.ts, which handlers import only as types).
 */
export const RESOURCE_CONTRACT = {
  listPatches: { params: stageParamSchema, query: resourceListQuerySchema },
  listModels: { params: stageParamSchema, query: resourceListQuerySchema },
  uploadPatch: upload,
  uploadModel: upload,
  requestResourceUpload: { body: requestUploadSchema, maxBodyBytes: 8 * 1024, statuses: [201] },
  confirmResourceUpload: { params: uploadIdParamSchema, statuses: [202] },
  startMultipartUpload: { body: requestUploadSchema, maxBodyBytes: 8 * 1024, statuses: [201] },
  presignUploadParts: { params: uploadIdParamSchema, body: presignPartsSchema, maxBodyBytes: 8 * 1024 },
  listUploadParts: { params: uploadIdParamSchema },
  completeMultipartUpload: {
    params: uploadIdParamSchema,
    body: completeMultipartSchema,
    maxBodyBytes: 1024 * 1024,
    statuses: [202],
  },
  getResourceUpload: { params: uploadIdParamSchema },
  abortResourceUpload: { params: uploadIdParamSchema },
  generatePackage: { params: resourceIdParamSchema, body: generatePackageSchema, statuses: [201] },
} as const satisfies { [Id in (typeof RESOURCE_ROUTES)[number]['id']]: RouteRequest };
