import * as z from 'zod';
import { UPLOAD_STATES } from '../contracts/resources';
import { answer, jsonText } from '../contracts/responses';
import type { RESOURCE_ROUTES } from './resources';

const resources = answer({
  resources: jsonText('the resources (Resource[])'),
  total: z.number().optional().meta({
    description: 'with offset, limit, search or sort: how many rows the search matched (decision 221)',
  }),
});
const created = answer({ resource: jsonText('the resource (Resource)'), message: z.string() });
/** confirm / complete: the checks that take seconds passed; the SHA-256 runs off the request (decision 173) */
const verifying = answer({
  uploadId: z.string(),
  state: z.literal('VERIFYING'),
  sizeBytes: z.number().int(),
  message: z.string(),
});

/** Answers of the resource rows (shared/api/contract.ts joins them with resources-contract.ts). */
export const RESOURCE_RESPONSES = {
  listPatches: resources,
  listModels: resources,
  uploadPatch: created,
  uploadModel: created,
  requestResourceUpload: answer({
    uploadId: z.string(),
    resourceUrl: z.string().meta({ description: 'presigned PUT URL of the resource file' }),
    metadataUrl: z.string().optional().meta({ description: 'presigned PUT URL of the metadata (models)' }),
    expiresAt: z.string(),
  }),
  confirmResourceUpload: verifying,
  startMultipartUpload: answer({
    uploadId: z.string(),
    partSizeBytes: z.number().int(),
    partCount: z.number().int(),
    metadataUrl: z.string().optional().meta({ description: 'presigned PUT URL of the metadata (models)' }),
    expiresAt: z.string(),
  }),
  presignUploadParts: answer({
    urls: z.array(z.object({ partNumber: z.number().int(), url: z.string() })),
    expiresAt: z.string(),
  }),
  listUploadParts: answer({
    partSizeBytes: z.number().int(),
    partCount: z.number().int(),
    parts: z.array(z.object({ partNumber: z.number().int(), sizeBytes: z.number().int(), etag: z.string() })),
  }),
  completeMultipartUpload: verifying,
  getResourceUpload: answer({
    uploadId: z.string(),
    state: z.enum(UPLOAD_STATES),
    sizeBytes: z.number().int().optional(),
    verifiedBytes: z.number().int().optional(),
    resource: jsonText('REGISTERED: the resource (Resource)').optional(),
    message: z.string().optional(),
    errorMessage: z.string().optional().meta({ description: 'FAILED: why' }),
    statusCode: z.number().int().optional().meta({ description: 'FAILED: the status of the refusal' }),
    retryable: z
      .boolean()
      .optional()
      .meta({ description: 'FAILED: the same confirmation may be sent again (the file is kept)' }),
  }),
  abortResourceUpload: answer({ message: z.string() }),
  generatePackage: answer({ package: jsonText('the package (Package)') }),
} as const satisfies { [Id in (typeof RESOURCE_ROUTES)[number]['id']]: z.ZodType };
