import * as z from 'zod';
import { resourceListQuerySchema } from '../contracts/list-view';
import { generatePackageSchema } from '../contracts/packages';
import {
  completeMultipartSchema,
  presignPartsSchema,
  requestUploadSchema,
  resourceIdParamSchema,
  stageParamSchema,
  UPLOAD_STATES,
  uploadIdParamSchema,
  uploadQuerySchema,
} from '../contracts/resources';
import { answer, jsonText } from '../contracts/responses';
import { NON_ADMIN, UPLOADERS } from './groups';
import { tokenCallable } from './token-use';
import type { Route, RouteRequest } from './types';

/** The two multipart uploads (a patch; a model with its metadata): the request carries the files. */
const multipartUpload = <Id extends string, Path extends string>(id: Id, path: Path, summary: string) =>
  ({
    id,
    method: 'POST',
    path,
    access: UPLOADERS,
    uses: tokenCallable({
      tables: ['users', 'resources', 'audit'],
      buckets: { resources: ['write', 'delete'] },
    }),
    memoryMb: 1024,
    tokenScope: 'resources:upload',
    summary,
  }) as const;

/** Resources: patches and models, their upload, and packages made from them. */
export const RESOURCE_ROUTES = [
  {
    id: 'listPatches',
    method: 'GET',
    path: '/resources/patch/{stage}',
    access: 'signedIn',
    uses: { tables: ['users', 'resources'] },
    summary: 'Patches of a stage',
  },
  {
    id: 'listModels',
    method: 'GET',
    path: '/resources/model/{stage}',
    access: 'signedIn',
    uses: { tables: ['users', 'resources'] },
    summary: 'Models of a stage',
  },
  multipartUpload('uploadPatch', '/resources/patch/{stage}', 'Upload a patch (multipart)'),
  multipartUpload('uploadModel', '/resources/model/{stage}', 'Upload a model and its metadata (multipart)'),
  {
    id: 'requestResourceUpload',
    method: 'POST',
    path: '/resources/uploads',
    access: UPLOADERS,
    uses: tokenCallable({ tables: ['users', 'resources'], buckets: { resources: ['write'] } }),
    tokenScope: 'resources:upload',
    summary:
      'Large resources (above the 10 MB request limit), step 1 of 3: checks name, extensions and sizes, ' +
      'answers presigned PUT URLs to staging/<uploadId>/ (15 min); step 2: the client PUTs the bytes to them',
  },
  {
    id: 'confirmResourceUpload',
    method: 'POST',
    path: '/resources/uploads/{uploadId}/confirm',
    access: UPLOADERS,
    uses: tokenCallable({
      tables: ['users', 'resources'],
      buckets: { resources: ['read', 'write', 'delete'] },
      invoke: ['verifyUpload'],
    }),
    tokenScope: 'resources:upload',
    summary:
      'Large resources, step 3 of 3 (requester only, before expiry): checks size, TFL3, metadata and name, ' +
      'answers 202 VERIFYING and hands the SHA-256 and registration to the verifyUpload worker (decision ' +
      '173); a refusal removes the staged bytes',
  },
  {
    id: 'startMultipartUpload',
    method: 'POST',
    path: '/resources/uploads/multipart',
    access: UPLOADERS,
    uses: tokenCallable({ tables: ['users', 'resources'], buckets: { resources: ['write'] } }),
    tokenScope: 'resources:upload',
    summary:
      'Resources up to 10 GiB, step 1: the checks of requestResourceUpload, then an S3 multipart upload to ' +
      "staging/<uploadId>/; answers the part size and count (and a PUT URL for a model's metadata)",
  },
  {
    id: 'presignUploadParts',
    method: 'POST',
    path: '/resources/uploads/{uploadId}/parts',
    access: UPLOADERS,
    uses: tokenCallable({ tables: ['users', 'resources'], buckets: { resources: ['write'] } }),
    tokenScope: 'resources:upload',
    summary: 'Multipart upload (requester only): presigned UploadPart URLs for up to 100 parts (15 min)',
  },
  {
    id: 'listUploadParts',
    method: 'GET',
    path: '/resources/uploads/{uploadId}/parts',
    access: UPLOADERS,
    uses: { tables: ['users', 'resources'], buckets: { resources: ['parts'] } },
    tokenScope: 'resources:upload',
    summary:
      'Multipart upload (requester only): the parts S3 holds (ListParts), so a resumed upload sends the rest',
  },
  {
    id: 'completeMultipartUpload',
    method: 'POST',
    path: '/resources/uploads/{uploadId}/complete',
    access: UPLOADERS,
    // no read: S3's CompleteMultipartUpload (it may take minutes) and the checks run in the worker
    uses: tokenCallable({
      tables: ['users', 'resources'],
      buckets: { resources: ['write', 'delete'] },
      invoke: ['verifyUpload'],
    }),
    tokenScope: 'resources:upload',
    summary:
      'Multipart upload, last step (requester only): checks the part list and the name, answers 202 VERIFYING; ' +
      'the verifyUpload worker completes the upload in S3 with the ETags, checks size, TFL3 and metadata and ' +
      'hashes it (decision 173); a refusal removes everything',
  },
  {
    id: 'getResourceUpload',
    method: 'GET',
    path: '/resources/uploads/{uploadId}',
    access: UPLOADERS,
    uses: { tables: ['users', 'resources'] },
    tokenScope: 'resources:upload',
    summary:
      'Where an upload stands (requester only): UPLOADING, VERIFYING with bytes hashed, REGISTERED with the ' +
      'resource, or FAILED with the reason (decision 173)',
  },
  {
    id: 'abortResourceUpload',
    method: 'DELETE',
    path: '/resources/uploads/{uploadId}',
    access: UPLOADERS,
    uses: tokenCallable({ tables: ['users', 'resources'], buckets: { resources: ['write', 'delete'] } }),
    tokenScope: 'resources:upload',
    summary:
      'Cancels an upload (requester only): aborts the multipart upload, removes staged bytes and the pending upload',
  },
  {
    id: 'generatePackage',
    method: 'POST',
    path: '/resources/{id}/generate-package',
    access: NON_ADMIN,
    // reads a model's metadata file when its digest was not recorded at upload (decision 190)
    // the DCC of a package started from is read to copy its choice
    uses: tokenCallable({
      tables: ['users', 'resources', 'packages', 'dcc', 'audit'],
      writes: ['resources', 'packages', 'audit'],
      buckets: { resources: ['read'] },
    }),
    tokenScope: 'packages:draft',
    summary:
      'Create a DRAFT package from a resource, with a header given as code (header) or started from an earlier package (fromPackageId)',
  },
] as const satisfies readonly Route[];

const upload = {
  params: stageParamSchema,
  query: uploadQuerySchema,
  multipart: true,
  statuses: [201],
} as const;

/** Requests of the resource rows. */
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

/** Answers of the resource rows. */
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
