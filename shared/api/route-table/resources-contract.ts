import * as z from 'zod';
import { generatePackageSchema } from '../contracts/packages';
import {
  requestUploadSchema,
  resourceIdParamSchema,
  stageParamSchema,
  uploadIdParamSchema,
  uploadQuerySchema,
} from '../contracts/resources';
import { answer, jsonText } from '../contracts/responses';
import type { RESOURCE_ROUTES } from './resources';
import type { RouteContract } from './types';

const resources = answer({ resources: jsonText('the resources (Resource[])') });
const created = answer({ resource: jsonText('the resource (Resource)'), message: z.string() });
const upload = { params: stageParamSchema, query: uploadQuerySchema, multipart: true } as const;

/** Requests and answers of the resource rows (shared/api/contract.ts joins the areas). */
export const RESOURCE_CONTRACT = {
  listPatches: { params: stageParamSchema, response: resources },
  listModels: { params: stageParamSchema, response: resources },
  uploadPatch: { ...upload, response: created, statuses: [201] },
  uploadModel: { ...upload, response: created, statuses: [201] },
  requestResourceUpload: {
    body: requestUploadSchema,
    maxBodyBytes: 8 * 1024,
    response: answer({
      uploadId: z.string(),
      resourceUrl: z.string().meta({ description: 'presigned PUT URL of the resource file' }),
      metadataUrl: z.string().optional().meta({ description: 'presigned PUT URL of the metadata (models)' }),
      expiresAt: z.string(),
    }),
    statuses: [201],
  },
  confirmResourceUpload: { params: uploadIdParamSchema, response: created, statuses: [201] },
  generatePackage: {
    params: resourceIdParamSchema,
    body: generatePackageSchema,
    response: answer({ package: jsonText('the package (Package)') }),
    statuses: [201],
  },
} as const satisfies { [Id in (typeof RESOURCE_ROUTES)[number]['id']]: RouteContract };
