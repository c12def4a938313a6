import { NON_ADMIN, UPLOADERS } from './groups';
import type { Route } from './types';

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
  {
    id: 'uploadPatch',
    method: 'POST',
    path: '/resources/patch/{stage}',
    access: UPLOADERS,
    uses: { tables: ['users', 'resources', 'audit'], buckets: { resources: ['write', 'delete'] } },
    memoryMb: 1024,
    summary: 'Upload a patch (multipart)',
  },
  {
    id: 'uploadModel',
    method: 'POST',
    path: '/resources/model/{stage}',
    access: UPLOADERS,
    uses: { tables: ['users', 'resources', 'audit'], buckets: { resources: ['write', 'delete'] } },
    memoryMb: 1024,
    summary: 'Upload a model and its metadata (multipart)',
  },
  {
    id: 'requestResourceUpload',
    method: 'POST',
    path: '/resources/uploads',
    access: UPLOADERS,
    uses: { tables: ['users', 'resources'], buckets: { resources: ['write'] } },
    summary:
      'Large resources (above the 10 MB request limit), step 1 of 3: checks name, extensions and sizes, ' +
      'answers presigned PUT URLs to staging/<uploadId>/ (15 min); step 2: the client PUTs the bytes to them',
  },
  {
    id: 'confirmResourceUpload',
    method: 'POST',
    path: '/resources/uploads/{uploadId}/confirm',
    access: UPLOADERS,
    uses: { tables: ['users', 'resources', 'audit'], buckets: { resources: ['read', 'write', 'delete'] } },
    memoryMb: 1024,
    summary:
      'Large resources, step 3 of 3 (requester only, before expiry): checks size, TFL3 and metadata, copies ' +
      'staging to resources/ while hashing, claims the name; any failure removes the staged bytes',
  },
  {
    id: 'generatePackage',
    method: 'POST',
    path: '/resources/{id}/generate-package',
    access: NON_ADMIN,
    uses: { tables: ['users', 'resources', 'packages', 'audit'] },
    summary: 'Create a DRAFT package from a resource',
  },
] as const satisfies readonly Route[];
